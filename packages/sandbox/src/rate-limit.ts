// Sliding-window rate limits per account and class (interface 8.1), in real ms under the time scale.
import type { Clock } from './clock.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Real ms until the window frees a request. */
  resetMs: number;
  windowMs: number;
}

export class RateLimiter {
  private hits = new Map<string, number[]>();
  constructor(private readonly clock: Clock, private readonly enabled: boolean) {}

  take(account: string, cls: string, limit: number, windowSeconds: number): RateDecision {
    const now = this.clock.now();
    const windowMs = this.clock.ms(windowSeconds);
    const key = `${account}\u0000${cls}`;
    const hits = (this.hits.get(key) ?? []).filter((t) => t > now - windowMs);
    const allowed = !this.enabled || hits.length < limit;
    if (allowed) hits.push(now);
    if (this.enabled) this.hits.set(key, hits);
    const used = this.enabled ? hits.length : 0;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - used),
      resetMs: hits.length ? hits[0] + windowMs - now : 0,
      windowMs,
    };
  }
}
