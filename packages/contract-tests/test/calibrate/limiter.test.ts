// The limiter probe's schedule and its inference (src/calibrate/limiter.ts), as a property: whatever
// the behaviour of a target's limiter (each of the four styles, counting refused requests or not),
// whatever the phase of its fixed windows and however late each request leaves (up to 6% of a spacing
// interval), the answers to the schedule are explained by that behaviour alone. The servers the end-to-end
// tests calibrate (test/fixtures/independent, the sandbox) check the same against implementations of their own.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RATE_LIMITS } from '@videogen/openapi/rules';
import {
  candidateLimits,
  EXTRA_STEPS,
  infer,
  schedule,
  scheduleCost,
  simulate,
  STYLES,
  nextAttempt,
  type Attempt,
  type LimiterModel,
  type Style,
} from '../../src/calibrate/limiter.ts';

const BEHAVIOURS: Array<[Style, boolean]> = STYLES.flatMap(
  (style): Array<[Style, boolean]> =>
    style === 'fixed'
      ? [[style, false]]
      : [
          [style, false],
          [style, true],
        ],
);
const label = (style: string, counted: boolean) =>
  style === 'fixed' ? 'fixed' : `${style}${counted ? ' (refusals counted)' : ''}`;

/**
 * The answers a limiter gives the schedule, each request late by its jitter (a fraction of the spacing),
 * each said with a slack of `slack` spacings (half a slow round trip).
 */
function answers(model: LimiterModel, jitter: number[], slack = 0, skip = -1): Attempt[] {
  const sim = simulate(model);
  const interval = model.windowMs / model.limit;
  const out: Attempt[] = [];
  let j = 0;
  for (const step of schedule(model.limit, model.windowMs)) {
    let t = step.at;
    for (let i = 0; i < step.max; i++) {
      t += (jitter[j++ % jitter.length] ?? 0) * interval;
      if (j - 1 === skip) {
        t += 3;
        continue;
      }
      const allowed = sim.allowedAt(t);
      sim.take(t, allowed);
      out.push({ at: t, slack: 1 + slack * interval, allowed });
      t += 3; // the next request of a burst leaves when the answer is in
      if (!allowed) break;
    }
  }
  return out;
}

describe.each(Object.entries(RATE_LIMITS))('class %s', (_cls, { requests, windowMs }) => {
  test('every behaviour, at every window phase and with late requests, is told apart from the others', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BEHAVIOURS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 0.06, noNaN: true }), { minLength: 1, maxLength: 8 }),
        ([style, counted], phase, jitter) => {
          const model: LimiterModel = {
            style,
            limit: requests,
            windowMs,
            refusedCount: counted,
            phaseMs: phase * windowMs,
          };
          const inferred = infer(answers(model, jitter), [requests], [windowMs]);
          expect(inferred?.candidates).toEqual([label(style, counted)]);
          expect(inferred).toMatchObject({ style, limit: requests, windowMs });
        },
      ),
      { numRuns: 300, seed: 33 },
    );
  });

  test('with slow round trips (a slack of up to 30% of the spacing) the target’s own behaviour is still the one kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BEHAVIOURS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        ([style, counted], phase, slack) => {
          const model: LimiterModel = {
            style,
            limit: requests,
            windowMs,
            refusedCount: counted,
            phaseMs: phase * windowMs,
          };
          const inferred = infer(answers(model, [0], slack), [requests], [windowMs]);
          expect(inferred).toMatchObject({ style, ...(style !== 'fixed' && { refusedCount: counted }) });
        },
      ),
      { numRuns: 300, seed: 34 },
    );
  });

  test('answers that leave two behaviours (a request lost) get one more step (one request or two) where they would differ', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BEHAVIOURS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat(20),
        ([style, counted], phase, lost) => {
          const model: LimiterModel = {
            style,
            limit: requests,
            windowMs,
            refusedCount: counted,
            phaseMs: phase * windowMs,
          };
          // One request never reached the limiter (a gateway's 502 in its place): its answer is not known.
          const seen = answers(model, [0], 0, lost);
          const sim = simulate(model);
          for (const a of seen) sim.take(a.at, a.allowed);
          for (let extra = 0; extra < 3; extra++) {
            const next = nextAttempt(seen, [requests], [windowMs], Math.max(...seen.map((a) => a.at)) + 1);
            if (next === undefined) break;
            // Sent a little late, as a probe's sleep is; a burst's second request when the first is answered.
            for (let i = 0, at = next.at + 2; i < next.max; i++, at += 3) {
              const allowed = sim.allowedAt(at);
              sim.take(at, allowed);
              seen.push({ at, slack: 1, allowed });
              if (!allowed) break;
            }
          }
          const candidates = infer(seen, [requests], [windowMs])?.candidates;
          // The first request alone fixes where a fixed window may start against a sliding one; lost too
          // (the probe sends a 5xx again at once, so only when both attempts fail), the steps narrow the
          // behaviours without always leaving one, and the twin says which remained.
          if (lost === 0) expect(candidates).toContain(label(style, counted));
          else expect(candidates).toEqual([label(style, counted)]);
        },
      ),
      { numRuns: 150, seed: 37 },
    );
  });

  test('a target with other numbers is read with them, from its burst', () => {
    const model: LimiterModel = { style: 'sliding', limit: requests * 2, windowMs, refusedCount: false };
    const seen = answers(model, [0]);
    // The interface's numbers explain nothing here; the burst's count does.
    const inferred = infer(seen, [requests, ...new Set(seen.map((_, i) => i + 1))], [windowMs]);
    expect(inferred).toMatchObject({ style: 'sliding', limit: requests * 2 });
  });

  test('what the probe costs: the requests at most, and about three 429s', () => {
    const cost = scheduleCost(requests, windowMs);
    const refusals = answers({ style: 'sliding', limit: requests, windowMs, refusedCount: false }, [0]).filter(
      (a) => !a.allowed,
    );
    expect(cost.requests).toBe(4 * requests + 5);
    // (and up to 3 steps of at most 2 more where the answers leave two behaviours, and a request sent again
    // for a transient 5xx)
    expect(refusals.length).toBeLessThanOrEqual(3);
  });
});

