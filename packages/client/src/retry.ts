// The transport under openapi-fetch: pacing, a per-attempt timeout and the retry rules of the
// interface (7.1). Read it top-down: `createSender` gives `send`, whose loop is `retryRequest`; each
// attempt is `sendOnce`; between attempts `shouldRetry` decides whether another is worth sending and
// `retryDelay` how long to wait first; `attemptsOf` says what each attempt sends.
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

export interface SendOptions {
  /** A fresh copy of the request for a retry (uploads rebuild their body from its source). */
  rebuild?: () => Request;
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
  /** A custom fetch, called as fetch(request, init?); default: the global fetch. */
  fetch?: (req: Request, init?: RequestInit) => Promise<Response>;
  clock: Clock;
  retry: RetryOptions;
  timeoutMs: number;
  pacer?: Pacer;
  /** Looks at a video's status (the pacer uses it when it believes the account full). */
  check?: (id: string) => Promise<unknown>;
  /** The opt-in traffic log: called with every exchange and the request's body as text when it has one (traffic-log.ts). */
  log?: (req: Request, body: string | undefined, res: Response | undefined, error?: unknown) => Promise<void>;
}

export const retryOptions = (o: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: RETRY_POLICY.maxRetries,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  serviceUnavailableDelayMs: RETRY_POLICY.serviceUnavailableDelayMs,
  maxWaitMs: 15 * 60_000,
  ...o,
});

/** The transport: `send(request)` returns the last response, as fetch would. */
export function createSender(c: SenderConfig) {
  return (req: Request, o: SendOptions = {}): Promise<Response> => retryRequest(c, req, o);
}
export type Send = ReturnType<typeof createSender>;

/**
 * Sends a request until it gets an answer worth returning. It throws only when no answer came (as a
 * NetworkError or TimeoutError) and when the caller's signal aborts.
 */
async function retryRequest(c: SenderConfig, req: Request, o: SendOptions): Promise<Response> {
  const { clock, retry } = c;
  const pacer = o.pace === false ? undefined : c.pacer;
  const { signal } = req;
  const idempotent = req.method == 'GET' || req.method == 'HEAD';
  const timeoutMs = o.timeoutMs ?? c.timeoutMs;
  const { first, again, text } = await attemptsOf(req, o.rebuild);
  let firstSentAt = 0;
  for (let attempt = 0; ; attempt++) {
    signal.throwIfAborted();
    const sent = attempt == 0 ? first : again!();
    const ticket = pacer && (await pacer.acquire(req, signal, c.check));
    if (attempt == 0) firstSentAt = clock.now();
    const { res, cause, timedOut } = await sendOnce(c, sent, timeoutMs);
    if (c.log) await c.log(sent, text, res, cause);
    if (ticket) await pacer!.settle(req, ticket, res);
    const canRetry = attempt < retry.maxRetries && again !== undefined;

    if (!res) {
      signal.throwIfAborted();
      const failure = timedOut
        ? new TimeoutError(`No response in ${timeoutMs} ms`, { cause, retryable: idempotent })
        : new NetworkError(`Network error: ${(cause as Error)?.cause ?? cause}`, { cause, retryable: idempotent });
      // A POST may have reached the service: it is never re-sent, but the video it made may be found.
      if (!idempotent && o.beforeResend) {
        const found = await o.beforeResend(firstSentAt);
        if (found instanceof Response) return found;
      }
      if (!shouldRetry('no answer', idempotent) || !canRetry) throw failure;
      await clock.sleep(backoff(retry, attempt), signal);
      continue;
    }

    if (res.ok || !canRetry || !shouldRetry({ status: res.status, error_code: await errorCodeOf(res) }, idempotent)) return res;
    const wait = retryDelay(res, attempt, retry, clock.now(), req, !!pacer);
    // Beyond the ceiling the response is the answer: the caller's error carries its Retry-After.
    if (wait === undefined) return res;
    const checkFirst = !idempotent && o.beforeResend !== undefined && mayHaveCreated(res.status);
    // Kept for the caller when the create is not re-sent: its body names the server's error.
    const kept = checkFirst ? await res.text().catch(() => '') : await res.body?.cancel();
    if (wait > 0) await clock.sleep(wait, signal);
    if (checkFirst) {
      const found = await o.beforeResend!(firstSentAt);
      if (found instanceof Response) return found;
      if (found == 'unknown') return notResent(res, kept as string);
    }
  }
}

