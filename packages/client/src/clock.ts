import { sleep } from '@videogen/openapi/rules';

/** Time source of every wait (retries, pacing, polling). Inject one in tests so nothing sleeps for real. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<unknown>;
}

/** Real time, with the rules module's one sleep (long waits slept in pieces: Node's timers overflow). */
export const realClock: Clock = { now: () => Date.now(), sleep };
