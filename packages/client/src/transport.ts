// The transport: every request of the client (API calls, uploads, downloads, and `client.api`'s)
// goes through `send`, which paces it, sends it with a per-attempt timeout, logs it, and applies the
// retry rules of the interface (7.1). Read it top-down: `send` is the loop; each attempt is
// `sendOnce`; after each, the rules' one `retryDecision` says whether to send again, after how long,
// and whether a create must be looked for instead (at most once for every POST).
import {
  BACKOFF,
  noAnswerOf,
  isIdempotent,
  redactUrlQuery,
  RETRY_POLICY,
  retryDecision,
  type AttemptResult,
  type NoAnswer,
  type RetryDecision,
} from '@videogen/openapi/rules';
import type { Clock } from './clock.js';
import { NetworkError, TimeoutError } from './errors.js';
import { exchangeRecord, type Log } from './logger.js';
import { type Pacer, route } from './pacer.js';

/** Options every method takes as its last argument (the same names everywhere). */
export interface RequestOptions {
  /** Cancels the call, including any wait before a retry; it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Per attempt, until the response headers arrive (default: the client's `timeoutMs`, 60 s). */
  timeoutMs?: number;
  /** Retries of this call (default: the client's `maxRetries`, 3); 0 sends it once. */
  maxRetries?: number;
  /** Extra request headers for this call (they replace the client's of the same name). */
  headers?: Record<string, string>;
}

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

export const retryOptions = (o: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: RETRY_POLICY.maxRetries,
  baseDelayMs: BACKOFF.baseMs,
  maxDelayMs: BACKOFF.maxMs,
  serviceUnavailableDelayMs: RETRY_POLICY.serviceUnavailableDelayMs,
  maxWaitMs: 15 * 60_000,
  ...o,
});

/** A request to send: plain data, so that each attempt builds its fetch call afresh and cheaply. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A small body (JSON) kept as is: sent again on a retry, shown in the traffic log. */
  body?: string | Uint8Array<ArrayBuffer>;
  /** A large body (an upload): `stream()` gives a fresh one per attempt; `once` when it cannot be read twice. */
  upload?: { stream: () => BodyInit; once: boolean };
  redirect?: RequestRedirect;
  /** The URL is a credential (a presigned download address): the log shows it without its query. */
  secretUrl?: boolean;
}

export interface SendOptions extends RequestOptions {
  /** Skip the pacer (the download host is not the API). */
  pace?: boolean;
  /**
   * At most once for a create (generate, conversion): called, instead of re-sending, when an attempt may
   * have created the video without saying so (its answer was lost, or a 5xx other than 503). It returns
   * the video found with the answer that showed it, `'absent'` when the service shows none, or
   * `'unknown'` when it cannot tell. Without it (a conversion, `client.api`) such a create is never re-sent.
   */
  lookup?: (firstSentAt: number) => Promise<Found | 'absent' | 'unknown'>;
}

/** A video an earlier attempt of a create made, and the service's answer that showed it (a list page). */
export interface Found {
  created: { video_id: string };
  response: Response;
}

/** A create answered by what the transport found instead of by a second attempt. */
export interface Recovered {
  /** The video the earlier attempt made: the create's data. */
  created: { video_id: string };
  /** What that attempt met: a 5xx status, or no answer. */
  after: { status: number } | { failure: 'dropped' | 'timeout' };
}

/** What the transport did with a request: the service's last answer, and what it knows beyond it. */
export interface Sent {
  /** The last answer the service sent: the request's own, or the list page that showed a recovered video. */
  response: Response;
  /** The create was answered by the video its earlier attempt made (nothing was sent again). */
  recovered?: Recovered;
  /** An attempt may have created the video without saying so, and the create was not sent again. */
  notResent?: boolean;
}

export interface TransportConfig {
  /** A custom fetch, called as fetch(request, init) with a standard Request; default: the global fetch, called as fetch(url, init). */
  fetch?: (req: Request, init?: RequestInit) => Promise<Response>;
  /** Extra fetch init for every request: `dispatcher` (Node), `proxy` (Bun), `client` (Deno). */
  fetchOptions?: Record<string, unknown>;
  clock: Clock;
  retry: RetryOptions;
  timeoutMs: number;
  pacer?: Pacer;
  /** Looks at a video's status (the pacer uses it when it believes the account full). */
  check?: (id: string) => Promise<unknown>;
  log: Log;
}

