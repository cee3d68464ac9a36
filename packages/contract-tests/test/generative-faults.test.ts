// @module-tag full/matrix
// The measured power of a default run, in its lean form (the default seed, every class, one sandbox):
// each generative fault (generative-faults.ts) is a service that fails only for one class of inputs;
// the hand-written scenarios alone never send a request of any class; and a default run finds at least
// 95 % of them in the full and no-credit profiles (all of them, with the boundary phase). The 20-seed
// measurement and its table: `npm run power -w @videogen/contract-tests` (test/power/). The runs go side
// by side as the power script's do, each on a sandbox of its own (a run mostly waits: pacing, hangs).
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '@videogen/openapi/rules';
import { startSandboxTarget, type Launched } from '../src/cli/launch.ts';
import type { RunningSandbox } from '@videogen/sandbox';
import { PROFILES, type Profile } from '../src/shapes.ts';
import { GENERATIVE_FAULTS, startFaultServer } from './generative-faults.ts';
import { failures, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';
import { faultGroups, measureGroup, showsUploadSizes, type ClassResult } from './power/measure.ts';
import { powerTable } from './power/table.ts';

/** The seed of the self-test's generated requests (harness.ts generation()). */
const DEFAULT_SEED = 1;

/** Default runs measured at once (the power script's WORKERS). */
const WORKERS = 4;

type Sandbox = Launched & { handle: RunningSandbox };
const sandboxes: Sandbox[] = [];
/** A sandbox of its own for each run going at once: one account's limits shared by two runs paced apart would meet 429s. */
async function sandbox(): Promise<Sandbox> {
  const s = await startSandboxTarget(SELF_TEST_TIME_SCALE);
  sandboxes.push(s);
  return s;
}
afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

describe('generative faults', () => {
  it('are at least 12 classes across the six operations', () => {
    expect(GENERATIVE_FAULTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(GENERATIVE_FAULTS.map((f) => f.operation))).toEqual(new Set(OPERATIONS.map((o) => o.operationId)));
    expect(new Set(GENERATIVE_FAULTS.map((f) => f.failure))).toEqual(new Set(['500', 'wrong shape', 'hang']));
  });

  it('none is reached by the hand-written scenarios: run alone against every fault at once, in every profile, they send no request of any class', async () => {
    const received = await Promise.all(
      PROFILES.map(async (profile) => {
        const sb = await sandbox();
        const server = await startFaultServer(sb.handle.origin, GENERATIVE_FAULTS);
        try {
          const { results } = await runSuite({ ...sb.config, baseUrl: server.baseUrl }, { profile });
          expect(failures(results), profile).toEqual([]);
          expect(server.hits, profile).toEqual([]);
          return server.received();
        } finally {
          await server.close();
        }
      }),
    );
    // (Every request went through the faults' servers.)
    expect(received.reduce((a, b) => a + b, 0)).toBeGreaterThan(200);
  }, 300_000);

  it('a default run (default seed) finds at least 95 % in the full and no-credit profiles, each class by the boundary phase, with no false failure', async () => {
    const runs: ClassResult[] = [];
    const profiles: Profile[] = ['full', 'no-credit'];
    const groups = faultGroups(GENERATIVE_FAULTS);
    // The uploads at the plans' limits (hundreds of megabytes) only in the run of the class they show:
    // those runs first, the longest.
    const queue = profiles
      .flatMap((profile) => groups.map((group) => ({ profile, group })))
      .sort((a, b) => Number(showsUploadSizes(b.group)) - Number(showsUploadSizes(a.group)));
    const worker = async () => {
      const sb = await sandbox();
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { profile, group } = next;
        const measured = await measureGroup(sb, group, profile, DEFAULT_SEED, { sizes: showsUploadSizes(group) });
        runs.push(...measured);
        console.log(
          `${profile} ${group.map((f) => f.id).join(', ')}: ${measured[0]?.seconds.toFixed(1)} s, ${measured[0]?.requests} requests`,
        );
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    const table = powerTable(GENERATIVE_FAULTS, profiles, runs, DEFAULT_SEED);
    console.log(table.markdown);
    expect(runs.flatMap((r) => r.unexplained)).toEqual([]);
    expect(table.share.full).toBeGreaterThanOrEqual(0.95);
    expect(table.share['no-credit']).toBeGreaterThanOrEqual(0.95);
    // Deterministic: every class found by the boundary phase (whatever the seed of the random one).
    expect(runs.filter((r) => r.phase !== 'boundary').map((r) => `${r.profile} ${r.fault.id}`)).toEqual([]);
  }, 1_200_000);
});
