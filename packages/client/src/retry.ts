import { RATE_LIMITS, RETRY_POLICY } from './generated/spec.js';
import { type Clock, headerMs } from './clock.js';
import { isRetryable, NetworkError, TimeoutError } from './errors.js';
import { type Pacer, route } from './pacer.js';

export interface RetryOptions {
  /** Retries of a 5xx, a 429 or a network error of a GET (default 3, x-retry-policy). */
  maxRetries: number;
  /** First backoff of a 5xx or a network error; doubles each time, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Wait on a 503 without Retry-After (default 30–60 s, x-retry-policy). */
  serviceUnavailableDelayMs: readonly [number, number];
}

export interface SendOptions {
  /** A fresh copy of the request for a retry (uploads rebuild their body from its source). */
  rebuild?: () => Request;
  /** Per-attempt timeout until the response headers arrive; 0 for none. */
  timeoutMs?: number;
  /** Skip the pacer (download host). */
  pace?: boolean;
}

export interface SenderConfig {
  fetch: (req: Request, init?: RequestInit) => Promise<Response>;
  clock: Clock;
  retry: RetryOptions;
  timeoutMs: number;
  pacer?: Pacer;
  /** Looks at a video's status (the pacer uses it when it believes the account full). */
  check?: (id: string) => Promise<unknown>;
}

export const retryOptions = (o: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: RETRY_POLICY.maxRetries,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  serviceUnavailableDelayMs: RETRY_POLICY.serviceUnavailableDelayMs,
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
  return async function send(req: Request, o: SendOptions = {}): Promise<Response> {
    const { clock, retry, pacer } = o.pace === false ? { ...c, pacer: undefined } : c;
    const idempotent = req.method == 'GET' || req.method == 'HEAD';
    const timeoutMs = o.timeoutMs ?? c.timeoutMs;
    const { cls, counts } = pacer ? route(req) : { cls: 'B' as const, counts: false };
    // The next attempt's request. A small non-multipart body (JSON) is kept as bytes; a multipart
    // body without `rebuild` is a one-shot stream and cannot be sent twice.
    let next: (() => Request) | undefined = o.rebuild;
    let first: Request | undefined = req;
    if (!req.body) next = () => req;
    else if (!next && !/multipart/i.test(req.headers.get('content-type') ?? '')) {
      const body = await req.arrayBuffer();
      next = () => new Request(req, { body });
      first = undefined;
    }
    for (let attempt = 0; ; attempt++) {
      req.signal.throwIfAborted();
      const r = attempt == 0 && first ? first : next!();
      const entry = pacer && (await pacer.acquire(cls, counts, req.signal, c.check));
      // A plain timer and controller: cheaper per call than AbortSignal.timeout + AbortSignal.any.
      const ac = timeoutMs ? new AbortController() : undefined;
      const stop = () => ac!.abort(req.signal.reason);
      const timer = ac && setTimeout(() => ac.abort(), timeoutMs);
      ac && req.signal.addEventListener('abort', stop);
      let res: Response | undefined, cause: unknown, wait = 0;
      try {
        res = await c.fetch(r, ac && { signal: ac.signal });
      } catch (e) {
        cause = e;
      }
      clearTimeout(timer);
      req.signal.removeEventListener('abort', stop);
      if (!res) {
        if (entry) await pacer!.settle(req, entry);
        if (req.signal.aborted) throw req.signal.reason;
        const e = ac?.signal.aborted
          ? new TimeoutError(`No response in ${timeoutMs} ms`, { cause, retryable: idempotent })
          : new NetworkError(`Network error: ${(cause as Error)?.cause ?? cause}`, { cause, retryable: idempotent });
        // A POST may have reached the server: only idempotent requests are retried.
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
        const after = headerMs(res, 'retry-after', now);
        wait =
          s == 429
            // The pacer waits on its own (it has learned the reset); without it, wait here.
            ? pacer ? 0 : after ?? headerMs(res, 'ratelimit-reset', now) ?? RATE_LIMITS[route(req).cls].windowMs
            : after ?? (s == 503 ? between(retry.serviceUnavailableDelayMs) : backoff(retry, attempt));
        await res.body?.cancel();
      }
      if (wait) await clock.sleep(wait, req.signal);
    }
  };
}
export type Send = ReturnType<typeof createSender>;