export type Send = (out: Outgoing, o?: SendOptions) => Promise<Sent>;

/** The transport of one client: `send(out)` returns the last answer and what became of the request. */
export function createTransport(c: TransportConfig): Send {
  return (out, o = {}) => send(c, out, o);
}

/**
 * Sends a request until it gets an answer worth returning. It throws only when no answer came (as a
 * NetworkError or TimeoutError) and when the caller's signal aborts.
 */
async function send(c: TransportConfig, out: Outgoing, o: SendOptions): Promise<Sent> {
  const { clock, log } = c;
  const retry = o.maxRetries === undefined ? c.retry : { ...c.retry, maxRetries: o.maxRetries };
  const pacer = o.pace === false ? undefined : c.pacer;
  const { signal } = o;
  const timeoutMs = o.timeoutMs ?? c.timeoutMs;
  const { cls: rateClass, counts: startsVideo } = route(out);
  // A body that can be read once (a stream) is sent once.
  const maxRetries = out.upload?.once ? 0 : retry.maxRetries;
  // How log records name the call (never a presigned URL's query).
  const call = `${out.method} ${out.secretUrl ? out.url.split('?')[0] : out.url}`;
  let firstSentAt = 0;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const ticket = pacer && (await pacer.acquire(out, { signal, check: c.check, log }));
    if (attempt === 0) firstSentAt = clock.now();
    const { res, cause, timedOut } = await sendOnce(c, out, signal, timeoutMs);
    if (log.debug) await logExchange(log.debug, out, res, cause);
    if (pacer && ticket) await pacer.settle(out, ticket, res);
    if (!res) signal?.throwIfAborted();

    const result: AttemptResult = res
      ? { status: res.status, error_code: res.ok ? undefined : await errorCodeOf(res), headers: res.headers }
      : { failure: noAnswerOf(cause, timedOut) };
    const d = retryDecision({
      method: out.method,
      result,
      attempt,
      maxRetries,
      rateClass,
      startsVideo,
      paced: !!pacer,
      maxWaitMs: retry.maxWaitMs,
      now: clock.now(),
      backoff: { baseMs: retry.baseDelayMs, maxMs: retry.maxDelayMs },
      serviceUnavailableDelayMs: retry.serviceUnavailableDelayMs,
    });
    const failure = 'failure' in result ? noAnswer(d, result.failure, cause, timeoutMs, out.method) : undefined;
    const what = res ? `${call} → ${res.status}` : `${call}: ${failure?.message}`;

    if (d.lookFirst) {
      // At most once: the body of an error answer stays unread, for the caller if nothing is sent again.
      if (d.waitMs > 0) await clock.sleep(d.waitMs, signal);
      const found = o.lookup ? await o.lookup(firstSentAt) : 'unknown';
      if (found !== 'absent' && found !== 'unknown') {
        await res?.body?.cancel();
        log.warn?.(
          { call, status: res?.status, video_id: found.created.video_id },
          `${what}; the video it made was found (${found.created.video_id}): not sent again`,
        );
        const after =
          'failure' in result ? { failure: result.failure as 'dropped' | 'timeout' } : { status: result.status };
        return { response: found.response, recovered: { created: found.created, after } };
      }
      if (found === 'absent' && d.lookFirst === 'resend-if-absent') {
        await res?.body?.cancel();
        log.info?.(
          { call, status: res?.status, attempt: attempt + 1 },
          `${what}: no video was made; retry ${attempt + 1} of ${maxRetries}`,
        );
        continue;
      }
      log.warn?.({ call, status: res?.status }, `${what}: not re-sent (the first attempt may have created the video)`);
      // No answer at all: `failure` says why.
      if (!res) {
        log.error?.({ call, attempts: attempt + 1 }, what);
        throw failure;
      }
      return { response: res, notResent: true };
    }

    if (!d.retry) {
      if (d.beyondCeiling)
        log.warn?.(
          { call, status: res?.status, retryAfter: res?.headers.get('retry-after') },
          `${what}: the server asks for a wait beyond maxWaitMs (${retry.maxWaitMs} ms); not retried`,
        );
      else if (!res) log.error?.({ call, attempts: attempt + 1 }, what);
      else if (!res.ok && attempt > 0)
        log.error?.({ call, status: res.status, attempts: attempt + 1 }, `${what} after ${attempt + 1} attempts`);
      if (!res) throw failure;
      return { response: res };
    }

    // 429 and 503 are the account's limits: a warning; another 5xx or a lost answer is an ordinary retry.
    const level = d.reason === 'rate-limit' || d.reason === 'server-load' ? log.warn : log.info;
    const waitMs = Math.round(d.waitMs);
    level?.(
      { call, ...(res && { status: res.status }), attempt: attempt + 1, waitMs },
      res
        ? `${what}: retry ${attempt + 1} of ${maxRetries} in ${waitMs} ms`
        : `${what}; retry ${attempt + 1} of ${maxRetries} in ${waitMs} ms`,
    );
    await res?.body?.cancel();
    if (d.waitMs > 0) await clock.sleep(d.waitMs, signal);
  }
}