test('answers no style explains (a limit that moves) are said so, not forced into one', () => {
  const seen: Attempt[] = [0, 1, 2, 3].map((i) => ({ at: i * 10, slack: 1, allowed: i % 2 === 0 }));
  expect(infer(seen, [5], [10_000])).toBeUndefined();
});

/**
 * The whole probe (the schedule, then the extra steps nextAttempt asks for) against a limiter of the given
 * behaviour, as a busy machine sends it: each step leaves late by `late` ms, each request's round trip is
 * 2 ms and `rt` more, and the limiter decides somewhere within it (`within`, a fraction of the round trip).
 */
function probed(model: LimiterModel, nominal: number, rt: number[], within: number[], late: number[]): Attempt[] {
  const sim = simulate(model);
  const seen: Attempt[] = [];
  let clock = 0;
  let n = 0;
  const step = (s: { at: number; max: number }) => {
    let t = Math.max(clock, s.at + late[n % late.length]);
    for (let i = 0; i < s.max; i++, n++) {
      const trip = 2 + rt[n % rt.length];
      const decided = t + within[n % within.length] * trip;
      const allowed = sim.allowedAt(decided);
      sim.take(decided, allowed);
      seen.push({ at: t + trip / 2, slack: trip / 2 + 1, allowed });
      t += trip;
      if (!allowed) break;
    }
    clock = t;
  };
  for (const s of schedule(model.limit, model.windowMs)) step(s);
  for (let extra = 0; extra < EXTRA_STEPS; extra++) {
    const next = nextAttempt(seen, candidateLimits(seen, nominal), [model.windowMs], clock);
    if (next === undefined) break;
    step(next);
  }
  return seen;
}

describe.each(Object.entries(RATE_LIMITS))('class %s at 20×, on a busy machine', (_cls, { requests, windowMs }) => {
  const real = windowMs / 20;
  // Round trips of 2 ms and up to 40 ms more, most of them short (skewed); sleeps up to 20 ms late.
  const trips = fc.array(
    fc.double({ min: 0, max: 1, noNaN: true }).map((x) => 40 * x ** 2),
    { minLength: 1, maxLength: 24 },
  );
  const fractions = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 24 });
  const lateness = fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 1, maxLength: 8 });

  test('round trips widened by jitter: the probe and its extra steps still read the target’s own behaviour', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BEHAVIOURS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        trips,
        fractions,
        lateness,
        ([style, counted], phase, rt, within, late) => {
          const model: LimiterModel = {
            style,
            limit: requests,
            windowMs: real,
            refusedCount: counted,
            phaseMs: phase * real,
          };
          const seen = probed(model, requests, rt, within, late);
          const inferred = infer(seen, candidateLimits(seen, requests), [real]);
          expect(inferred).toMatchObject({
            style,
            limit: requests,
            windowMs: real,
            ...(style !== 'fixed' && { refusedCount: counted }),
          });
        },
      ),
      { numRuns: 150, seed: 37 },
    );
  });
});
