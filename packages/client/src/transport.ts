// The transport: every request of the client (API calls, uploads, downloads, and `client.api`'s)
// goes through `send`, which paces it, sends it with a per-attempt timeout, logs it, and applies the
// retry rules of the interface (7.1). Read it top-down: `send` is the loop; each attempt is
// `sendOnce`; between attempts `shouldRetry` decides whether another is worth sending and
// `retryDelay` how long to wait first.
import { parseRateLimitHeaders, RATE_LIMITS, RETRY_POLICY } from '@videogen/openapi/rules';
import type { Clock } from './clock.js';
import { isRetryable, NetworkError, retryAfterOf, TimeoutError } from './errors.js';
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
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
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
   * At-most-once creation (generate, conversion): called before a POST would be re-sent after an
   * answer that does not prove nothing was created (a 5xx other than 503, a dropped connection).
   * It returns the answer to give instead (the video the first attempt made), `'absent'` when the
   * service shows no such video (re-sending is safe), or `'unknown'` when it cannot tell (not re-sent).
   */
  beforeResend?: (firstSentAt: number) => Promise<Response | 'absent' | 'unknown'>;
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

export type Send = (out: Outgoing, o?: SendOptions) => Promise<Response>;

/** The transport of one client: `send(out)` returns the last answer, as fetch would. */
export function createTransport(c: TransportConfig): Send {
  return (out, o = {}) => send(c, out, o);
}

/**
 * Sends a request until it gets an answer worth returning. It throws only when no answer came (as a
 * NetworkError or TimeoutError) and when the caller's signal aborts.
 */
async function send(c: TransportConfig, out: Outgoing, o: SendOptions): Promise<Response> {
  const { clock, log } = c;
  const retry = o.maxRetries === undefined ? c.retry : { ...c.retry, maxRetries: o.maxRetries };
  const pacer = o.pace === false ? undefined : c.pacer;
  const { signal } = o;
  const idempotent = out.method === 'GET' || out.method === 'HEAD';
  const timeoutMs = o.timeoutMs ?? c.timeoutMs;
  const resendable = !out.upload?.once;
  // How log records name the call (never a presigned URL's query).
  const call = `${out.method} ${out.secretUrl ? out.url.split('?')[0] : out.url}`;
  let firstSentAt = 0;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const ticket = pacer && (await pacer.acquire(out, { signal, check: c.check, log }));
    if (attempt === 0) firstSentAt = clock.now();
    const { res, cause, timedOut } = await sendOnce(c, out, signal, timeoutMs);
    if (log.debug) await logExchange(log.debug, out, res, cause);
    if (ticket) await pacer!.settle(out, ticket, res);
    const canRetry = attempt < retry.maxRetries && resendable;

    if (!res) {
      signal?.throwIfAborted();
      const failure = timedOut
        ? new TimeoutError(`No response in ${timeoutMs} ms`, { cause, retryable: idempotent })
        : new NetworkError(`Network error: ${(cause as Error)?.cause ?? cause}`, { cause, retryable: idempotent });
      // A POST may have reached the service: it is never re-sent, but the video it made may be found.
      if (!idempotent && o.beforeResend) {
        const found = await o.beforeResend(firstSentAt);
        if (found instanceof Response) return found;
      }
      if (!shouldRetry('no answer', idempotent) || !canRetry) {
        log.error?.({ call, attempts: attempt + 1 }, `${call}: ${failure.message}`);
        throw failure;
      }
      const wait = backoff(retry, attempt);
      log.info?.(
        { call, attempt: attempt + 1, waitMs: Math.round(wait) },
        `${call}: ${failure.message}; retry ${attempt + 1} of ${retry.maxRetries} in ${Math.round(wait)} ms`,
      );
      await clock.sleep(wait, signal);
      continue;
    }

    if (res.ok || !canRetry || !shouldRetry({ status: res.status, error_code: await errorCodeOf(res) }, idempotent)) {
      if (!res.ok && attempt > 0)
        log.error?.(
          { call, status: res.status, attempts: attempt + 1 },
          `${call} → ${res.status} after ${attempt + 1} attempts`,
        );
      return res;
    }
    const wait = retryDelay(res, { attempt, retry, now: clock.now(), rateClass: route(out).cls, paced: !!pacer });
    // Beyond the ceiling the response is the answer: the caller's error carries its Retry-After.
    if (wait === undefined) {
      log.warn?.(
        { call, status: res.status, retryAfter: res.headers.get('retry-after') },
        `${call} → ${res.status}: the server asks for a wait beyond maxWaitMs (${retry.maxWaitMs} ms); not retried`,
      );
      return res;
    }
    // 429 and 503 are the account's limits: a warning; another 5xx is an ordinary retry.
    const level = res.status === 429 || res.status === 503 ? log.warn : log.info;
    level?.(
      { call, status: res.status, attempt: attempt + 1, waitMs: Math.round(wait) },
      `${call} → ${res.status}: retry ${attempt + 1} of ${retry.maxRetries} in ${Math.round(wait)} ms`,
    );
    const checkFirst = !idempotent && o.beforeResend !== undefined && mayHaveCreated(res.status);
    // Kept for the caller when the create is not re-sent: its body names the server's error.
    const kept = checkFirst ? await res.text().catch(() => '') : await res.body?.cancel();
    if (wait > 0) await clock.sleep(wait, signal);
    if (checkFirst) {
      const found = await o.beforeResend!(firstSentAt);
      if (found instanceof Response) return found;
      if (found === 'unknown') {
        log.warn?.(
          { call, status: res.status },
          `${call} → ${res.status}: not re-sent (the first attempt may have created the video)`,
        );
        return notResent(res, kept as string);
      }
    }
  }
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
  const stop = () => ac!.abort(signal!.reason);
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
  const url = out.secretUrl ? out.url.split('?')[0] + (out.url.includes('?') ? '?[redacted]' : '') : out.url;
  const text = typeof out.body === 'string' ? out.body : out.body ? new TextDecoder().decode(out.body) : undefined;
  try {
    const { fields, msg } = await exchangeRecord({ ...out, url }, text, !!out.upload, res, cause);
    debug(fields, msg);
  } catch {
    // A log line lost is better than a call failed.
  }
}

