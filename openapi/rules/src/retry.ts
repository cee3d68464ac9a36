// Interface 7.1 as one decision: after an attempt, send the request again or not, after how long, and
// whether the request may have done its work although its answer says nothing of it. The client's
// transport, the contract suite's engine and the pacing proxy all ask this function; none keeps a rule
// of its own. Pure: the clock, the randomness and the target's time scale are inputs.
//
// The numbers are the document's (RETRY_POLICY: the count of 5xx retries, the 503 wait, the pairs never
// retried; RATE_LIMITS: the window a 429 without headers waits). The backoff's first step and ceiling
// are this toolkit's choice (7.1 says "exponential" and nothing more): BACKOFF below, nowhere else.
import { classifyError } from './errors.js';
import { RATE_LIMITS, RETRY_POLICY, type RateClass } from './generated/constants.js';
import { type HeaderSource, headerValue, MAX_RETRY_AFTER_MS, parseRateLimitHeaders, retryAfterMs } from './headers.js';

/** Exponential backoff: the first wait, doubled on each retry up to the ceiling, then times 0.5–1 (jitter). */
export const BACKOFF = { baseMs: 1000, maxMs: 30_000 } as const;

/**
 * Why no answer (or none that could be read) came. `refused`: the connection was never made (refused,
 * no such host, TLS handshake failed), so nothing was sent. `dropped`: the connection was lost after
 * the request left (its body cut off included). `timeout`: the request left and no headers came in
 * time. `body-timeout`: the headers came, the body stalled or missed its deadline (body.ts).
 * `too-large`: the body passed the size limit (body.ts). Only `refused` proves the service never saw it.
 */
export type NoAnswer = 'refused' | 'dropped' | 'timeout' | 'body-timeout' | 'too-large';

/** What one attempt met: the service's answer, or no answer. */
export type AttemptResult =
  | { status: number; error_code?: string | null; headers?: HeaderSource }
  | { failure: NoAnswer };

export interface RetryInput {
  method: string;
  result: AttemptResult;
  /**
   * Retries already made for this request that count toward maxRetries (0 after the first attempt); it
   * is also the backoff's exponent. With `refusals: 'ceiling'` the re-sends after a 429 or a 503 are not counted.
   */
  attempt: number;
  /** Retries allowed (default RETRY_POLICY.maxRetries); 0 sends once. */
  maxRetries?: number;
  /** The request's rate class: a 429 that says nothing waits one whole window of it (default B). */
  rateClass?: RateClass;
  /**
   * A pacer holds the next attempt itself, having learned from this answer: after a 429 until the reset,
   * after a 503 to a video start until a running slot frees. The decision then waits nothing more.
   */
  paced?: boolean;
  /** The request starts a video (generate, conversion). */
  startsVideo?: boolean;
  /**
   * How 429 and 503 are bounded. `retries` (default): each counts toward maxRetries, as every client
   * does (a user's `maxRetries: 0` sends once). `ceiling`: they refuse before any work, so they are
   * waited out for as long as each wait stays within maxWaitMs: an intermediary whose callers should
   * never see a 429 or 503 that pacing explains (the pacing proxy, bounded by its --max-wait).
   */
  refusals?: 'retries' | 'ceiling';
  /** The longest wait accepted (default MAX_RETRY_AFTER_MS): a longer one is not waited, the answer stands. */
  maxWaitMs?: number;
  /** Now, in ms since the epoch (an HTTP-date Retry-After is read against it). */
  now?: number;
  /** 0 ≤ random() < 1, for the jitter and the 503 wait (default Math.random). */
  random?: () => number;
  /** The target runs this many times faster than real time (a sandbox's --time-scale): our own waits shrink; the server's are already its own. */
  timeScale?: number;
  /** The backoff's first wait and ceiling (default BACKOFF). */
  backoff?: { baseMs: number; maxMs: number };
  /** The wait on a 503 that names none (default RETRY_POLICY.serviceUnavailableDelayMs). */
  serviceUnavailableDelayMs?: readonly [number, number];
}

