// @module-tag full/runs
// The declarations against real runs: per scenario, the requests per class and the credits it declares
// beside itself, counted from the exchanges it sent against the sandbox; the credit budget the plan
// selects is the one the run follows; the plan's skips are the run's.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { spentCredit, type Run } from '../src/engine/run.ts';
import type { Selection } from '../src/engine/selection.ts';
import { generation, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

async function fullRun(budget?: number, withGeneration = false) {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
  try {
    const config = withGeneration ? { ...sandbox.config, generation: generation(7) } : sandbox.config;
    return { ...(await runSuite(config, { budget })), config };
  } finally {
    await sandbox.close();
  }
}

/** What a scenario sent: main-account class A and B (status reads of the run's videos apart), other keys, credits. */
function measured(run: Run, scenario: string) {
  const m = { A: 0, B: 0, reads: 0, apartA: 0, apartB: 0, credits: 0 };
  for (const e of run.exchanges.filter((x) => x.scenario === scenario)) {
    const main = e.auth === 'key of main';
    const read = e.operationId === 'getVideo' && run.created.some((id) => e.path.includes(id));
    if (e.method === 'POST') main ? m.A++ : m.apartA++;
    else if (!main) m.apartB++;
    else if (read) m.reads++;
    else m.B++;
    if (spentCredit(e)) m.credits++;
  }
  return m;
}

function skipsOf(selection: Selection) {
  return selection.checks
    .filter((c) => c.skip)
    .map((c) => c.id)
    .sort();
}

// Each test has its own sandbox, and mostly waits: side by side.
describe.concurrent('the plan (--plan) against real runs', () => {
  it('each scenario sends what it declares: requests per class and credits, against a full run of the sandbox (generated requests on)', async () => {
    const { run, results, selection } = await fullRun(undefined, true);
    expect(results.filter((r) => r.state === 'failed').map((r) => `${checkId(r)}: ${r.message}`)).toEqual([]);
    for (const { scenario, cost } of selection.scenarios) {
      const m = measured(run, scenario.name);
      const id = scenario.name;
      // Generated sequences may stop short of the most they declare (cost.upToA); the rest is exact.
      expect({ id, A: cost.upToA ? cost.A : m.A, apartA: m.apartA, credits: m.credits }).toEqual({
        id,
        A: cost.A,
        apartA: cost.apartA,
        credits: cost.credits,
      });
      if (cost.upToA) expect(m.A, id).toBeLessThanOrEqual(cost.A);
      if (cost.upTo) expect(m.B, id).toBeLessThanOrEqual(cost.B);
      else expect({ id, B: m.B }).toEqual({ id, B: cost.B });
      expect(m.apartB, id).toBeLessThanOrEqual(cost.apartB);
      if (!cost.upTo) expect({ id, apartB: m.apartB }).toEqual({ id, apartB: cost.apartB });
      expect(m.reads, id).toBeGreaterThanOrEqual(cost.reads);
    }
    // Nothing was sent outside a declared scenario.
    const declared = new Set(selection.scenarios.map((s) => s.scenario.name));
    expect([...new Set(run.exchanges.map((e) => e.scenario))].filter((s) => !declared.has(s))).toEqual([]);
    expect(run.creditsSpent).toBe(selection.totals.credits);
    // The hand-written scenarios' 5, and at most 5 more for the generated requests the interface says are
    // valid (the boundary phase's 3, one random one per POST), each followed to its end.
    expect(selection.totals.credits).toBe(10);
    const generated = selection.scenarios.filter((s) => s.scenario.generated);
    expect(generated.reduce((n, s) => n + s.cost.credits, 0)).toBe(5);
  });

  it('CONTRACT_CREDIT_BUDGET=4: spends at most 4, and skips exactly what the plan says, with the reason', async () => {
    const { run, results, selection } = await fullRun(4);
    expect(run.creditsSpent).toBeLessThanOrEqual(4);
    expect(run.creditsSpent).toBe(selection.totals.credits);
    expect(
      results
        .filter((r) => r.state === 'skipped')
        .map(checkId)
        .sort(),
    ).toEqual(skipsOf(selection));
    expect(results.filter((r) => r.state === 'skipped').every((r) => /credit budget 4/.test(r.message ?? ''))).toBe(
      true,
    );
    // Cheapest coverage first: the generations (2 credits, the most checks) and the conversion run; one input mode does not fit.
    const passed = results.filter((r) => r.state === 'passed').map(checkId);
    for (const id of [
      'generateVideo › generate_returns_video_id',
      'generateVideo › concurrency_limit',
      'createConversion › convert_returns_new_id',
      'createConversion › concurrency_limit_shared',
    ])
      expect(passed).toContain(id);
    expect(skipsOf(selection).filter((id) => id.includes('generate_mode_'))).toHaveLength(1);
  });

  it('CONTRACT_CREDIT_BUDGET=2: the generations are judged; the probe (it needs a credit left) and what rests on it skip', async () => {
    const { run, results, selection } = await fullRun(2);
    expect(run.creditsSpent).toBe(2);
    expect(results.filter((r) => r.state === 'failed').map((r) => `${checkId(r)}: ${r.message}`)).toEqual([]);
    expect(
      results
        .filter((r) => r.state === 'skipped')
        .map(checkId)
        .sort(),
    ).toEqual(skipsOf(selection));
    const byId = new Map(results.map((r) => [checkId(r), r]));
    for (const id of [
      'generateVideo › generate_returns_video_id',
      'generateVideo › generate_new_id_each_time',
      'getVideo › status_view_running',
      'getVideo › status_view_generated_completes',
      'listVideos › lists_generated_video',
    ])
      expect(byId.get(id)?.state, id).toBe('passed');
    for (const id of ['generateVideo › concurrency_limit', 'createConversion › concurrency_limit_shared'])
      expect(byId.get(id)?.message, id).toMatch(/credit budget 2 \(--budget 2\) spent by the scenarios before it/);
  });

  it('a budget of 0 sends no generation or conversion with the key', async () => {
    const { run } = await fullRun(0);
    expect(run.creditsSpent).toBe(0);
    expect(
      run.exchanges.filter(
        (e) =>
          e.auth === 'key of main' &&
          ['generateVideo', 'createConversion'].includes(e.operationId ?? '') &&
          e.status < 300,
      ),
    ).toEqual([]);
  });
});
