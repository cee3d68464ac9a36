// How much faster than real time a target says it runs: a sandbox started with --time-scale states the
// interface's limits over shorter windows in its RateLimit-Policy. Read by the contract suite (its pace,
// its waits), the client (its polling interval) and the MCP server (its polling, from the schedule's
// learned policy): all follow the target's own statement, never a guess, so a service that states nothing,
// or other limits, is waited for at the interface's real pace.
import { RATE_LIMITS, type RateClass } from './generated/constants.js';
import { type HeaderSource, MAX_LEARNED_TIME_SCALE, parseRateLimitHeaders, type RateLimitPolicy } from './headers.js';

/**
 * The time scale a rate class's policy states (at most MAX_LEARNED_TIME_SCALE): the interface's quota over
 * a shorter window (`5;w=0.1` for class B: 100×), or its even spacing (`1;w=0.02`: 100×). A policy of
 * another shape states other limits, not a faster clock: no time scale is read from it (a pacer still
 * follows it). Undefined for 1 or slower: the real service's time.
 */
export function timeScaleOf(
  policy: Pick<RateLimitPolicy, 'limit' | 'windowMs'> | undefined,
  rateClass: RateClass = 'B',
): number | undefined {
  if (!policy || policy.windowMs <= 0) return undefined;
  const { requests, windowMs } = RATE_LIMITS[rateClass];
  const perRequest = windowMs / requests;
  const scale =
    policy.limit === requests
      ? windowMs / policy.windowMs
      : policy.limit === 1
        ? perRequest / policy.windowMs
        : undefined;
  // Rounded (the window is sent with a few decimals); 1 or slower is no time scale.
  if (scale === undefined || !Number.isFinite(scale)) return undefined;
  const rounded = Number(scale.toPrecision(6));
  return rounded > 1 ? Math.min(rounded, MAX_LEARNED_TIME_SCALE) : undefined;
}

/** The time scale an answer's RateLimit-Policy header states (its first policy), as timeScaleOf reads it. */
export function statedTimeScale(headers: HeaderSource, rateClass: RateClass = 'B'): number | undefined {
  return timeScaleOf(parseRateLimitHeaders(headers).policies[0], rateClass);
}
