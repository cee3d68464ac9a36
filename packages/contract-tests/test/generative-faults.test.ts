// @module-tag full/matrix
// The measured power of a default run, in its lean form (the default seed, every class, one sandbox):
// each generative fault (generative-faults.ts) is a service that fails only for one class of inputs;
// the hand-written scenarios alone never send a request of any class; and a default run finds at least
// 95 % of them in the full and no-credit profiles (all of them, with the boundary phase). The 20-seed
// measurement and its table: `npm run power -w @videogen/contract-tests` (test/power/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '@videogen/openapi/rules';
import { startSandboxTarget, type Launched } from '../src/cli/launch.ts';
import type { RunningSandbox } from '@videogen/sandbox';
import { PROFILES, type Profile } from '../src/shapes.ts';
import { GENERATIVE_FAULTS, startFaultServer } from './generative-faults.ts';
import { failures, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';
import { faultGroups, measureGroup, type ClassResult } from './power/measure.ts';
import { powerTable } from './power/table.ts';

/** The seed of the self-test's generated requests (harness.ts generation()). */
const DEFAULT_SEED = 1;

let sandbox: Launched & { handle: RunningSandbox };
beforeAll(async () => {
  sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
});
afterAll(async () => {
  await sandbox?.close();
});

describe('generative faults', () => {
  it('are at least 12 classes across the six operations', () => {
    expect(GENERATIVE_FAULTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(GENERATIVE_FAULTS.map((f) => f.operation))).toEqual(new Set(OPERATIONS.map((o) => o.operationId)));
    expect(new Set(GENERATIVE_FAULTS.map((f) => f.failure))).toEqual(new Set(['500', 'wrong shape', 'hang']));
  });

  it('none is reached by the hand-written scenarios: run alone against every fault at once, in every profile, they send no request of any class', async () => {
    const server = await startFaultServer(sandbox.handle.origin, GENERATIVE_FAULTS);
    try {
      for (const profile of PROFILES) {
        const { results } = await runSuite({ ...sandbox.config, baseUrl: server.baseUrl }, { profile });
        expect(failures(results), profile).toEqual([]);
        expect(server.hits, profile).toEqual([]);
      }
      // (Every request went through the faults' server.)
      expect(server.received()).toBeGreaterThan(200);
    } finally {
      await server.close();
    }
  });

  it('a default run (default seed) finds at least 95 % in the full and no-credit profiles, each class by the boundary phase, with no false failure', async () => {
    const runs: ClassResult[] = [];
    const profiles: Profile[] = ['full', 'no-credit'];
    const groups = faultGroups(GENERATIVE_FAULTS);
    for (const profile of profiles)
      for (const group of groups) {
        // The uploads at the plans' limits (hundreds of megabytes) only in the run of the class they show.
        const sizes = group.some((f) => f.id === 'generate-size-at-limit');
        const measured = await measureGroup(sandbox, group, profile, DEFAULT_SEED, { sizes });
        runs.push(...measured);
        console.log(
          `${profile} ${group.map((f) => f.id).join(', ')}: ${measured[0]?.seconds.toFixed(1)} s, ${measured[0]?.requests} requests`,
        );
      }
    const table = powerTable(GENERATIVE_FAULTS, profiles, runs, DEFAULT_SEED);
    console.log(table.markdown);
    expect(runs.flatMap((r) => r.unexplained)).toEqual([]);
    expect(table.share.full).toBeGreaterThanOrEqual(0.95);
    expect(table.share['no-credit']).toBeGreaterThanOrEqual(0.95);
    // Deterministic: every class found by the boundary phase (whatever the seed of the random one).
    expect(runs.filter((r) => r.phase !== 'boundary').map((r) => `${r.profile} ${r.fault.id}`)).toEqual([]);
  }, 1_200_000);
});
