// The planner's figures against a real full run against the sandbox, counted from the suite's own
// exchange log: per check the class-A and class-B requests and the credits, and the budget honoured.
import { describe, expect, it } from 'vitest';
import { MAX_RUNNING, pacingFloorMs } from '@videogen/openapi/rules';
import { startSandboxTarget } from '../src/launch.ts';
import { Run } from '../src/run.ts';
import { allChecks } from '../src/checks/index.ts';
import { runAll, checkId } from '../src/runner.ts';
import { plan, budgetSkips, costOf } from '../src/plan.ts';
import { DECLARED } from '../src/check-costs.ts';

async function fullRun(budget?: number) {
  const sandbox = await startSandboxTarget(100);
  try {
    const run = new Run(sandbox.config);
    if (budget !== undefined) {
      run.creditBudget = budget;
      run.budgetSkips = budgetSkips(allChecks(), budget);
    }
    const results = await runAll(run, allChecks());
    return { run, results, config: sandbox.config };
  } finally {
    await sandbox.close();
  }
}

/** Per check, what the run sent: class A, class B apart from status reads of created videos, those reads, credits. */
function measured(run: Run) {
  const per = new Map<string, { A: number; B: number; reads: number; credits: number }>();
  // An answer 429/503 waited out and re-sent is counted once (the re-sent request).
  for (const e of run.exchanges.filter((x) => !x.retried)) {
    const r = per.get(e.check) ?? { A: 0, B: 0, reads: 0, credits: 0 };
    const isRead = e.operationId === 'getVideo' && run.created.some((id) => e.path.includes(id));
    if (e.method === 'POST') r.A++;
    else if (isRead) r.reads++;
    else r.B++;
    if (e.method === 'POST' && (e.operationId === 'generateVideo' || e.operationId === 'createConversion') && e.status < 300) r.credits++;
    per.set(e.check, r);
  }
  return per;
}

describe('contract --plan', () => {
  it('declares only checks that exist', () => {
    const ids = new Set(allChecks().map(checkId));
    expect(Object.keys(DECLARED).filter((k) => !ids.has(k))).toEqual([]);
  });

  it("matches a full run against the sandbox: requests per class and credits per check, the floor from the run's own counts", async () => {
    const { run, results, config } = await fullRun();
    // Judged on the checks that passed (a check failing on a loaded machine, e.g. a burst, is not the planner's business).
    expect(results.filter((r) => r.state === 'passed').length).toBeGreaterThan(100);
    const p = plan(allChecks(), config, 'full');
    const actual = measured(run);
    const ran = new Set(results.filter((r) => r.state === 'passed').map(checkId));
    for (const { id, cost } of p.included) {
      if (!ran.has(id)) continue;
      const a = actual.get(id) ?? { A: 0, B: 0, reads: 0, credits: 0 };
      if (cost.upTo) expect(a.B, id).toBeLessThanOrEqual(cost.B);
      expect({ id, A: a.A, B: cost.upTo ? cost.B : a.B, credits: a.credits }).toEqual({ id, A: cost.A, B: cost.B, credits: cost.credits });
      expect(a.reads, id).toBeGreaterThanOrEqual(cost.reads);
    }
    expect(run.creditsSpent).toBe(p.credits);
    // The floor the run met: its own class counts for the main account, evenly spaced.
    // (over the checks that passed: a failed check may have sent more or less than it declares).
    const main = { A: 0, B: 0 };
    for (const e of run.exchanges) if (e.auth === 'key of main' && !e.retried && ran.has(e.check)) main[e.method === 'POST' ? 'A' : 'B']++;
    const planned = { A: 0, B: 0 };
    for (const { id, cost } of p.included) if (ran.has(id)) (planned.A += cost.A - (cost.apart?.A ?? 0)), (planned.B += cost.B - (cost.apart?.B ?? 0) + cost.reads);
    expect(main.A).toBe(planned.A);
    // (the burst declares the most it may send: discounted here, the run's count is at most the plan's)
    const slack = p.included.filter((c) => c.cost.upTo && ran.has(c.id)).reduce((n, c) => n + c.cost.B, 0);
    expect(main.B + slack).toBeGreaterThanOrEqual(planned.B);
    if (ran.size === p.included.length) expect(pacingFloorMs(planned)).toBe(p.floorMs);
  });

  it('CONTRACT_CREDIT_BUDGET: the run spends at most the budget, and skips what the plan says, with the reason', async () => {
    const budget = 4;
    const { run, results, config } = await fullRun(budget);
    const p = plan(allChecks(), config, 'full', budget);
    expect(run.creditsSpent).toBeLessThanOrEqual(budget);
    expect(run.creditsSpent).toBe(p.credits);
    const skipped = results.filter((r) => r.state === 'skipped');
    expect(skipped.map(checkId).sort()).toEqual(p.skipped.map((s) => s.id).sort());
    expect(skipped.every((r) => /credit budget 4/.test(r.message ?? ''))).toBe(true);
    // Cheapest coverage first: the shared generations (2 credits, 8 checks) and conversion (1 credit, 3 checks) run.
    for (const id of ['createConversion › convert_returns_new_id', 'generateVideo › generate_returns_video_id', 'generateVideo › generate_mode_pdf_file', 'generateVideo › concurrency_limit', 'createConversion › concurrency_limit_shared'])
      expect(skipped.map(checkId)).not.toContain(id);
    expect(costOf(allChecks().find((c) => checkId(c) === 'generateVideo › generate_returns_video_id')!).credits).toBe(MAX_RUNNING);
    expect(results.filter((r) => r.state === 'passed').map(checkId)).toContain('generateVideo › concurrency_limit');
  });

  it('CONTRACT_CREDIT_BUDGET=2: the shared generations are judged; only the concurrency checks skip (their probe needs a credit left)', async () => {
    const budget = 2;
    const { run, results, config } = await fullRun(budget);
    const p = plan(allChecks(), config, 'full', budget);
    expect(run.creditsSpent).toBe(budget);
    expect(p.credits).toBe(budget);
    expect(results.filter((r) => r.state === 'failed').map((r) => `${checkId(r)}: ${r.message}`)).toEqual([]);
    // (conformance checks of an operation left without requests, or without errors, skip for that, not the budget)
    const skipped = results.filter((r) => r.state === 'skipped' && /credit budget/.test(r.message ?? ''));
    expect(skipped.map(checkId).sort()).toEqual(p.skipped.map((s) => s.id).sort());
    const byId = new Map(results.map((r) => [checkId(r), r]));
    for (const id of ['generateVideo › generate_returns_video_id', 'generateVideo › generate_new_id_each_time', 'getVideo › status_view_running', 'getVideo › status_view_generated_completes', 'listVideos › lists_generated_video', 'generateVideo › generate_mode_pdf_file'])
      expect(byId.get(id)?.state, id).toBe('passed');
    for (const id of ['generateVideo › concurrency_limit', 'createConversion › concurrency_limit_shared']) {
      expect(byId.get(id)?.state, id).toBe('skipped');
      expect(byId.get(id)?.message, id).toMatch(/credit budget 2 \(CONTRACT_CREDIT_BUDGET\) spent/);
    }
  });

  it('a budget of 0 sends no generation or conversion that could be accepted', async () => {
    const { run } = await fullRun(0);
    expect(run.creditsSpent).toBe(0);
  });
});
