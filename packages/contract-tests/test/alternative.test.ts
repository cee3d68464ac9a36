// @module-tag full/matrix
// A service that stays inside the interface but chose differently where it is silent (the sandbox's
// `alternative` personality), under every rate-limiter style: the suite reports no interface failure, and
// every difference lands in the drift report under the decision it differs from, and nowhere else. Both
// personalities run with generated requests on (src/generation/): they add no interface failure, and
// against our own sandbox no drift either.
import { describe, expect, it } from 'vitest';
import { RATE_LIMITER_STYLES } from '@videogen/sandbox';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { driftOf } from '../src/report/drift.ts';
import { failures, generation, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

// Each run has its own sandbox, and mostly waits (generations, pacing at 100×): the runs go side by side,
// four at a time (the package's maxConcurrency). A run took 40 s on two quiet cores and 70 s at a load of
// 18, where the four that waited for a slot went past the default 120 s while running: a run's own limit.
const RUN_TIMEOUT_MS = 300_000;
// The uploads at and one byte past each plan's size limit (about 900 MB a run: a second of CPU per 100 MB
// on loopback) under one limiter style: the sandbox's answers to them do not depend on how it counts a
// window, and cli.test.ts (the command line's full run) and plan.test.ts send them again.
const UPLOADS_UNDER = RATE_LIMITER_STYLES[0];
describe('against a service that chose differently (personality alternative)', () => {
  it.concurrent.each(RATE_LIMITER_STYLES)(
    'limiter %s: fails nothing, and reports each difference as drift from the decision it concerns',
    async (rateLimiter) => {
      const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, { personality: 'alternative', rateLimiter });
      try {
        // As a QA engineer would run it against someone else's service: an external target, not strict.
        const { run, results, bursts } = await runSuite({
          ...sandbox.config,
          kind: 'external',
          strict: false,
          generation: generation(5),
        });
        // The burst went at one instant of the sandbox's time (TargetConfig.holdTime): every limiter style answers a 429.
        expect(bursts).toBe(1);
        expect(failures(results)).toEqual([]);
        // The generated checks ran (with the link sequences as far as a conversion).
        const generated = results.filter((r) => r.name.startsWith('generated_') && r.state !== 'skipped');
        expect(generated.length).toBeGreaterThan(15);
        const drifted = results.filter((r) => r.state === 'drift');
        expect(drifted.length).toBeGreaterThan(0);
        const decisions = new Set(driftOf(results).map((d) => d.decision));
        // 201 on creation (#2), 422 for a bad form (#5 and #8's upload errors), the page past the end (#30).
        for (const d of [2, 5, 30]) expect(decisions, `decision #${d}`).toContain(d);
        // Every drift names a decision of DECISIONS.md (x-decision) and only those.
        for (const r of drifted)
          expect(
            r.mismatches!.every((m) => m.decision.length > 0),
            checkId(r),
          ).toBe(true);
        // The pacer met no rate limit outside the burst that provokes one, though the alternative sends no
        // RateLimit headers (a 429 INSUFFICIENT_CREDIT is the credit row of 7.2).
        const limited = [
          ...run.exchanges,
          ...run.transients.map((t) => ({ ...t, body: { error_code: t.errorCode } })),
        ].filter(
          (e) =>
            e.status === 429 &&
            (e.body as any)?.error_code !== 'INSUFFICIENT_CREDIT' &&
            !e.scenario.includes('rate_limit_burst'),
        );
        expect(limited.map((e) => `${e.scenario}: ${'path' in e ? e.path : e.request}`)).toEqual([]);
        expect(run.creditsSpent).toBeLessThanOrEqual(10);
      } finally {
        await sandbox.close();
      }
    },
    RUN_TIMEOUT_MS,
  );

  it.concurrent.each(RATE_LIMITER_STYLES)(
    'CONTRACT_STRICT against the default personality, limiter %s: no failure, no drift at all (our own sandbox keeps our decisions)',
    async (rateLimiter) => {
      const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, { rateLimiter });
      try {
        const { results, bursts } = await runSuite(
          { ...sandbox.config, strict: true, generation: generation(5) },
          { checks: (c) => rateLimiter === UPLOADS_UNDER || c.name !== 'boundary_upload_sizes' },
        );
        expect(bursts).toBe(1);
        expect(failures(results)).toEqual([]);
        expect(results.filter((r) => r.state === 'drift').map((r) => `${checkId(r)}: ${r.message}`)).toEqual([]);
      } finally {
        await sandbox.close();
      }
    },
    RUN_TIMEOUT_MS,
  );
});
