// The one retry decision (interface 7.1). Before it, the client's transport, the contract suite's engine
// and the pacing proxy each wrote the rule, and they disagreed; each `resolves` test below names one
// difference and how it was settled (towards 7.1, and towards at most once for every POST).
import { describe, expect, it } from 'vitest';
import {
  BACKOFF,
  backoffMs,
  BodyTimeoutError,
  noAnswerOf,
  ResponseTooLargeError,
  RATE_LIMITS,
  RETRY_POLICY,
  retryDecision,
  type RetryInput,
} from '../src/index.js';

const answer = (status: number, headers: Record<string, string> = {}, error_code?: string) => ({
  status,
  headers,
  error_code,
});
const decide = (o: Partial<RetryInput> & Pick<RetryInput, 'result'>) =>
  retryDecision({ method: 'GET', attempt: 0, random: () => 1, ...o });
const [low503, high503] = RETRY_POLICY.serviceUnavailableDelayMs;

describe('retryDecision: what 7.1 says', () => {
  it('5xx: up to RETRY_POLICY.maxRetries retries with exponential backoff, then the answer stands', () => {
    const waits = [0, 1, 2].map((attempt) => decide({ result: answer(500), attempt }));
    for (const d of waits) expect(d).toMatchObject({ retry: true, reason: 'server-error', waitFrom: 'backoff' });
    expect(waits.map((d) => d.waitMs)).toEqual([1, 2, 4].map((n) => n * BACKOFF.baseMs));
    expect(decide({ result: answer(500), attempt: RETRY_POLICY.maxRetries })).toMatchObject({
      retry: false,
      exhausted: true,
    });
  });
  it('503: 30 s to 1 min unless the server says how long', () => {
    expect(decide({ result: answer(503), random: () => 0 })).toMatchObject({ retry: true, waitMs: low503 });
    expect(decide({ result: answer(503), random: () => 0.999999 }).waitMs).toBeCloseTo(high503, -1);
    expect(decide({ result: answer(503, { 'retry-after': '2.5' }) })).toMatchObject({
      waitMs: 2500,
      waitFrom: 'retry-after',
    });
  });
  it('429: until the rate limit resets (Retry-After, else RateLimit-Reset, else a whole window of the class)', () => {
    expect(decide({ result: answer(429, { 'retry-after': '4' }) })).toMatchObject({
      waitMs: 4000,
      waitFrom: 'retry-after',
    });
    expect(decide({ result: answer(429, { 'ratelimit-reset': '1.25' }) })).toMatchObject({
      waitMs: 1250,
      waitFrom: 'ratelimit-reset',
    });
    expect(decide({ result: answer(429), rateClass: 'A' })).toMatchObject({
      waitMs: RATE_LIMITS.A.windowMs,
      waitFrom: 'rate-window',
    });
  });
  it('other: no retry; INSUFFICIENT_CREDIT never, whatever its status and headers', () => {
    for (const status of [400, 401, 403, 404, 413, 422, 418])
      expect(decide({ result: answer(status) })).toMatchObject({ retry: false, reason: 'final', waitMs: 0 });
    for (const status of [429, 403])
      expect(decide({ result: answer(status, { 'retry-after': '1' }, 'INSUFFICIENT_CREDIT') })).toMatchObject({
        retry: false,
        reason: 'final',
      });
    expect(decide({ result: answer(200) })).toMatchObject({ retry: false, reason: 'answered' });
  });
  it('a wait beyond the ceiling is not waited: the answer stands', () => {
    const d = decide({ result: answer(429, { 'retry-after': '3000000' }), maxWaitMs: 15 * 60_000 });
    expect(d).toMatchObject({ retry: false, beyondCeiling: true, askedMs: 3_000_000_000 });
    // Also when a pacer would do the waiting: the pacer would wait the server's word.
    expect(decide({ result: answer(429, { 'retry-after': '61' }), maxWaitMs: 60_000, paced: true })).toMatchObject({
      retry: false,
      beyondCeiling: true,
    });
  });
  it('an HTTP-date Retry-After is read against the injected clock', () => {
    const d = decide({ result: answer(429, { 'retry-after': 'Thu, 01 Jan 1970 00:00:05 GMT' }), now: 0 });
    expect(d.waitMs).toBe(5000);
  });
  it('a time-scaled target: our own waits shrink, the server’s stay as it said them', () => {
    expect(decide({ result: answer(503), random: () => 0, timeScale: 100 }).waitMs).toBe(low503 / 100);
    expect(decide({ result: answer(500), timeScale: 100 }).waitMs).toBe(BACKOFF.baseMs / 100);
    expect(decide({ result: answer(429), timeScale: 100 }).waitMs).toBe(RATE_LIMITS.B.windowMs / 100);
    expect(decide({ result: answer(503, { 'retry-after': '0.3' }), timeScale: 100 }).waitMs).toBe(300);
  });
});