/**
 * Whether an answer is worth sending again (7.1): what the rules' classifier calls retryable (a 5xx,
 * a 429 other than INSUFFICIENT_CREDIT). No answer at all: a GET is sent again, a POST is not (it
 * may have reached the service).
 */
export function shouldRetry(
  answer: { status: number; error_code?: string } | 'no answer',
  idempotent: boolean,
): boolean {
  if (answer === 'no answer') return idempotent;
  return isRetryable(answer.status, answer.error_code);
}

export interface DelayContext {
  /** 0 for the wait after the first attempt. */
  attempt: number;
  retry: RetryOptions;
  now: number;
  /** The request's rate-limit class: a 429 without any header waits its window. */
  rateClass: keyof typeof RATE_LIMITS;
  /** A pacer waits out a 429 itself (it learned the reset from the same answer). */
  paced: boolean;
}

/**
 * How long to wait before sending again after `res`: its Retry-After; on a 429 else RateLimit-Reset,
 * else the class's window (with a pacer, none: the pacer waits itself); on a 503 else 30–60 s; else
 * exponential backoff. Undefined when the server asks for more than `maxWaitMs`.
 */
export function retryDelay(res: Response, { attempt, retry, now, rateClass, paced }: DelayContext): number | undefined {
  const after = retryAfterOf(res.headers, now).retryAfterMs;
  if (after !== undefined && after > retry.maxWaitMs) return undefined;
  if (res.status === 429) {
    if (paced) return 0;
    return after ?? parseRateLimitHeaders(res.headers).resetMs ?? RATE_LIMITS[rateClass].windowMs;
  }
  return after ?? (res.status === 503 ? between(retry.serviceUnavailableDelayMs) : backoff(retry, attempt));
}

/** A 5xx other than 503 does not prove that nothing was created (a 503 refuses before any work). */
const mayHaveCreated = (status: number) => status >= 500 && status !== 503;

const between = ([a, b]: readonly [number, number]) => a + Math.random() * (b - a);
/** Exponential backoff with jitter: base × 2^attempt, capped, times 0.5–1. */
const backoff = (r: RetryOptions, attempt: number) =>
  between([0.5, 1]) * Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** attempt);

/** An error answer's `error_code`, read from a copy (the caller still gets the body). */
const errorCodeOf = async (res: Response): Promise<string | undefined> => {
  const body = await res
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body?.error_code === 'string' ? body.error_code : undefined;
};

/** The answer of a create that was not re-sent because its first attempt may have created the video. */
const notResent = (res: Response, body: string) => {
  const h = new Headers(res.headers);
  h.set('x-videogen-not-resent', 'the first attempt may have created the video');
  return new Response(body, { status: res.status, statusText: res.statusText, headers: h });
};

/** A Request (from client.api's openapi-fetch) as an Outgoing: its body read once, kept for retries. */
export async function fromRequest(req: Request): Promise<Outgoing> {
  const out: Outgoing = {
    method: req.method,
    url: req.url,
    headers: Object.fromEntries(req.headers),
    redirect: req.redirect,
  };
  if (!req.body) return out;
  // A multipart stream from client.api is sent once; any other body (JSON) is small and kept.
  if (/multipart/i.test(req.headers.get('content-type') ?? '')) out.upload = { stream: () => req.body!, once: true };
  else out.body = new Uint8Array(await req.arrayBuffer());
  return out;
}
