import { MAX_TIMER_MS } from '@videogen/openapi/rules';

/** Time source of every wait (retries, pacing, polling). Inject one in tests so nothing sleeps for real. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<unknown>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  // setTimeout, not node:timers/promises, so that the client loads where Node's built-ins do not exist.
  sleep: async (ms, signal) => {
    // Node's timers overflow past 2^31-1 ms and then fire after 1 ms: a long wait is slept in pieces.
    for (let left = ms; left > MAX_TIMER_MS; left -= MAX_TIMER_MS) await sleepOnce(MAX_TIMER_MS, signal);
    return sleepOnce(ms % MAX_TIMER_MS || (ms > 0 ? MAX_TIMER_MS : 0), signal);
  },
};
const sleepOnce = (ms: number, signal?: AbortSignal) =>
    new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const abort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', abort);
        resolve(undefined);
      }, ms);
      signal?.addEventListener('abort', abort, { once: true });
    });