/** The category of what an attempt met. */
export type RetryReason =
  /** A 1xx–3xx answer: nothing to retry. */
  | 'answered'
  /** 7.1 "other: no retry" (a 4xx other than 429, or a 429 INSUFFICIENT_CREDIT). */
  | 'final'
  /** 429: wait until the rate limit resets. */
  | 'rate-limit'
  /** 503: wait until the load decreases. */
  | 'server-load'
  /** Another 5xx: exponential backoff. */
  | 'server-error'
  /** No answer, nothing sent (the connection was never made). */
  | 'not-sent'
  /** No answer after the request left (connection lost, no headers or no whole body in time). */
  | 'answer-lost'
  /** The answer's body passed the size limit: reading it again would not make it smaller. */
  | 'answer-too-large';

/** Where `waitMs` comes from. */
export type WaitSource =
  | 'retry-after'
  | 'ratelimit-reset'
  | 'rate-window'
  | 'server-load'
  | 'backoff'
  | 'pacer'
  | 'none';

export interface RetryDecision {
  /** Send the same request again after `waitMs`. */
  retry: boolean;
  /** How long to wait first (also before a look, see `lookFirst`); 0 when nothing is to be done. */
  waitMs: number;
  waitFrom: WaitSource;
  reason: RetryReason;
  /**
   * The request may have done its work (a video created, a credit spent) though its answer does not say
   * so: it reached the service and the answer was lost, or was a 5xx other than 503 (a 429 and a 503
   * refuse before any work). Such a request is never sent again blindly when it is not idempotent.
   */
  mayHaveCreated: boolean;
  /**
   * Set when a non-idempotent request may have done its work: instead of re-sending, look (after
   * `waitMs`) for what it made. Found: that is the result, nothing is sent. Not found:
   * `resend-if-absent` (a 5xx ended the exchange, so its absence shows nothing was made) sends it
   * again as a retry; `stop-if-absent` (the answer was lost: the service may still be working on it)
   * sends nothing, and the caller reports it not re-sent.
   */
  lookFirst?: 'resend-if-absent' | 'stop-if-absent';
  /** This retry (or look) counts toward maxRetries: the caller passes `attempt + 1` next time. */
  counted: boolean;
  /** Not retried because the retries allowed are used up. */
  exhausted: boolean;
  /** Not retried because the wait exceeds maxWaitMs: the answer stands (its Retry-After tells the caller when). */
  beyondCeiling: boolean;
  /** What the server asked to wait, uncapped (Retry-After; on a 429 else RateLimit-Reset), for reports. */
  askedMs?: number;
}

