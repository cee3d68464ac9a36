import { setTimeout as delay } from 'node:timers/promises';

/** Time source of every wait (retries, pacing, polling). Inject one in tests so nothing sleeps for real. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<unknown>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
};

/** Seconds in a header (decimals allowed; Retry-After may also be an HTTP date) → ms, or undefined. */
export function headerMs(res: Response, name: string, now: number): number | undefined {
  const v = res.headers.get(name);
  if (v == null || v === '') return;
  const n = Number(v);
  const ms = Number.isNaN(n) ? Date.parse(v) - now : n * 1000;
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}
