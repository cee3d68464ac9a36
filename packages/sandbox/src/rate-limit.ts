// Rate limits per account and class (interface 8.1), in real ms under the time scale, in one of four
// styles: every honest reading of "at most N requests per W seconds (1 per W/N seconds)".
//   sliding      at most N in any window of W
//   fixed        at most N per window aligned on multiples of W
//   even         one per W/N, no burst (GCRA with zero tolerance) — the default (DECISIONS #28): a
//                sequence it accepts is accepted by every other style, so a client paced for it
//                meets no 429 from any of them
//   token-bucket capacity N, one token back every W/N
// N and W, the style and whether a refused request counts against the window come from the twin
// (twin-behaviour.ts; its N and W are the document's `x-rate-limit` unless the twin observed others).
import { builtinTwin } from '@videogen/openapi/twin';
import type { Clock } from './clock.js';
import type { ClassLimit } from './twin-behaviour.js';

export const RATE_LIMITER_STYLES = ['sliding', 'fixed', 'even', 'token-bucket'] as const;
export type RateLimiterStyle = (typeof RATE_LIMITER_STYLES)[number];
/** The style of the default twin (DECISIONS #28). */
export const DEFAULT_RATE_LIMITER: RateLimiterStyle = builtinTwin('default').behaviours['rate_limit.B.style'].value;

export interface RateDecision {
  allowed: boolean;
  /** The quota the style advertises (`RateLimit-Limit`, and the Q of `RateLimit-Policy`). */
  limit: number;
  remaining: number;
  /** Real ms until one more request is allowed (0 when one is allowed now). */
  resetMs: number;
  /** The window the style advertises (`w=` of `RateLimit-Policy`), real ms. */
  windowMs: number;
}

/** Float slack for comparisons of real ms computed from divisions (W/N at odd time scales). */
const EPS = 1e-6;

/** A reading of the limits: its own state per account and class (S), taken and given back on each request. */
interface Style<S = unknown> {
  // (A method, so that a style of its own state is a Style of any: the limiter keeps states it never reads.)
  /** `counted`: a refused request counts against the window as an allowed one does. */
  take(
    state: S | undefined,
    now: number,
    limit: number,
    windowMs: number,
    counted: boolean,
  ): { state: S; decision: RateDecision };
}

const sliding: Style<number[]> = {
  take(hits = [], now, limit, windowMs, counted) {
    const live = hits.filter((t) => t > now - windowMs + EPS);
    const allowed = live.length < limit;
    if (allowed || counted) live.push(now);
    // Refused: until enough of the window (refused requests counted in it) has passed for one more.
    const resetMs = !allowed ? live[live.length - limit] + windowMs - now : live.length ? live[0] + windowMs - now : 0;
    return {
      state: live,
      decision: { allowed, limit, remaining: Math.max(0, limit - live.length), resetMs, windowMs },
    };
  },
};

const fixed: Style<{ start: number; count: number }> = {
  take(s, now, limit, windowMs, counted) {
    const start = Math.floor(now / windowMs) * windowMs;
    const state = s && s.start === start ? { ...s } : { start, count: 0 };
    const allowed = state.count < limit;
    // (A refused request counted changes nothing a client sees: the window ends when it ends.)
    if (allowed || counted) state.count++;
    const resetMs = state.count ? start + windowMs - now : 0;
    return { state, decision: { allowed, limit, remaining: Math.max(0, limit - state.count), resetMs, windowMs } };
  },
};

const even: Style<number> = {
  // GCRA with zero tolerance: `tat` is the earliest time the next request conforms.
  take(tat, now, limit, windowMs, counted) {
    const interval = windowMs / limit;
    const allowed = tat === undefined || now >= tat - EPS;
    const next = tat === undefined || allowed ? now + interval : counted ? tat + interval : tat;
    return {
      state: next,
      decision: { allowed, limit: 1, remaining: 0, resetMs: Math.max(0, next - now), windowMs: interval },
    };
  },
};

const tokenBucket: Style<{ tokens: number; at: number }> = {
  take(s, now, limit, windowMs, counted) {
    const interval = windowMs / limit;
    const tokens = Math.min(limit, (s?.tokens ?? limit) + (s ? (now - s.at) / interval : 0));
    const allowed = tokens >= 1 - EPS;
    // A refused request counted takes a token it does not have: the bucket owes it.
    const left = allowed ? Math.max(0, tokens - 1) : counted ? tokens - 1 : tokens;
    const remaining = Math.max(0, Math.floor(left + EPS));
    const resetMs = remaining >= 1 ? 0 : Math.max(0, (1 - left) * interval);
    return { state: { tokens: left, at: now }, decision: { allowed, limit, remaining, resetMs, windowMs } };
  },
};

const STYLES: Record<RateLimiterStyle, Style> = { sliding, fixed, even, 'token-bucket': tokenBucket };

export function isRateLimiterStyle(v: unknown): v is RateLimiterStyle {
  return typeof v === 'string' && (RATE_LIMITER_STYLES as readonly string[]).includes(v);
}

export class RateLimiter {
  private states = new Map<string, unknown>();
  private readonly classes = new Map<string, ClassLimit & { take: Style['take'] }>();

  constructor(
    private readonly clock: Clock,
    private readonly enabled: boolean,
    /** How each class is enforced (the twin's, with the `rateLimiter` option's style when given). */
    readonly limits: Readonly<Record<string, ClassLimit>>,
  ) {
    for (const [cls, limit] of Object.entries(limits)) {
      if (!isRateLimiterStyle(limit.style))
        throw new Error(`rateLimiter must be one of ${RATE_LIMITER_STYLES.join(', ')}, got ${String(limit.style)}`);
      const style = STYLES[limit.style];
      this.classes.set(cls, { ...limit, take: style.take.bind(style) });
    }
  }

  /** The class's limit as enforced. */
  limitOf(cls: string): ClassLimit {
    const { take: _take, ...limit } = this.classOf(cls);
    return limit;
  }

  private classOf(cls: string) {
    const limit = this.classes.get(cls);
    if (!limit) throw new Error(`no rate limit for class ${cls}`);
    return limit;
  }

  take(account: string, cls: string): RateDecision {
    const c = this.classOf(cls);
    const now = this.clock.now(account);
    const windowMs = this.clock.ms(c.windowSeconds);
    const key = `${account}\u0000${cls}`;
    const { state, decision } = c.take(this.states.get(key), now, c.limit, windowMs, c.refusedCount);
    if (!this.enabled) {
      return {
        allowed: true,
        limit: decision.limit,
        remaining: decision.limit,
        resetMs: 0,
        windowMs: decision.windowMs,
      };
    }
    this.states.set(key, state);
    return decision;
  }

  /** Forget an account's windows (`/_sandbox/reset`). */
  reset(account: string) {
    for (const key of this.states.keys()) if (key.startsWith(`${account}\u0000`)) this.states.delete(key);
  }
}
