// The one real sleep of the client and the contract suite's pacer.

/** Node's timers overflow past this and then fire after 1 ms: no single timer is longer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms` (a wait longer than one timer allows is slept in pieces); rejects with the
 * signal's reason when it aborts. setTimeout, not node:timers/promises: this runs in Workers too.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  for (let left = ms; left > MAX_TIMER_MS; left -= MAX_TIMER_MS) await sleepOnce(MAX_TIMER_MS, signal);
  await sleepOnce(ms % MAX_TIMER_MS || (ms > 0 ? MAX_TIMER_MS : 0), signal);
}

function sleepOnce(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