describe('retryDecision: the differences between the three copies, resolved', () => {
  it('resolves jitter (suite had none; client and proxy 0.5–1×): backoff is base × 2^n, capped, times 0.5–1', () => {
    expect(decide({ result: answer(502), random: () => 0 }).waitMs).toBe(BACKOFF.baseMs / 2);
    expect(decide({ result: answer(502), random: () => 1 }).waitMs).toBe(BACKOFF.baseMs);
    // From the retry steps of the client (retryDelay): base 100, ceiling 1000, attempt 4 → 500–1000.
    const d = decide({
      result: answer(502),
      attempt: 4,
      maxRetries: 9,
      random: Math.random,
      backoff: { baseMs: 100, maxMs: 1000 },
    });
    expect(d.waitMs >= 500 && d.waitMs <= 1000).toBe(true);
  });
  it('resolves the backoff ceiling (suite had none): BACKOFF.maxMs', () => {
    expect(backoffMs(20, () => 1)).toBe(BACKOFF.maxMs);
  });
  it('resolves Retry-After on another 5xx (suite waited the longer of it and the backoff): the server’s word', () => {
    expect(decide({ result: answer(500, { 'retry-after': '0' }), attempt: 2 })).toMatchObject({
      retry: true,
      waitMs: 0,
      waitFrom: 'retry-after',
    });
  });
  it('resolves the 503 wait (suite waited a fixed 30 s): 30–60 s, drawn from the injected random', () => {
    const waits = [0, 0.5, 0.99].map((r) => decide({ result: answer(503), random: () => r }).waitMs);
    expect(waits[0]).toBe(low503);
    expect(waits[1]).toBe((low503 + high503) / 2);
    expect(new Set(waits).size).toBe(3);
  });
  it('resolves a 429 that names no wait (suite ignored RateLimit-Reset; proxy waited one request interval): RateLimit-Reset, else a whole window', () => {
    expect(decide({ result: answer(429, { 'ratelimit-reset': '3' }) }).waitMs).toBe(3000);
    expect(decide({ result: answer(429) }).waitMs).toBe(RATE_LIMITS.B.windowMs);
  });
  it('resolves who waits with a pacer (client waited a start’s 503 itself): the pacer waits a 429 and a start’s 503', () => {
    expect(decide({ result: answer(429, { 'ratelimit-reset': '3' }), paced: true })).toMatchObject({
      retry: true,
      waitMs: 0,
      waitFrom: 'pacer',
    });
    expect(decide({ method: 'POST', result: answer(503), paced: true, startsVideo: true })).toMatchObject({
      retry: true,
      waitMs: 0,
      waitFrom: 'pacer',
    });
    // A 503 to a request that starts nothing: the pacer does not hold it, the decision waits.
    expect(decide({ result: answer(503), paced: true, random: () => 0 }).waitMs).toBe(low503);
  });
  it('resolves the count of 429 and 503 re-sends (proxy: none, until --max-wait): maxRetries, unless the caller bounds them by its ceiling', () => {
    const at = RETRY_POLICY.maxRetries;
    expect(decide({ result: answer(429), attempt: at })).toMatchObject({ retry: false, exhausted: true });
    expect(decide({ result: answer(503), attempt: at })).toMatchObject({ retry: false, exhausted: true });
    expect(decide({ result: answer(429), attempt: at, refusals: 'ceiling' })).toMatchObject({
      retry: true,
      counted: false,
    });
    expect(decide({ result: answer(503), attempt: at, refusals: 'ceiling' })).toMatchObject({
      retry: true,
      counted: false,
    });
    expect(decide({ result: answer(503) })).toMatchObject({ retry: true, counted: true });
    // Other 5xx stay counted: they may follow work done.
    expect(decide({ result: answer(502), attempt: at, refusals: 'ceiling' })).toMatchObject({ retry: false });
    // The client's maxRetries: 0 sends once, a 429 included.
    expect(decide({ result: answer(429), maxRetries: 0 })).toMatchObject({ retry: false, exhausted: true });
  });
  it('resolves a connection never made (client re-sent only a GET): nothing was sent, so any method goes again', () => {
    for (const method of ['GET', 'POST'])
      expect(decide({ method, result: { failure: 'refused' } })).toMatchObject({
        retry: true,
        reason: 'not-sent',
        mayHaveCreated: false,
        waitFrom: 'backoff',
      });
    expect(decide({ result: { failure: 'refused' }, attempt: RETRY_POLICY.maxRetries })).toMatchObject({
      retry: false,
      exhausted: true,
    });
  });
  it('resolves a POST whose answer was lost (suite re-sent it): never re-sent; look for its video, and stop if absent', () => {
    for (const failure of ['dropped', 'timeout'] as const) {
      expect(decide({ method: 'POST', result: { failure } })).toMatchObject({
        retry: false,
        reason: 'answer-lost',
        mayHaveCreated: true,
        lookFirst: 'stop-if-absent',
      });
      // A GET goes again (it changes nothing).
      expect(decide({ result: { failure } })).toMatchObject({ retry: true, mayHaveCreated: true });
      expect(decide({ result: { failure } }).lookFirst).toBeUndefined();
    }
  });
  it('a body that stalls or misses its deadline is an answer lost: a GET goes again, a POST is looked for', () => {
    expect(decide({ result: { failure: 'body-timeout' } })).toMatchObject({
      retry: true,
      reason: 'answer-lost',
      mayHaveCreated: true,
      waitFrom: 'backoff',
      counted: true,
    });
    expect(decide({ result: { failure: 'body-timeout' }, attempt: RETRY_POLICY.maxRetries })).toMatchObject({
      retry: false,
      exhausted: true,
    });
    expect(decide({ method: 'POST', result: { failure: 'body-timeout' } })).toMatchObject({
      retry: false,
      mayHaveCreated: true,
      lookFirst: 'stop-if-absent',
    });
  });
  it('a body past the size limit is not read again: a GET stops there, a POST (its headers may have said 200) is looked for', () => {
    expect(decide({ result: { failure: 'too-large' } })).toMatchObject({
      retry: false,
      reason: 'answer-too-large',
      exhausted: false,
    });
    expect(decide({ method: 'POST', result: { failure: 'too-large' } })).toMatchObject({
      retry: false,
      reason: 'answer-too-large',
      mayHaveCreated: true,
      lookFirst: 'stop-if-absent',
    });
  });
  it('resolves a POST answered by a 5xx other than 503 (suite and client.api re-sent it): look first, re-send only if absent', () => {
    expect(decide({ method: 'POST', result: answer(502) })).toMatchObject({
      retry: false,
      mayHaveCreated: true,
      lookFirst: 'resend-if-absent',
      waitFrom: 'backoff',
    });
    // A 503 and a 429 refuse before any work: a POST goes again.
    expect(decide({ method: 'POST', result: answer(503, { 'retry-after': '0' }) })).toMatchObject({
      retry: true,
      mayHaveCreated: false,
    });
    expect(decide({ method: 'POST', result: answer(429, { 'retry-after': '0' }) })).toMatchObject({
      retry: true,
      mayHaveCreated: false,
    });
  });
  it('resolves which methods are idempotent (client: GET, HEAD; proxy: also OPTIONS; suite: all): RFC 9110', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])
      expect(decide({ method, result: answer(502) }).retry).toBe(true);
    for (const method of ['POST', 'PATCH']) expect(decide({ method, result: answer(502) }).retry).toBe(false);
  });
});

