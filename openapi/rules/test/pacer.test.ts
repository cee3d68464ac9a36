import { describe, expect, it } from 'vitest';
import {
  MAX_LEARNED_TIME_SCALE,
  MAX_RUNNING,
  MemoryPacerStore,
  POLLING,
  Pacer,
  PacerWaitError,
  RATE_LIMITS,
  pacingFloorMs,
  type RateClass,
} from '../src/index.js';

/** Virtual time: sleeps resolve in time order when the test runs the clock. */
function virtualClock() {
  let now = 0;
  const timers: Array<{ at: number; resolve: () => void }> = [];
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = { at: now + ms, resolve };
      timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          const i = timers.indexOf(timer);
          if (i < 0) return; // already fired
          timers.splice(i, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  /** Runs until `done` resolves, jumping from timer to timer. */
  async function run<T>(done: Promise<T>): Promise<T> {
    let finished = false;
    const result = done.finally(() => (finished = true));
    for (let steps = 0; !finished; steps++) {
      if (steps > 100_000)
        throw new Error(
          `virtual clock: no progress at ${now}, ${timers.length} timers, next ${timers.slice(0, 3).map((t) => t.at)}`,
        );
      await settle();
      if (finished) break;
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) {
        await new Promise((r) => setTimeout(r, 0));
        continue;
      }
      now = Math.max(now, next.at);
      next.resolve();
    }
    return result;
  }
  return { now: () => now, sleep, run, advance: (ms: number) => (now += ms) };
}

/** The four honest readings of "N per window (1 per window/N)"; true when the request is accepted at `t`. */
const limiters = {
  sliding(limit: number, windowMs: number) {
    const log: number[] = [];
    return (t: number) => {
      while (log.length && log[0] <= t - windowMs) log.shift();
      if (log.length >= limit) return false;
      log.push(t);
      return true;
    };
  },
  fixed(limit: number, windowMs: number) {
    let start = 0,
      count = 0;
    return (t: number) => {
      const w = Math.floor(t / windowMs) * windowMs;
      if (w !== start) (start = w), (count = 0);
      if (count >= limit) return false;
      count++;
      return true;
    };
  },
  even(limit: number, windowMs: number) {
    const gap = windowMs / limit;
    let last = -Infinity;
    return (t: number) => {
      if (t - last < gap) return false;
      last = t;
      return true;
    };
  },
  'token-bucket'(limit: number, windowMs: number) {
    const refill = limit / windowMs;
    let tokens = limit,
      at = 0;
    return (t: number) => {
      tokens = Math.min(limit, tokens + (t - at) * refill);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    };
  },
};

