import { parseRateLimitHeaders, RATE_LIMITS, RETRY_POLICY } from '@videogen/openapi/rules';
import type { Clock } from './clock.js';
import { isRetryable, NetworkError, retryAfterOf, TimeoutError } from './errors.js';
import { type Pacer, route } from './pacer.js';

export interface RetryOptions {
  /** Retries of a 5xx, a 429 or a network error of a GET (default 3, x-retry-policy). */
  maxRetries: number;
  /** First backoff of a 5xx or a network error; doubles each time, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Wait on a 503 without Retry-After (default 30–60 s, x-retry-policy). */
  serviceUnavailableDelayMs: readonly [number, number];
  /**
   * Ceiling of any single wait (a Retry-After, a reset, the pacer's spacing); default 15 min. A longer
   * wait is not slept: the call fails with the server's error, which carries its Retry-After.
   */
  maxWaitMs: number;
}

/**
 * The request object openapi-fetch builds for `client.api` (its `Request` option): the URL and the
 * init, not a WHATWG Request. The transport hands them to `fetch(url, init)`, which builds the one
 * Request undici needs, instead of copying a Request built before it (building one costs about a
 * tenth of a loopback call). A custom `fetch` still gets a standard Request.
 */
export class LightRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null;
  readonly signal?: AbortSignal;
  constructor(url: string | URL, readonly init: RequestInit = {}) {
    this.url = String(url);
    this.method = init.method?.toUpperCase() ?? 'GET';
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? undefined;
  }
}
/** What the transport sends: a LightRequest, or a standard Request (downloads, middleware). */
export type AnyRequest = Request | LightRequest;
export const toRequest = (r: AnyRequest) => (r instanceof LightRequest ? new Request(r.url, r.init) : r);
/** Bodies fetch can send again as they are (a stream or an async iterable is read once). */
const reusable = (b: unknown) =>
  typeof b == 'string' || b instanceof Blob || b instanceof ArrayBuffer || ArrayBuffer.isView(b) || b instanceof URLSearchParams || b instanceof FormData;

export interface SendOptions {
  /** A fresh copy of the request for a retry (uploads rebuild their body from its source). */
  rebuild?: () => AnyRequest;
  /** Per-attempt timeout until the response headers arrive; 0 for none. */
  timeoutMs?: number;
  /** Skip the pacer (download host). */
  pace?: boolean;
  /**
   * At-most-once creation (generate, conversion): called before a POST would be re-sent after an
   * answer that does not prove nothing was created (a 5xx other than 503, a dropped connection).
   * It returns the answer to give instead (the video the first attempt made), `'absent'` when the
   * service shows no such video (re-sending is safe), or `'unknown'` when it cannot tell (not re-sent).
   */
  beforeResend?: (firstSentAt: number) => Promise<Response | 'absent' | 'unknown'>;
}

export interface SenderConfig {
  /** A custom fetch, called as fetch(request, init?) with a standard Request; default: fetch(url, init). */
  fetch?: (req: Request, init?: RequestInit) => Promise<Response>;
  clock: Clock;
  retry: RetryOptions;
  timeoutMs: number;
  pacer?: Pacer;
  /** Looks at a video's status (the pacer uses it when it believes the account full). */
  check?: (id: string) => Promise<unknown>;
  /** The opt-in traffic log: called with every exchange (traffic-log.ts). */
  log?: (req: AnyRequest, res: Response | undefined, error?: unknown) => Promise<void>;
}

export const retryOptions = (o: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: RETRY_POLICY.maxRetries,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  serviceUnavailableDelayMs: RETRY_POLICY.serviceUnavailableDelayMs,
  maxWaitMs: 15 * 60_000,
  ...o,
});

const between = ([a, b]: readonly [number, number]) => a + Math.random() * (b - a);
/** Exponential backoff with jitter: base × 2^attempt, capped, times 0.5–1. */
const backoff = (r: RetryOptions, attempt: number) => between([0.5, 1]) * Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** attempt);

/**
 * The transport under openapi-fetch: pacing, per-attempt timeout and the retry rules of the
 * interface (7.1). It returns the last response, as fetch would; it throws only for network
 * errors and timeouts (as NetworkError / TimeoutError) and for an aborted signal.
 */