/**
 * The error of an attempt without an answer. Retryable when sending it again is safe (a GET, or nothing
 * was sent); `notResent` when it may have reached the service and was not sent again.
 */
function noAnswer(d: RetryDecision, kind: NoAnswer, cause: unknown, timeoutMs: number, method: string) {
  const notResent = d.mayHaveCreated && !isIdempotent(method);
  const init = { cause, retryable: !notResent, notResent };
  return kind === 'timeout'
    ? new TimeoutError(`No response in ${timeoutMs} ms`, init)
    : new NetworkError(`Network error: ${(cause as Error)?.cause ?? cause}`, init);
}

/**
 * One attempt, with the per-attempt timeout (the caller's abort still wins). A plain timer and
 * controller: cheaper per call than AbortSignal.timeout + AbortSignal.any. The global fetch is
 * called with the URL and a plain init (no Request of our own: fetch builds one anyway).
 */
async function sendOnce(
  c: TransportConfig,
  out: Outgoing,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<{ res?: Response; cause?: unknown; timedOut?: boolean }> {
  const ac = timeoutMs ? new AbortController() : undefined;
  const stop = () => ac?.abort(signal?.reason);
  const timer = ac && setTimeout(() => ac.abort(), timeoutMs);
  if (ac && signal) signal.addEventListener('abort', stop);
  try {
    const init: RequestInit & { duplex?: 'half' } = {
      method: out.method,
      headers: out.headers,
      signal: ac ? ac.signal : signal,
    };
    if (out.body !== undefined) init.body = out.body;
    if (out.upload) (init.body = out.upload.stream()), (init.duplex = 'half');
    if (out.redirect) init.redirect = out.redirect;
    if (c.fetchOptions) Object.assign(init, c.fetchOptions);
    const res = c.fetch
      ? await c.fetch(new Request(out.url, { ...init, signal }), { ...c.fetchOptions, signal: init.signal })
      : await fetch(out.url, init);
    return { res };
  } catch (cause) {
    return { cause, timedOut: !!ac?.signal.aborted && !signal?.aborted };
  } finally {
    clearTimeout(timer);
    if (ac && signal) signal.removeEventListener('abort', stop);
  }
}

async function logExchange(debug: NonNullable<Log['debug']>, out: Outgoing, res: Response | undefined, cause: unknown) {
  const url = out.secretUrl ? redactUrlQuery(out.url) : out.url;
  const text = typeof out.body === 'string' ? out.body : out.body ? new TextDecoder().decode(out.body) : undefined;
  try {
    const { fields, msg } = await exchangeRecord({ ...out, url }, text, !!out.upload, res, cause);
    debug(fields, msg);
  } catch {
    // A log line lost is better than a call failed.
  }
}

/** An error answer's `error_code`, read from a copy (the caller still gets the body). */
const errorCodeOf = async (res: Response): Promise<string | undefined> => {
  const body = await res
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body?.error_code === 'string' ? body.error_code : undefined;
};

/** A Request (from client.api's openapi-fetch) as an Outgoing: its body read once, kept for retries. */
export async function fromRequest(req: Request): Promise<Outgoing> {
  const out: Outgoing = {
    method: req.method,
    url: req.url,
    headers: Object.fromEntries(req.headers),
    redirect: req.redirect,
  };
  const body = req.body;
  if (!body) return out;
  // A multipart stream from client.api is sent once; any other body (JSON) is small and kept.
  if (/multipart/i.test(req.headers.get('content-type') ?? '')) out.upload = { stream: () => body, once: true };
  else out.body = new Uint8Array(await req.arrayBuffer());
  return out;
}