/** Methods whose repetition has the effect of one request (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
export const isIdempotent = (method: string) => IDEMPOTENT.has(method.toUpperCase());

/** The one retry decision of interface 7.1 (see RetryDecision). */
export function retryDecision(input: RetryInput): RetryDecision {
  const { result, attempt } = input;
  const maxRetries = input.maxRetries ?? RETRY_POLICY.maxRetries;
  const maxWaitMs = input.maxWaitMs ?? MAX_RETRY_AFTER_MS;
  const timeScale = input.timeScale && input.timeScale > 0 ? input.timeScale : 1;
  const random = input.random ?? Math.random;
  const idempotent = isIdempotent(input.method);
  const backoff = () => backoffMs(attempt, random, input.backoff) / timeScale;
  const none = { waitMs: 0, waitFrom: 'none' as const, counted: true, exhausted: false, beyondCeiling: false };

  if ('failure' in result) {
    // A connection never made sent nothing: any method goes again. Otherwise a GET goes again, and a
    // POST may have created a video: only a look can tell, and an absent video proves nothing yet. A
    // body too large is the same for a POST (its headers may have said 200); a GET would get it again.
    const reason: RetryReason =
      result.failure === 'refused' ? 'not-sent' : result.failure === 'too-large' ? 'answer-too-large' : 'answer-lost';
    const mayHaveCreated = reason !== 'not-sent';
    if (mayHaveCreated && !idempotent)
      return { ...none, retry: false, reason, mayHaveCreated, lookFirst: 'stop-if-absent', ...waited(backoff()) };
    if (reason === 'answer-too-large') return { ...none, retry: false, reason, mayHaveCreated };
    if (attempt >= maxRetries) return { ...none, retry: false, reason, mayHaveCreated, exhausted: true };
    return { ...none, retry: true, reason, mayHaveCreated, ...waited(backoff()) };
  }

  const { status, headers } = result;
  if (status < 400) return { ...none, retry: false, reason: 'answered', mayHaveCreated: false };
  const c = classifyError(status, result.error_code);
  if (!c.retryable) return { ...none, retry: false, reason: 'final', mayHaveCreated: false };

  const reason: RetryReason =
    c.wait === 'rate-limit' ? 'rate-limit' : c.wait === 'server-load' ? 'server-load' : 'server-error';
  // A 429 and a 503 refuse before any work; another 5xx may follow work done.
  const mayHaveCreated = reason === 'server-error';
  const retryAfter = headers ? headerValue(headers, 'retry-after') : undefined;
  const fromHeader = retryAfterMs(retryAfter, input.now);
  const reset = reason === 'rate-limit' && headers ? parseRateLimitHeaders(headers).resetMs : undefined;
  const askedMs = fromHeader ?? reset;
  const asked = askedMs === undefined ? {} : { askedMs };

  let wait: { waitMs: number; waitFrom: WaitSource };
  if (reason === 'rate-limit')
    wait = input.paced
      ? { waitMs: 0, waitFrom: 'pacer' }
      : fromHeader !== undefined
        ? { waitMs: fromHeader, waitFrom: 'retry-after' }
        : reset !== undefined
          ? { waitMs: reset, waitFrom: 'ratelimit-reset' }
          : { waitMs: RATE_LIMITS[input.rateClass ?? 'B'].windowMs / timeScale, waitFrom: 'rate-window' };
  else if (reason === 'server-load')
    wait =
      input.paced && input.startsVideo
        ? { waitMs: 0, waitFrom: 'pacer' }
        : fromHeader !== undefined
          ? { waitMs: fromHeader, waitFrom: 'retry-after' }
          : {
              waitMs:
                between(input.serviceUnavailableDelayMs ?? RETRY_POLICY.serviceUnavailableDelayMs, random) / timeScale,
              waitFrom: 'server-load',
            };
  else
    wait =
      fromHeader !== undefined
        ? { waitMs: fromHeader, waitFrom: 'retry-after' }
        : { waitMs: backoff(), waitFrom: 'backoff' };

  // The ceiling applies to what would be waited, here or by the pacer on the server's word.
  if (Math.max(wait.waitMs, askedMs ?? 0) > maxWaitMs)
    return { ...none, ...asked, retry: false, reason, mayHaveCreated, beyondCeiling: true };
  const counted = input.refusals !== 'ceiling' || reason === 'server-error';
  if (counted && attempt >= maxRetries)
    return { ...none, ...asked, retry: false, reason, mayHaveCreated, exhausted: true };
  if (mayHaveCreated && !idempotent)
    return { ...none, ...asked, ...wait, retry: false, reason, mayHaveCreated, lookFirst: 'resend-if-absent' };
  return { ...none, ...asked, ...wait, counted, retry: true, reason, mayHaveCreated };
}

/** The backoff before retry number `attempt + 1`: base × 2^attempt, at most the ceiling, times 0.5–1. */
export function backoffMs(
  attempt: number,
  random: () => number = Math.random,
  { baseMs, maxMs }: { baseMs: number; maxMs: number } = BACKOFF,
): number {
  return (0.5 + random() / 2) * Math.min(maxMs, baseMs * 2 ** attempt);
}

const between = ([low, high]: readonly [number, number], random: () => number) => low + random() * (high - low);
const waited = (ms: number) => ({ waitMs: ms, waitFrom: 'backoff' as const });

// Codes of a connection that was never made: nothing was sent. (Node's and undici's names; a TLS
// handshake that failed sent no request either.)
const NOT_CONNECTED =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_.*|.*CERT.*|.*SELF_SIGNED.*|UNABLE_TO_.*)$/;

/** undici's codes (also carried by body.ts's errors) of a failure after the headers came. */
const BODY_FAILURES: Record<string, NoAnswer> = {
  UND_ERR_BODY_TIMEOUT: 'body-timeout',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'too-large',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
};

/**
 * Why a fetch (or node:http) attempt got no answer, from its error: a timeout (of the headers or of the
 * body), a body too large, a connection never made, or else a connection lost after sending (the safe
 * reading of an error we cannot place: the request may have arrived). `timedOut` when the caller's own
 * timer for the headers ended it.
 */
export function noAnswerOf(error: unknown, timedOut = false): NoAnswer {
  if (timedOut) return 'timeout';
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && BODY_FAILURES[code]) return BODY_FAILURES[code];
    if (name === 'TimeoutError') return 'timeout';
    if (typeof code === 'string' && NOT_CONNECTED.test(code)) return 'refused';
  }
  return 'dropped';
}
