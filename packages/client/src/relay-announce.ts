// Telling a relay (@videogen/relay, `videogen relay --listen`) about a video this process created, so
// that it watches the video at once instead of finding it at its next listing. Over HTTP, because every
// runtime the client supports can send it (a Cloudflare Worker or a Lambda cannot reach Redis over TCP),
// and because the relay acknowledges only what it has stored: the 202 means the video is watched.
//
// The request: `POST {relayUrl}/announce` with `{ video_id, source_video_id?, traceparent?, tracestate? }`,
// authorized by a token derived from the API key (HMAC-SHA256 of a fixed label, keyed by the key): the
// relay holds the same key, so nothing more is configured, and the key itself never leaves the process.
// An announce that fails never fails the create: the relay still finds the video by listing.
import type { Log } from './logger.js';
import { type Context, endHttpSpan, startHttpSpan, traceHeaders } from './tracing.js';

/** The variable read for `relayUrl`. */
export const RELAY_URL_VARIABLE = 'VIDEO_RELAY_URL';

/** The path of a relay's announce endpoint, below its URL. */
export const ANNOUNCE_PATH = '/announce';

/** What a create tells the relay. */
export interface Announcement {
  video_id: string;
  /** A conversion's source video (a webhook of the conversion names it). */
  source_video_id?: string;
  /** The W3C Trace Context of the create's span: the webhook continues that trace. */
  traceparent?: string;
  tracestate?: string;
}

const LABEL = 'videogen-relay-announce';

/**
 * The token that authorizes announcements for the account of `apiKey`: hex HMAC-SHA256 of a fixed label
 * keyed by the key (Web Crypto, in every runtime). The relay computes the same from its own key.
 */
export async function relayToken(apiKey: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(apiKey), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(LABEL)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What is wrong with a relay URL, or undefined: an http(s) URL with no query, fragment or credentials. */
export function relayUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${RELAY_URL_VARIABLE} (relayUrl) must be a URL such as http://relay.internal:8787, got ${JSON.stringify(url)}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return `${RELAY_URL_VARIABLE} (relayUrl) must be an http:// or https:// URL, got ${u.protocol}//`;
  if (u.username || u.password || u.search || u.hash)
    return `${RELAY_URL_VARIABLE} (relayUrl) takes no credentials, query or fragment: the announce is authorized by the API key`;
  return undefined;
}

export interface AnnounceOptions {
  /** The trace context of the create (its span): carried to the relay, whose webhook continues the trace. */
  traceContext?: Context;
  signal?: AbortSignal;
}

export type Announce = (a: Omit<Announcement, 'traceparent' | 'tracestate'>, o?: AnnounceOptions) => Promise<boolean>;

/** A plain fetch of the client's (its custom fetch and fetch options, if given). */
export type PlainFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The announcer of one client: resolves true when the relay acknowledged (2xx), false otherwise, after
 * one warning line; it never rejects (a failed announce costs the relay one listing's delay, nothing
 * more). Sent twice at most: again after no answer or a 5xx (an announce is idempotent). Each attempt is
 * an HTTP span of the create's trace.
 */
export function createAnnouncer(c: {
  relayUrl: string;
  apiKey: string;
  fetch: PlainFetch;
  log: Log;
  timeoutMs: number;
}): Announce {
  const url = c.relayUrl.replace(/\/+$/, '') + ANNOUNCE_PATH;
  let token: Promise<string> | undefined;
  return async (a, o = {}) => {
    const body = JSON.stringify({ ...a, ...traceHeaders(o.traceContext) } satisfies Announcement);
    let why = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const span = startHttpSpan({ method: 'POST', url, resendCount: attempt }, o.traceContext);
      try {
        token ??= relayToken(c.apiKey);
        const signal = o.signal
          ? AbortSignal.any([o.signal, AbortSignal.timeout(c.timeoutMs)])
          : AbortSignal.timeout(c.timeoutMs);
        const res = await c.fetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${await token}`, 'Content-Type': 'application/json' },
          body,
          redirect: 'error',
          signal,
        });
        endHttpSpan(span, { status: res.status });
        await res.body?.cancel();
        if (res.ok) return true;
        why = `answered ${res.status}`;
        if (res.status < 500) break;
      } catch (e) {
        endHttpSpan(span, { failure: (e as Error)?.name === 'TimeoutError' ? 'timeout' : 'network' });
        why = `failed: ${(e as Error)?.message}`;
        if (o.signal?.aborted) break;
      }
    }
    c.log.warn?.(
      { call: `POST ${url}`, video_id: a.video_id },
      `relay announce of ${a.video_id} ${why}; the relay will find the video by listing`,
    );
    return false;
  };
}
