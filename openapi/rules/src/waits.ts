// What a wait is for, in words: the pacer's (the account's limits of 8.1 and 8.2, or the server's own
// word) and a retry's (7.1). The client says it before every wait longer than a second (on stderr by
// default; the CLI as a plain line), the pacing proxy and the suite may say it too: one wording here.
import { MAX_RUNNING, RATE_LIMITS, type RateClass } from './generated/constants.js';

/** Waits shorter than this are not announced (a paced request a few hundred ms apart is the normal pace). */
export const ANNOUNCED_WAIT_MS = 1000;

/**
 * Why the pacer holds a request. `spacing`: the class's even spacing of 8.1; `in-flight`: a request of
 * the class is still unanswered (its answer may move the schedule); `server`: the server said the class
 * is used up (a 429's Retry-After, RateLimit-Remaining 0); `full`: the account runs MAX_RUNNING videos
 * (8.2); `refused`: a 503 said the account is full, for the time it gave.
 */
export type WaitReason = 'spacing' | 'in-flight' | 'server' | 'full' | 'refused';

/** A wait about to be slept, as it is announced. */
export interface WaitNotice {
  /** How long, in ms of the caller's clock. */
  waitMs: number;
  /** `pacing`: before a request is sent; `retry`: before a request is sent again. */
  kind: 'pacing' | 'retry';
  /** The request held: `GET /v1/videos/…/`. */
  call: string;
  /** What it waits for, in words. */
  reason: string;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;

/** The limit a pacer holds a class to: the interface's (or the target's stated) quota, and its spacing now. */
export interface PaceOfClass {
  limit: number;
  windowMs: number;
  /** Between two requests of the class now: the quota's even spacing, grown after a 429. */
  intervalMs?: number;
}

/** The pacer's reason for a wait, in words (the numbers are the interface's, or the target's own). */
export function pacingReason(reason: WaitReason | undefined, rateClass: RateClass, pace?: PaceOfClass): string {
  const { limit, windowMs, intervalMs } = pace ?? {
    limit: RATE_LIMITS[rateClass].requests,
    windowMs: RATE_LIMITS[rateClass].windowMs,
  };
  const even = windowMs / limit;
  // A 429 grows the spacing (the limiter is stricter than it said): say so, with the spacing now.
  const slowed = intervalMs !== undefined && intervalMs > even * 1.05;
  const quota =
    limit === 1
      ? `one class ${rateClass} request per ${seconds(windowMs)} per account`
      : `at most ${limit} class ${rateClass} requests per ${seconds(windowMs)} per account`;
  const spacing = slowed ? `${quota}, and after a 429 one every ${seconds(intervalMs)}` : `${quota}, evenly spaced`;
  switch (reason) {
    case 'in-flight':
      return `the answer to the account's class ${rateClass} request still in flight (${spacing})`;
    case 'server':
      return `the server's word: the account's class ${rateClass} requests are used up for now (429 Retry-After or RateLimit-Reset)`;
    case 'full':
      return `one of the account's ${MAX_RUNNING} running videos to finish (at most ${MAX_RUNNING} at once per account)`;
    case 'refused':
      return `the service's 503: the account runs its ${MAX_RUNNING} videos; no start before the wait it gave`;
    default:
      return `the account's rate limit: ${spacing}`;
  }
}

/** The announcement of a wait: `waiting 3.0 s before GET /v1/video-settings/: <reason>`. */
export const waitLine = (n: WaitNotice) => `waiting ${seconds(n.waitMs)} before ${n.call}: ${n.reason}`;