describe('Pacer', () => {
  for (const [style, make] of Object.entries(limiters)) {
    it(`meets no 429 from a ${style} limiter, with concurrent callers and jittery latency, close to the floor`, async () => {
      const clock = virtualClock();
      const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
      const accept = {
        A: make(RATE_LIMITS.A.requests, RATE_LIMITS.A.windowMs),
        B: make(RATE_LIMITS.B.requests, RATE_LIMITS.B.windowMs),
      };
      let rejected = 0;
      let seed = 7;
      const jitter = () => ((seed = (seed * 48271) % 2147483647) % 80) + 1; // 1..80 ms
      const call = async (rateClass: RateClass) => {
        const ticket = await pacer.acquire({ rateClass });
        await clock.sleep(jitter()); // on the way: the server counts it on arrival
        const ok = accept[rateClass](clock.now());
        if (!ok) rejected++;
        await clock.sleep(jitter()); // the answer on its way back
        ticket.settle({ status: ok ? 200 : 429 });
      };
      const worker = async (n: number, rateClass: RateClass) => {
        for (let i = 0; i < n; i++) await call(rateClass);
      };
      const started = clock.now();
      await clock.run(Promise.all([worker(10, 'B'), worker(10, 'B'), worker(10, 'B'), worker(4, 'A'), worker(4, 'A')]));
      expect(rejected).toBe(0);
      const floor = pacingFloorMs({ A: 8, B: 30 });
      const wall = clock.now() - started;
      expect(wall).toBeGreaterThanOrEqual(floor);
      // Each request adds at most its round trip (≤ 160 ms here) and the margin to the 2 s spacing.
      expect(wall / floor).toBeLessThan(1.1);
    });
  }

  it('spaces evenly at the spec reading: B one per 2 s, A one per 5 s', () => {
    const pacer = new Pacer();
    expect(pacer.intervalOf('B')).toBeGreaterThanOrEqual(RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests);
    expect(pacer.intervalOf('B')).toBeLessThan((RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests) * 1.02 + 2);
    expect(pacer.intervalOf('A')).toBeGreaterThanOrEqual(RATE_LIMITS.A.windowMs / RATE_LIMITS.A.requests);
  });

  it('scales to a known time scale, and learns one from RateLimit-Policy for both classes', async () => {
    expect(new Pacer({ timeScale: 50 }).intervalOf('B')).toBeLessThan(
      RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests / 40,
    );
    const pacer = new Pacer();
    const ticket = await pacer.acquire({ rateClass: 'B' });
    ticket.settle({ status: 200, headers: { 'RateLimit-Policy': `${RATE_LIMITS.B.requests};w=0.2` } });
    expect(pacer.limitOf('B')).toEqual({ limit: RATE_LIMITS.B.requests, windowMs: 200 });
    expect(pacer.limitOf('A').windowMs).toBeCloseTo(RATE_LIMITS.A.windowMs / 50);
  });

  it("learns the time scale from an even limiter's policy (one request per interval) for the other class too", () => {
    const pacer = new Pacer();
    const interval = RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests;
    // The sandbox's even style at 50×: class B says `1;w=<interval / 50>`.
    return pacer.acquire({ rateClass: 'B' }).then((ticket) => {
      ticket.settle({ status: 200, headers: { 'RateLimit-Policy': `1;w=${interval / 50 / 1000}` } });
      expect(pacer.intervalOf('A')).toBeGreaterThanOrEqual(RATE_LIMITS.A.windowMs / RATE_LIMITS.A.requests / 50);
      expect(pacer.limitOf('A').windowMs).toBeCloseTo(RATE_LIMITS.A.windowMs / 50);
    });
  });

  it('believes a policy stricter than 8.1 up to 4 times its spacing, for one window at most, never as a slower clock', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    const spacing = RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests;
    // One answer announces one request per 100,000 s (before: every process failed, "waiting 100998 s").
    (await pacer.acquire({ rateClass: 'B' })).settle({ status: 200, headers: { 'RateLimit-Policy': '1;w=100000' } });
    expect(pacer.intervalOf('B')).toBeLessThanOrEqual(spacing * 4 * 1.01 + 2);
    const before = clock.now();
    await clock.run(pacer.acquire({ rateClass: 'B' }).then((t) => t.settle({ status: 200 })));
    expect(clock.now() - before).toBeLessThanOrEqual(spacing * 4 * 1.01 + 2);
    // Not a time scale: class A keeps its own spacing, the polling and the running slots their real time.
    expect(pacer.limitOf('A')).toEqual({ limit: RATE_LIMITS.A.requests, windowMs: RATE_LIMITS.A.windowMs });
    // Unsaid again, it lapses after its window, read at most as an hour.
    clock.advance(60 * 60_000);
    expect(pacer.limitOf('B')).toEqual({ limit: RATE_LIMITS.B.requests, windowMs: RATE_LIMITS.B.windowMs });
  });

  it(`believes a faster policy (a sandbox's time scale) up to ${MAX_LEARNED_TIME_SCALE} times the interface's pace`, async () => {
    const pacer = new Pacer();
    const spacing = RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests;
    // One answer announces a million times the interface's pace: read as MAX_LEARNED_TIME_SCALE.
    (await pacer.acquire({ rateClass: 'B' })).settle({
      status: 200,
      headers: { 'RateLimit-Policy': `1;w=${spacing / 1e6 / 1000}` },
    });
    const { limit, windowMs } = pacer.limitOf('B');
    expect(windowMs / limit).toBeCloseTo(spacing / MAX_LEARNED_TIME_SCALE);
    expect(pacer.limitOf('A').windowMs).toBeCloseTo(RATE_LIMITS.A.windowMs / MAX_LEARNED_TIME_SCALE);
  });

  it('waits out RateLimit-Remaining 0 until RateLimit-Reset', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    (await pacer.acquire({ rateClass: 'B' })).settle({
      status: 200,
      headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '7' },
    });
    await clock.run(pacer.acquire({ rateClass: 'B' }));
    expect(clock.now()).toBeGreaterThanOrEqual(7000);
  });

  it('after a 429, waits its Retry-After (seconds or HTTP-date) and slows the class for the rest of the run', async () => {
    const clock = virtualClock();
    clock.advance(Date.parse('2026-01-01T00:00:00Z'));
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    const before = pacer.intervalOf('B');
    (await pacer.acquire({ rateClass: 'B' })).settle({
      status: 429,
      headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' },
      error_code: 'TOO_MANY_REQUESTS',
    });
    const t0 = clock.now();
    await clock.run(pacer.acquire({ rateClass: 'B' }));
    expect(clock.now() - t0).toBeGreaterThanOrEqual(30_000);
    expect(pacer.intervalOf('B')).toBeGreaterThan(before * 1.4);
    expect(pacer.stats.limited.B).toBe(1);
  });

  it('does not treat a 429 INSUFFICIENT_CREDIT as the rate limit', async () => {
    const pacer = new Pacer();
    const before = pacer.intervalOf('A');
    (await pacer.acquire({ rateClass: 'A' })).settle({ status: 429, error_code: 'INSUFFICIENT_CREDIT' });
    expect(pacer.intervalOf('A')).toBe(before);
    expect(pacer.stats.limited.A).toBe(0);
  });

  it('fails with a typed error carrying the Retry-After when a wait exceeds its ceiling (no timer overflow)', async () => {
    const pacer = new Pacer({ maxWaitMs: 60_000 });
    (await pacer.acquire({ rateClass: 'A' })).settle({ status: 429, headers: { 'Retry-After': '3000000' } });
    const err = await pacer.acquire({ rateClass: 'A' }).catch((e) => e);
    expect(err).toBeInstanceOf(PacerWaitError);
    expect(err.retryAfter).toBe('3000000');
    expect(err.retryAfterMs).toBeGreaterThan(60_000);
  });

  it('reports the Retry-After as the server sent it, not the capped wait (3000000 s is 3e9 ms, on every error)', async () => {
    const pacer = new Pacer({ maxWaitMs: 60_000 });
    (await pacer.acquire({ rateClass: 'A' })).settle({ status: 429, headers: { 'Retry-After': '3000000' } });
    const err = await pacer.acquire({ rateClass: 'A' }).catch((e) => e);
    expect(err.retryAfterMs).toBe(3_000_000_000);
  });

  it(`holds video starts to ${MAX_RUNNING} running, and a status read that shows the end frees a slot`, async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep, timeScale: 100 });
    for (let i = 0; i < MAX_RUNNING; i++)
      (await clock.run(pacer.acquire({ rateClass: 'A', startsVideo: true }))).settle({
        status: 200,
        video_id: `v${i}`,
      });
    const checked: string[] = [];
    let third = false;
    const next = pacer
      .acquire({ rateClass: 'A', startsVideo: true, checkRunning: async (id) => void checked.push(id) })
      .then((t) => ((third = true), t));
    await clock.run(clock.sleep(1000));
    expect(third).toBe(false);
    // It looks at the oldest running video, at most once per polling interval.
    expect(new Set(checked)).toEqual(new Set(['v0']));
    expect(checked.length).toBeLessThanOrEqual(1000 / (POLLING.intervalMs / 100) + 1);
    (await pacer.acquire({ rateClass: 'B', videoId: 'v0' })).settle({ status: 200, videoStatus: 'completed' });
    await clock.run(next);
    expect(third).toBe(true);
  });

  it('counts videos it learned of elsewhere, and a 503 on a start holds starts back', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    pacer.noteRunning(['x']);
    expect(pacer.runningCount()).toBe(1);
    (await pacer.acquire({ rateClass: 'A', startsVideo: true })).settle({
      status: 503,
      headers: { 'retry-after': '40' },
      error_code: 'SIMULTANEOUS_GENERATE_LIMIT',
    });
    const t0 = clock.now();
    await clock.run(pacer.acquire({ rateClass: 'A', startsVideo: true }));
    expect(clock.now() - t0).toBeGreaterThanOrEqual(40_000);
    expect(pacer.stats.full).toBe(1);
  });

  it('after a recorded burst, waits a whole window; drain waits until the window is empty', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 6; i++) pacer.record('B');
    await clock.run(pacer.acquire({ rateClass: 'B' }).then((t) => t.settle({ status: 200 })));
    expect(clock.now()).toBeGreaterThanOrEqual(RATE_LIMITS.B.windowMs);
    const t1 = clock.now();
    await clock.run(pacer.drain('B'));
    expect(clock.now() - t1).toBeGreaterThanOrEqual(RATE_LIMITS.B.windowMs);
  });

  it('keeps accounts apart', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    (await pacer.acquire({ rateClass: 'B', account: 'a' })).settle({ status: 200 });
    await clock.run(pacer.acquire({ rateClass: 'B', account: 'b' }));
    expect(clock.now()).toBe(0);
  });

  it('forgets an idle account (a long-lived proxy meeting many keys), never one in flight, waiting or running', async () => {
    const clock = virtualClock();
    const store = new MemoryPacerStore(clock.now);
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep, store });
    const held = await pacer.acquire({ rateClass: 'B', account: 'busy' });
    (await pacer.acquire({ rateClass: 'B', account: 'done' })).settle({ status: 200 });
    (await pacer.acquire({ rateClass: 'A', account: 'running', startsVideo: true })).settle({
      status: 200,
      video_id: 'v1',
    });
    (await pacer.acquire({ rateClass: 'B', account: 'limited' })).settle({
      status: 429,
      headers: { 'retry-after': '30' },
    });
    expect(store.size).toBe(4);
    expect(pacer.forget('busy')).toBe(false);
    expect(pacer.forget('running')).toBe(false);
    expect(pacer.forget('limited')).toBe(false);
    expect(pacer.forget('done')).toBe(true);
    expect(store.size).toBe(3);
    held.settle({ status: 200 });
    clock.advance(POLLING.timeoutMs + 1);
    for (const a of ['busy', 'running', 'limited']) expect(pacer.forget(a)).toBe(true);
    expect(store.size).toBe(0);
  });

  it('names a start held while every slot is taken a wait for a slot, though it first waits out its spacing', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < MAX_RUNNING; i++) {
      const start = await clock.run(pacer.acquire({ rateClass: 'A', startsVideo: true }));
      start.settle({ status: 200, video_id: `v${i}` } as never);
    }
    const told: Array<{ reason?: string }> = [];
    const third = pacer.acquire({ rateClass: 'A', startsVideo: true, onWait: (w) => told.push(w) });
    await new Promise((r) => setImmediate(r));
    // Class A's spacing also holds it now; the reason said is the slot (the wait that outlasts it).
    expect(told[0]?.reason).toBe('full');
    third.catch(() => undefined);
  });

  it('lists who waits, and for what, while the pacer holds them (inspect, as `videogen pacing` shows it); told before the wait', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    (await pacer.acquire({ rateClass: 'B' })).settle({ status: 429, headers: { 'retry-after': '30' } });
    const told: unknown[] = [];
    const held = pacer.acquire({ rateClass: 'B', onWait: (w) => told.push(w) });
    await new Promise((r) => setImmediate(r));
    // Told before each sleep (a settle elsewhere wakes it to look again: the client says a reason once).
    expect(told[0]).toEqual({ waitMs: 30_000, reason: 'server' });
    expect((await pacer.inspect()).waiting).toEqual([
      { rateClass: 'B', startsVideo: false, reason: 'server', forMs: 0 },
    ]);
    clock.advance(5000);
    expect((await pacer.inspect()).waiting).toEqual([expect.objectContaining({ forMs: 5000 })]);
    (await clock.run(held)).settle({ status: 200 });
    expect((await pacer.inspect()).waiting).toEqual([]);
  });

  it('shows the schedule as it stands (inspect): places in flight, answers, waits, running videos', async () => {
    const clock = virtualClock();
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    const empty = await pacer.inspect();
    expect(empty).toEqual({
      scope: 'process',
      classes: { A: { inFlight: 0, blockedForMs: 0, slowdown: 1 }, B: { inFlight: 0, blockedForMs: 0, slowdown: 1 } },
      running: [],
      startsInFlight: 0,
      fullForMs: 0,
      processes: 1,
      waiting: [],
    });
    (await pacer.acquire({ rateClass: 'A', startsVideo: true })).settle({ status: 200, video_id: 'v1' });
    (await pacer.acquire({ rateClass: 'B' })).settle({ status: 429, headers: { 'retry-after': '30' } });
    // The second start waits class A's spacing (virtual time), then is held, unanswered.
    const start = await clock.run(pacer.acquire({ rateClass: 'A', startsVideo: true }));
    clock.advance(1000);
    const t = clock.now();
    const busy = await pacer.inspect();
    expect(busy.classes.A).toMatchObject({ inFlight: 1, lastAnswerAgoMs: t, blockedForMs: 0 });
    expect(busy.classes.B).toMatchObject({ inFlight: 0, lastAnswerAgoMs: t, blockedForMs: 30_000 - t, slowdown: 1.5 });
    expect(busy.running).toEqual([{ videoId: 'v1', lapsesInMs: POLLING.timeoutMs - t }]);
    expect(busy.startsInFlight).toBe(1);
    start.settle({ status: 503, headers: { 'retry-after': '40' }, error_code: 'SIMULTANEOUS_GENERATE_LIMIT' });
    expect((await pacer.inspect()).fullForMs).toBe(40_000);
    // Reading it took no place: the next request goes as it would have.
    expect((await pacer.inspect()).classes.A.inFlight).toBe(0);
  });

  it('gives the floor of a sequence', () => {
    expect(pacingFloorMs({ B: 6 })).toBe(5 * (RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests));
    expect(pacingFloorMs({ A: 3, B: 1 }, 10)).toBe((2 * RATE_LIMITS.A.windowMs) / RATE_LIMITS.A.requests / 10);
  });
});
