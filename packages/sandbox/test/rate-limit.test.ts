// The four limiter styles, unit by unit (the numbers come from the document's x-rate-limit), and each
// style's 429 over real HTTP with its own Retry-After and RateLimit-* headers.
import { describe, expect, it } from 'vitest';
import { createClock } from '../src/clock.js';
import { RATE_LIMITER_STYLES, RateLimiter, type RateLimiterStyle } from '../src/rate-limit.js';
import { rateLimitOf, specModel } from '../src/spec.js';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, manualClock, sandbox } from './helpers.js';

const model = specModel();
const classB = rateLimitOf(model.operations.find((o) => o.operationId === 'listVideos')!);
const classA = rateLimitOf(model.operations.find((o) => o.operationId === 'generateVideo')!);
const W = classB.window_seconds * 1000;
const N = classB.requests;
const T = W / N; // the even spacing of class B (1 per 2 s)

function limiter(style: RateLimiterStyle, timeScale = 1, refusedCount = false) {
  const clock = manualClock(0);
  const limits = Object.fromEntries(
    [classA, classB].map((c) => [c.class, { style, limit: c.requests, windowSeconds: c.window_seconds, refusedCount }]),
  );
  const l = new RateLimiter(createClock(timeScale, clock.now), true, limits);
  return {
    clock,
    take: (cls = classB) => l.take('acme', cls.class),
    reset: () => l.reset('acme'),
  };
}

/** Which of the given send times (ms) are allowed. */
function run(style: RateLimiterStyle, times: number[]) {
  const { clock, take } = limiter(style);
  return times.map((t) => {
    clock.set(t);
    return take().allowed;
  });
}

describe('the documented numbers', () => {
  it('class B is 5 per 10 s and class A 2 per 10 s (read from the document)', () => {
    expect([classB.requests, classB.window_seconds, classA.requests, classA.window_seconds]).toEqual([5, 10, 2, 10]);
  });
});

describe('sliding: at most N in any window', () => {
  it('allows a burst of N, then one more only when the oldest leaves the window', () => {
    const burst = Array.from({ length: N + 1 }, (_, i) => i);
    expect(run('sliding', burst)).toEqual([...Array(N).fill(true), false]);
    expect(run('sliding', [...burst.slice(0, N), W - 1, W])).toEqual([...Array(N).fill(true), false, true]);
  });
  it('rejects N+1 straddling an aligned boundary (which fixed allows)', () => {
    const times = [W - 5, W - 4, W - 3, W - 2, W - 1, W];
    expect(run('sliding', times).at(-1)).toBe(false);
    expect(run('fixed', times).at(-1)).toBe(true);
  });
});

describe('fixed: at most N per aligned window', () => {
  it('allows N per window and resets at the boundary', () => {
    const { clock, take } = limiter('fixed');
    clock.set(W + 100);
    for (let i = 0; i < N; i++) expect(take().allowed).toBe(true);
    const denied = take();
    expect(denied).toMatchObject({ allowed: false, remaining: 0, limit: N, windowMs: W });
    expect(denied.resetMs).toBe(W - 100);
    clock.set(2 * W);
    expect(take().allowed).toBe(true);
  });
});

describe('even: one per W/N, no burst (GCRA)', () => {
  it('rejects a second request before W/N, allows it at W/N', () => {
    const { clock, take } = limiter('even');
    expect(take()).toMatchObject({ allowed: true, limit: 1, remaining: 0, resetMs: T, windowMs: T });
    clock.set(T - 1);
    expect(take()).toMatchObject({ allowed: false, resetMs: 1 });
    clock.set(T);
    expect(take().allowed).toBe(true);
  });
  it('class A is one per 5 s', () => {
    const { clock, take } = limiter('even');
    expect(take(classA).allowed).toBe(true);
    clock.set((classA.window_seconds * 1000) / classA.requests - 1);
    expect(take(classA).allowed).toBe(false);
    clock.set((classA.window_seconds * 1000) / classA.requests);
    expect(take(classA).allowed).toBe(true);
  });
  it('a rejected request does not push the next slot back', () => {
    expect(run('even', [0, 10, 20, T])).toEqual([true, false, false, true]);
  });
  it('is exact at odd time scales (W/N with decimals)', () => {
    const { clock, take } = limiter('even', 3);
    const t = W / 3 / N;
    for (let i = 0; i < 20; i++) {
      clock.set(i * t);
      expect(take().allowed).toBe(true);
    }
  });
});

