// The headers that report a rate-limit decision, in the twin's family (`rate_limit.headers`):
//   ratelimit             RateLimit-Limit, -Remaining, -Reset and RateLimit-Policy: 5;w=10 (IETF draft, separate fields)
//   ratelimit-structured  RateLimit: "b";r=4;t=2 and RateLimit-Policy: "b";q=5;w=10 (the draft's later form)
//   x-ratelimit           X-RateLimit-Limit, -Remaining, -Reset
//   none                  nothing
// Seconds are the sandbox's clock's (scaled); a reset is seconds from now, or the epoch second it comes.
import type { FastifyReply } from 'fastify';
import type { Context } from './context.js';
import type { RateDecision } from './rate-limit.js';

export type RateLimitHeaderWriter = (reply: FastifyReply, decision: RateDecision, account: string) => void;

/** The writer of one class's headers, or undefined when the twin sends none. */
export function rateLimitHeaderWriter(ctx: Context, rateClass: string): RateLimitHeaderWriter | undefined {
  const { family, on, reset } = ctx.twin.rateLimitHeaders;
  if (family === 'none') return undefined;
  const name = `"${rateClass.toLowerCase()}"`;
  /** The policy, the same string for every request of the class (written once per window and quota). */
  let policy = { limit: Number.NaN, windowMs: Number.NaN, text: '' };
  const policyOf = (limit: number, windowMs: number) => {
    if (policy.limit !== limit || policy.windowMs !== windowMs) {
      const w = ctx.clock.headerSeconds(windowMs);
      policy = { limit, windowMs, text: family === 'ratelimit' ? `${limit};w=${w}` : `${name};q=${limit};w=${w}` };
    }
    return policy.text;
  };
  const resetOf = (d: RateDecision, account: string) => {
    if (reset === 'epoch_seconds') return String(Math.ceil((ctx.clock.now(account) + Math.max(0, d.resetMs)) / 1000));
    return d.resetMs > 0 ? ctx.clock.headerSeconds(d.resetMs) : '0';
  };
  return (reply, d, account) => {
    if (on === 'rate_limited_only' && d.allowed) return;
    if (family === 'ratelimit') {
      reply.header('ratelimit-limit', String(d.limit));
      reply.header('ratelimit-remaining', String(d.remaining));
      reply.header('ratelimit-reset', resetOf(d, account));
      reply.header('ratelimit-policy', policyOf(d.limit, d.windowMs));
    } else if (family === 'ratelimit-structured') {
      reply.header('ratelimit', `${name};r=${d.remaining};t=${resetOf(d, account)}`);
      reply.header('ratelimit-policy', policyOf(d.limit, d.windowMs));
    } else {
      reply.header('x-ratelimit-limit', String(d.limit));
      reply.header('x-ratelimit-remaining', String(d.remaining));
      reply.header('x-ratelimit-reset', resetOf(d, account));
    }
  };
}