/**
 * The request of each attempt: the first as given, then `again()` for every retry (no `again`: it
 * can be sent once only), and the body as text for the traffic log.
 */
async function attemptsOf(req: Request, rebuild?: () => Request): Promise<{ first: Request; again?: () => Request; text?: string }> {
  if (!req.body) return { first: req, again: () => req };
  // An upload rebuilds its body from its sources; a multipart stream without `rebuild` is read once.
  if (rebuild) return { first: req, again: rebuild };
  if (/multipart/i.test(req.headers.get('content-type') ?? '')) return { first: req };
  // Any other body (JSON) is small: read once as bytes and sent again from them.
  const body = await req.arrayBuffer();
  const copy = () => new Request(req, { body });
  return { first: copy(), again: copy, text: new TextDecoder().decode(body) };
}

/**
 * One attempt, with the per-attempt timeout (the caller's abort still wins). A plain timer and
 * controller: cheaper per call than AbortSignal.timeout + AbortSignal.any.
 */
async function sendOnce(c: SenderConfig, req: Request, timeoutMs: number): Promise<{ res?: Response; cause?: unknown; timedOut?: boolean }> {
  const ac = timeoutMs ? new AbortController() : undefined;
  const stop = () => ac!.abort(req.signal.reason);
  const timer = ac && setTimeout(() => ac.abort(), timeoutMs);
  if (ac) req.signal.addEventListener('abort', stop);
  try {
    const init = ac && { signal: ac.signal };
    return { res: await (c.fetch ? c.fetch(req, init) : fetch(req, init)) };
  } catch (cause) {
    return { cause, timedOut: !!ac?.signal.aborted && !req.signal.aborted };
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener('abort', stop);
  }
}

/**
 * Whether an answer is worth sending again (7.1): what the rules' classifier calls retryable (a 5xx,
 * a 429 other than INSUFFICIENT_CREDIT). No answer at all: a GET is sent again, a POST is not (it
 * may have reached the service).
 */
export function shouldRetry(answer: { status: number; error_code?: string } | 'no answer', idempotent: boolean): boolean {
  if (answer == 'no answer') return idempotent;
  return isRetryable(answer.status, answer.error_code);
}

/**
 * How long to wait before sending again after `res`: its Retry-After; on a 429 else RateLimit-Reset,
 * else the class's window (with a pacer, none: the pacer has learned the reset and waits itself); on
 * a 503 else 30–60 s; else exponential backoff. Undefined when the server asks for more than
 * `maxWaitMs`.
 */
export function retryDelay(res: Response, attempt: number, retry: RetryOptions, now: number, req: Request, paced: boolean): number | undefined {
  const after = retryAfterOf(res.headers, now).retryAfterMs;
  if (after !== undefined && after > retry.maxWaitMs) return undefined;
  if (res.status == 429) {
    if (paced) return 0;
    return after ?? parseRateLimitHeaders(res.headers).resetMs ?? RATE_LIMITS[route(req).cls].windowMs;
  }
  return after ?? (res.status == 503 ? between(retry.serviceUnavailableDelayMs) : backoff(retry, attempt));
}

/** A 5xx other than 503 does not prove that nothing was created (a 503 refuses before any work). */
const mayHaveCreated = (status: number) => status >= 500 && status != 503;

const between = ([a, b]: readonly [number, number]) => a + Math.random() * (b - a);
/** Exponential backoff with jitter: base × 2^attempt, capped, times 0.5–1. */
const backoff = (r: RetryOptions, attempt: number) => between([0.5, 1]) * Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** attempt);

/** An error answer's `error_code`, read from a copy (the caller still gets the body). */
const errorCodeOf = async (res: Response): Promise<string | undefined> => {
  const body = await res.clone().json().catch(() => undefined);
  return typeof body?.error_code == 'string' ? body.error_code : undefined;
};

/** The answer of a create that was not re-sent because its first attempt may have created the video. */
const notResent = (res: Response, body: string) => {
  const h = new Headers(res.headers);
  h.set('x-videogen-not-resent', 'the first attempt may have created the video');
  return new Response(body, { status: res.status, statusText: res.statusText, headers: h });
};