describe('token-bucket: capacity N, one back every W/N', () => {
  it('allows a burst of N, then one per W/N', () => {
    const { clock, take } = limiter('token-bucket');
    for (let i = 0; i < N; i++) expect(take().remaining).toBe(N - 1 - i);
    const denied = take();
    expect(denied).toMatchObject({ allowed: false, remaining: 0, resetMs: T });
    clock.set(T - 1);
    expect(take().allowed).toBe(false);
    clock.set(T);
    expect(take().allowed).toBe(true);
    expect(take().allowed).toBe(false);
    clock.set(10 * W);
    for (let i = 0; i < N; i++) expect(take().allowed).toBe(true);
    expect(take().allowed).toBe(false);
  });
  it('allows more than N in a window (N + refills), which sliding rejects', () => {
    const times = [0, 1, 2, 3, 4, T + 4];
    expect(run('token-bucket', times).at(-1)).toBe(true);
    expect(run('sliding', times).at(-1)).toBe(false);
  });
});

describe('a refused request counted against the window (the twin’s rate_limit.{class}.refused_count)', () => {
  /** Allowed or not at each send time (ms), with refused requests counted. */
  const counted = (style: RateLimiterStyle, times: number[]) => {
    const { clock, take } = limiter(style, 1, true);
    return times.map((t) => {
      clock.set(t);
      return take().allowed;
    });
  };
  it('sliding: N refusals late in the window fill the next one', () => {
    const times = [...Array(N).fill(0), ...Array.from({ length: N }, (_, i) => W - 1000 + i), W + 1];
    const refused = Array(N).fill(false);
    expect(counted('sliding', times)).toEqual([...Array(N).fill(true), ...refused, false]);
    expect(run('sliding', times)).toEqual([...Array(N).fill(true), ...refused, true]);
  });
  it('even: each refusal pushes the next slot one interval back, so a client knocking every interval never gets in', () => {
    expect(counted('even', [0, T / 2, T, 2 * T])).toEqual([true, false, false, false]);
    expect(run('even', [0, T / 2, T, 2 * T])).toEqual([true, false, true, true]);
  });
  it('token-bucket: a refusal takes a token the bucket does not have', () => {
    const burst = Array.from({ length: N }, () => 0);
    expect(counted('token-bucket', [...burst, 0, T])).toEqual([...Array(N).fill(true), false, false]);
    expect(run('token-bucket', [...burst, 0, T])).toEqual([...Array(N).fill(true), false, true]);
  });
});

describe('even is the strictest: whatever another style rejects, even rejects too', () => {
  it('on random sequences', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 300; k++) {
      let t = Math.floor(rnd() * W);
      const times = Array.from({ length: 12 }, () => (t += Math.floor(rnd() * T * 1.5)));
      const verdicts = Object.fromEntries(RATE_LIMITER_STYLES.map((s) => [s, run(s, times)]));
      // Only up to the first rejection: after it the styles' states diverge by design.
      const firstNo = verdicts.even.indexOf(false);
      const upto = firstNo < 0 ? times.length : firstNo;
      for (const s of RATE_LIMITER_STYLES)
        for (let i = 0; i < upto; i++) expect(verdicts[s][i], `${s} ${times}`).toBe(true);
    }
  });
});

describe.each(RATE_LIMITER_STYLES)('%s over HTTP', async (style) => {
  const clock = manualClock();
  const sb = await sandbox({ now: clock.now, rateLimiter: style, timeScale: 2 });
  it('answers 429 RATE_LIMIT_EXCEEDED with a Retry-After that is enough, and quota headers of the style', async () => {
    const answers = [];
    for (let i = 0; i < N + 1; i++) answers.push(await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.acme }));
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited, 'a burst of N+1 meets a 429').toBeDefined();
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe(limited.headers.get('retry-after'));
    const policy = limited.headers.get('ratelimit-policy')!;
    expect(policy).toBe(style === 'even' ? `1;w=${T / 2 / 1000}` : `${N};w=${W / 2 / 1000}`);
    expect(limited.headers.get('ratelimit-limit')).toBe(policy.split(';')[0]);
    // Waiting the advertised time is enough; a bit less is not.
    clock.advance(wait * 1000 - 1);
    expectError(
      await call(sb, 'GET', `/videos/${FIXTURES.acme.videos.convertible}/`, { key: SANDBOX_KEYS.acme }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
    clock.advance(1);
    expect(
      (await call(sb, 'GET', `/videos/${FIXTURES.acme.videos.convertible}/`, { key: SANDBOX_KEYS.acme })).status,
    ).toBe(200);
  });
});