export function createSender(c: SenderConfig) {
  return async function send(req: AnyRequest, o: SendOptions = {}): Promise<Response> {
    const { clock, retry, pacer } = o.pace === false ? { ...c, pacer: undefined } : c;
    const { signal, method } = req;
    const idempotent = method == 'GET' || method == 'HEAD';
    const timeoutMs = o.timeoutMs ?? c.timeoutMs;
    // The next attempt's request. A body fetch can send again (JSON: a string) is sent as it is; a
    // Request's non-multipart body is kept as bytes; any other body without `rebuild` is a one-shot
    // stream and cannot be sent twice.
    let next: (() => AnyRequest) | undefined = o.rebuild;
    let first: AnyRequest | undefined = req;
    if (!req.body || (req instanceof LightRequest && reusable(req.body))) next = () => req;
    else if (!next && req instanceof Request && !/multipart/i.test(req.headers.get('content-type') ?? '')) {
      const body = await req.arrayBuffer();
      next = () => new Request(req, { body });
      first = undefined;
    }
    let firstSentAt = 0;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const r = attempt == 0 && first ? first : next!();
      const entry = pacer && (await pacer.acquire(req, signal, c.check));
      if (attempt == 0) firstSentAt = clock.now();
      // A plain timer and controller: cheaper per call than AbortSignal.timeout + AbortSignal.any.
      const ac = timeoutMs ? new AbortController() : undefined;
      const stop = () => ac!.abort(signal!.reason);
      const timer = ac && setTimeout(() => ac.abort(), timeoutMs);
      ac && signal?.addEventListener('abort', stop);
      let res: Response | undefined, cause: unknown, wait = 0;
      try {
        res = await (c.fetch
          ? c.fetch(toRequest(r), ac && { signal: ac.signal })
          : r instanceof LightRequest
            ? fetch(r.url, ac ? { ...r.init, signal: ac.signal } : r.init)
            : fetch(r, ac && { signal: ac.signal }));
      } catch (e) {
        cause = e;
      }
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      if (c.log) await c.log(r, res, cause);
      if (!res) {
        if (entry) await pacer!.settle(req, entry);
        if (signal?.aborted) throw signal.reason;
        const e = ac?.signal.aborted
          ? new TimeoutError(`No response in ${timeoutMs} ms`, { cause, retryable: idempotent })
          : new NetworkError(`Network error: ${(cause as Error)?.cause ?? cause}`, { cause, retryable: idempotent });
        // A POST may have reached the server: it is never re-sent, but a create may be found.
        if (!idempotent && o.beforeResend) {
          const found = await o.beforeResend(firstSentAt);
          if (found instanceof Response) return found;
        }
        if (!idempotent || attempt >= retry.maxRetries || !next) throw e;
        wait = backoff(retry, attempt);
      }
      else {
        if (entry) await pacer!.settle(req, entry, res);
        const s = res.status;
        if (s < 500 && s != 429) return res;
        const code = s == 429 && (await res.clone().json().catch(() => ({}))).error_code;
        if (!isRetryable(s, code) || attempt >= retry.maxRetries || !next) return res;
        const now = clock.now();
        const after = retryAfterOf(res.headers, now).retryAfterMs;
        // Beyond the ceiling the response is the answer: the caller's error carries its Retry-After.
        if (after !== undefined && after > retry.maxWaitMs) return res;
        wait =
          s == 429
            // The pacer waits on its own (it has learned the reset); without it, wait here.
            ? pacer ? 0 : after ?? parseRateLimitHeaders(res.headers).resetMs ?? RATE_LIMITS[route(req).cls].windowMs
            : after ?? (s == 503 ? between(retry.serviceUnavailableDelayMs) : backoff(retry, attempt));
        // Kept for the caller when the create is not re-sent: its body names the server's error.
        const kept = o.beforeResend && !idempotent ? await res.text().catch(() => '') : undefined;
        if (kept === undefined) await res.body?.cancel();
        if (wait) await clock.sleep(wait, signal);
        wait = 0;
        if (!idempotent && o.beforeResend && s >= 500 && s != 503) {
          const found = await o.beforeResend(firstSentAt);
          if (found instanceof Response) return found;
          if (found == 'unknown') return ambiguous(res, kept!);
        }
      }
      if (wait) await clock.sleep(wait, signal);
    }
  };
}
export type Send = ReturnType<typeof createSender>;

/** The answer of a create that was not re-sent because its first attempt may have created the video. */
const ambiguous = (res: Response, body: string) => {
  const h = new Headers(res.headers);
  h.set('x-videogen-not-resent', 'the first attempt may have created the video');
  return new Response(body, { status: res.status, statusText: res.statusText, headers: h });
};
