// Vitest wrapper: one describe per operation, one test per check, a skip with its reason.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, inject, it } from 'vitest';
import { allChecks } from './checks/index.ts';
import { budgetSkips } from './plan.ts';
import { runStatsFile } from './run-stats.ts';
import { Run } from './run.ts';
import { runOne } from './runner.ts';
import type { Check } from './checks/types.ts';

const KEY = Symbol.for('videogen.contract.run');

/** One run (one pacer) per worker process, shared by every suite file. */
export function currentRun(): Run {
  const g = globalThis as any;
  if (!g[KEY]) {
    g[KEY] = new Run(inject('contractTarget'));
    g[KEY].failuresDir = process.env.CONTRACT_FAILURES_DIR ?? 'test-results/failures';
    g[KEY].driftDir = process.env.CONTRACT_DRIFT_DIR ?? 'test-results';
    const budget = process.env.CONTRACT_CREDIT_BUDGET;
    if (budget !== undefined && budget !== '') {
      const n = Number(budget);
      if (!Number.isInteger(n) || n < 0) throw new Error(`CONTRACT_CREDIT_BUDGET must be a whole number ≥ 0, not ${budget}`);
      g[KEY].creditBudget = n;
      g[KEY].budgetSkips = budgetSkips(allChecks(), n);
    }
  }
  return g[KEY];
}


export function defineChecks(checks: Check[]): void {
  afterAll(() => {
    const run = currentRun();
    const requests = { A: 0, B: 0 } as Record<string, number>;
    for (const e of run.exchanges) requests[e.method === 'POST' ? 'A' : 'B']++;
    mkdirSync(dirname(runStatsFile()), { recursive: true });
    writeFileSync(runStatsFile(), JSON.stringify({ creditsSpent: run.creditsSpent, creditBudget: run.creditBudget ?? null, requests, retried: run.retries }));
  });
  const byOperation = new Map<string, Check[]>();
  for (const c of checks) byOperation.set(c.operation, [...(byOperation.get(c.operation) ?? []), c]);
  for (const [operation, list] of byOperation) {
    describe(operation, () => {
      for (const c of list) {
        it(c.name, async (t) => {
          const r = await runOne(currentRun(), c);
          if (r.state === 'skipped') {
            // The reason also goes into the JUnit XML (as a property; <skipped/> carries no text).
            await t.annotate(r.message ?? 'skipped', 'skip-reason');
            t.skip(r.message);
          }
          if (r.state === 'drift') {
            // Shown in its own section of the summary and as a JUnit property; fails only when strict.
            await t.annotate(r.message ?? 'decision mismatch', 'decision-mismatch');
            if (currentRun().target.strict) {
              const err = new Error(r.message);
              err.name = 'DecisionMismatch';
              err.stack = `${err.name}: ${r.message}`;
              throw err;
            }
          }
          if (r.state === 'failed') {
            const err = new Error(r.message);
            err.name = 'ContractViolation';
            err.stack = `${err.name}: ${r.message}`;
            throw err;
          }
        });
      }
    });
  }
}
