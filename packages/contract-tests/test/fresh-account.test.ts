// @module-tag full/runs
// A QA engineer's new, empty account (the sandbox's `seedVideos: false`), one key, nothing configured:
// what each profile runs and skips, and that the plan (--plan) and the run agree on it. Figures of issue
// 20 §4 (skips: read-only 70, no-credit 41, full 14 of 120; credits: 5), with a margin of a few checks.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { checkId } from '../src/engine/catalogue.ts';
import type { Profile } from '../src/shapes.ts';
import { failures, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

const FRESH = { name: 'fresh', plan: 'business' as const, keys: ['contract-fresh-key'], seedVideos: false };

async function fresh(profile: Profile) {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, { accounts: [FRESH] });
  try {
    return await runSuite({
      ...sandbox.config,
      kind: 'external',
      strict: false,
      profile,
      apiKey: 'contract-fresh-key',
      otherAccountKey: undefined,
      freePlanKey: undefined,
      noCreditKey: undefined,
      fixtures: {},
    });
  } finally {
    await sandbox.close();
  }
}

// Each profile has its own sandbox, and mostly waits: side by side.
describe('a fresh account, one key', () => {
  it.concurrent.each([
    ['read-only', 73, 0],
    ['no-credit', 44, 0],
    ['full', 17, 5],
  ] as const)(
    '%s: at most %i skipped, %i credits, nothing failed; every skip the plan announced is a skip of the run',
    async (profile, maxSkipped, credits) => {
      const { run, results, selection } = await fresh(profile);
      expect(failures(results)).toEqual([]);
      const skipped = results.filter((r) => r.state === 'skipped');
      expect(skipped.length).toBeLessThanOrEqual(maxSkipped);
      expect(run.creditsSpent).toBe(credits);
      // One declaration: what the plan skips, the run skips, with the same reason.
      const planned = new Map(selection.checks.filter((c) => c.skip).map((c) => [c.id, c.skip]));
      for (const [id, reason] of planned) expect(results.find((r) => checkId(r) === id)?.message, id).toBe(reason);
      // And a check the plan runs without waiting on discovery is not skipped for want of a fixture.
      const sure = selection.checks.filter((c) => !c.skip && !c.pending.length).map((c) => c.id);
      expect(
        skipped
          .filter((r) => sure.includes(checkId(r)) && /no fixture/.test(r.message ?? ''))
          .map((r) => `${checkId(r)}: ${r.message}`),
      ).toEqual([]);
      // Discovery read the (empty) list once, within its budget, and said so.
      expect(run.exchanges.filter((e) => e.scenario === 'discovery: videos').length).toBe(1);
    },
  );
});
