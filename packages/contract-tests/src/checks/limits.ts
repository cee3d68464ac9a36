// The limits of section 8: a burst past class B answers 429; while the running places are full, a
// further generation and a conversion answer 503 (judged on the concurrency probe, scenarios/generations.ts).
import { MAX_RUNNING, RATE_LIMITS, parseRetryAfter } from '@videogen/openapi/rules';
import { check, need, probe, type Check } from '../engine/catalogue.ts';
import { ensure, type Judge } from '../engine/judge.ts';
import type { Exchange } from '../shapes.ts';
import type { GenerationScenarios, Probe } from '../scenarios/generations.ts';
import { ok } from '../scenarios/videos.ts';
import { successBody } from '../engine/bodies.ts';

/** The burst, and a second one only when the first met no 429. */
const MAX_BURSTS = 2;

const running = (ex: Exchange<'getVideo'>) => successBody(ex)?.status === 'running';

/**
 * Whether the filling videos all ran, from the status reads: a read that was an error blocks the
 * judgement (it fails, naming it); one that shows a video already ended is a reason to skip.
 */
function allRunning(j: Judge, reads: Exchange<'getVideo'>[]): boolean {
  for (const ex of reads) j.success(ex, 'the status of a video filling the running places');
  return reads.every(running);
}

/** A failure shows the filling generations too, so that its bundle replays them before the refused request. */
function withFilling(p: Probe, ex: Exchange): Exchange[] {
  return [...p.filling, ex];
}

export function limitChecks(g: GenerationScenarios): Check[] {
  return [
    probe('listVideoSettings', 'rate_limit_burst', {
      needs: [need.profile('full', 'bursts'), need.stateful('it has no rate limits')],
      // One more than the window allows, by the spec's reading or the target's own (the larger), and a
      // second burst when the first got no 429: the most it sends.
      cost: { B: MAX_BURSTS * (RATE_LIMITS.B.requests + 1), upTo: true },
      send: async (s) => {
        const { pacer } = s.run;
        await pacer.drain('B', 'main');
        const n = Math.max(pacer.limitOf('B', 'main').limit, RATE_LIMITS.B.requests) + 1;
        const burst = async () => {
          // At one instant of the target's time where the suite owns its clock (the sandbox it started).
          const release = s.run.target.holdTime?.();
          try {
            return await Promise.all(
              Array.from({ length: n }, () => s.main.call('listVideoSettings', { pace: false, retry: false })),
            );
          } finally {
            release?.();
          }
        };
        const bursts = [await burst()];
        // The interface does not say how the window is kept (8.1). A fixed window may turn while a burst
        // arrives and let all of it through; it cannot turn again before a second burst sent at once, which
        // then finds the window holding the first burst's late part. Only a target with no limit answers
        // neither with a 429.
        if (!bursts[0].some((ex) => ex.status === 429)) bursts.push(await burst());
        return { n, bursts };
      },
      judge: ({ n, bursts }, j) => {
        const answers = bursts.flat();
        const limited = answers.filter((ex) => ex.status === 429);
        ensure(
          limited.length > 0,
          `${n} requests at once, twice (class B allows ${RATE_LIMITS.B.requests} per ${RATE_LIMITS.B.windowMs / 1000} s), got no 429: ${bursts.map((b) => b.map((e) => e.status).join(', ')).join(' / ')}`,
          answers,
        );
        for (const ex of answers) ensure(ok(ex) || ex.status === 429, `a burst answered ${ex.status}`, ex);
        for (const ex of limited) {
          j.refusal(ex, [429]);
          const ra = ex.headers.get('retry-after');
          if (ra !== null)
            ensure(
              parseRetryAfter(ra) !== undefined,
              `Retry-After "${ra}" is neither a number of seconds nor an HTTP-date`,
              ex,
            );
        }
      },
      answers: [{ status: 429 }],
    }),
    check(
      'generateVideo',
      'concurrency_limit',
      g.probe,
      (p, j) => {
        // Judged by the state established before sending: all running. A queue that holds the request and
        // answers 200 once a place frees breaks 8.2 all the same.
        if (!allRunning(j, p.before))
          j.skip(
            'the generations filling the running places had already ended when the next was sent (too fast to test the limit)',
          );
        const stillRunning = allRunning(j, p.after);
        let judged = 0;
        for (const [i, { combination, exchange }] of p.overLimit.entries()) {
          if (ok(exchange)) {
            // The first was sent while all ran (read just before); a later one only if they still ran after.
            ensure(
              i > 0 && !stillRunning,
              `a generation (${combination.key}) was accepted while ${MAX_RUNNING} videos ran: expected 503 SIMULTANEOUS_GENERATE_LIMIT (8.2)`,
              withFilling(p, exchange),
            );
            continue;
          }
          if (exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429) continue; // refused as a form: its own generate_mode check says so
          try {
            j.refusal(exchange, [503], 'SIMULTANEOUS_GENERATE_LIMIT');
          } catch (err) {
            (err as { exchanges?: Exchange[] }).exchanges?.unshift(...p.filling);
            throw err;
          }
          judged++;
        }
        if (!judged && p.stopped) j.skip(p.stopped);
        if (!judged && !stillRunning)
          j.skip(
            'the generations filling the running places had ended by the time the answers came (too fast to test the limit)',
          );
        ensure(
          judged > 0,
          'every generation sent while the running places were full was refused as a form (see the generate_mode checks), so the limit could not be judged',
          p.overLimit.map((x) => x.exchange),
        );
      },
      [],
      [{ status: 503, code: 'SIMULTANEOUS_GENERATE_LIMIT' }],
    ),
    check(
      'createConversion',
      'concurrency_limit_shared',
      g.probe,
      (p, j) => {
        // 8.2.2: conversions count toward the same limit as generation.
        if (!p.conversion && p.stopped) j.skip(p.stopped);
        const ex = j.present(p.conversion, 'the conversion sent while the running places were full');
        if (!allRunning(j, p.before))
          j.skip(
            'the generations filling the running places had already ended when the conversion was sent (too fast to test the limit)',
          );
        if (ex.status !== 503 && !allRunning(j, p.after))
          j.skip(
            'the generations filling the running places had ended by the time the conversion was answered (too fast to test the limit)',
          );
        try {
          j.refusal(ex, [503], 'SIMULTANEOUS_GENERATE_LIMIT');
        } catch (err) {
          (err as { exchanges?: Exchange[] }).exchanges?.unshift(...p.filling);
          throw err;
        }
      },
      // A convertible video there before the run's own complete (they are the ones running).
      [need.foundFixture('convertibleVideoId')],
      [{ status: 503, code: 'SIMULTANEOUS_GENERATE_LIMIT' }],
    ),
  ];
}