describe('noAnswerOf: why a fetch got no answer', () => {
  const fetchError = (code: string) =>
    Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
  it('a connection never made sent nothing', () => {
    for (const code of [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EAI_AGAIN',
      'UND_ERR_CONNECT_TIMEOUT',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    ])
      expect(noAnswerOf(fetchError(code))).toBe('refused');
  });
  it('a connection lost after sending, or an error it cannot place, may have arrived', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']) expect(noAnswerOf(fetchError(code))).toBe('dropped');
    expect(noAnswerOf(new Error('something else'))).toBe('dropped');
  });
  it('a failure of the body, by undici’s code (body.ts’s errors carry the same)', () => {
    expect(noAnswerOf(new BodyTimeoutError('idle', 30_000, 12))).toBe('body-timeout');
    expect(noAnswerOf(new ResponseTooLargeError(10))).toBe('too-large');
    expect(noAnswerOf(fetchError('UND_ERR_BODY_TIMEOUT'))).toBe('body-timeout');
    expect(noAnswerOf(fetchError('UND_ERR_HEADERS_TIMEOUT'))).toBe('timeout');
    expect(noAnswerOf(fetchError('UND_ERR_RES_EXCEEDED_MAX_SIZE'))).toBe('too-large');
  });
  it('a timeout: the caller’s own timer, or an AbortSignal.timeout', () => {
    expect(noAnswerOf(new Error('aborted'), true)).toBe('timeout');
    expect(noAnswerOf(new DOMException('signal timed out', 'TimeoutError'))).toBe('timeout');
  });
});
