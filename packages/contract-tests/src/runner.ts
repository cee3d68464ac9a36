// Runs checks outside any test framework (the self-test uses this directly; the vitest suite wraps it).
import { FIXTURE_ENV } from './target.ts';
import type { Run } from './run.ts';
import { SkipError, collectingMismatches, type Check, type CheckContext, type Mismatch } from './checks/types.ts';
import { redact } from './redact.ts';
import { assertEveryOperationCovered } from './checks/index.ts';
import { makeBundle, writeBundle } from './failures.ts';

/** `drift`: the target differs only from this document's decisions (DECISIONS.md), not from the interface. */
export type CheckState = 'passed' | 'failed' | 'skipped' | 'drift';

export interface CheckResult {
  operation: string;
  name: string;
  state: CheckState;
  /** Skip reason, or failure message (redacted). */
  message?: string;
  ms: number;
  /** The decisions the target differed from, with what it did instead. */
  mismatches?: Mismatch[];
}

export function checkId(c: { operation: string; name: string }): string {
  return `${c.operation} › ${c.name}`;
}

function contextFor(run: Run): CheckContext {
  const skip = (reason: string): never => {
    throw new SkipError(reason);
  };
  return {
    run,
    main: run.main,
    anon: run.anon,
    skip,
    requireFull(what) {
      if (run.target.profile !== 'full') skip(`profile ${run.target.profile}: ${what} only in the full profile (CONTRACT_PROFILE=full)`);
    },
    requireStateful(why) {
      if (!run.target.stateful) skip(`target ${run.target.kind} is a stateless mock: ${why}`);
    },
    async fixture(name) {
      if (!run.main.hasKey) skip('no API key (VIDEO_API_KEY)');
      const f = await run.fixtures();
      const v = f[name];
      if (!v) skip(`no fixture ${name}: set ${FIXTURE_ENV[name]}${f.notes[name] ? ` (${f.notes[name]})` : ''}`);
      return v as string;
    },
    other() {
      if (!run.other) skip('no second account: set VIDEO_API_OTHER_ACCOUNT_KEY');
      return run.other!;
    },
  };
}

export async function runOne(run: Run, check: Check): Promise<CheckResult> {
  const started = performance.now();
  run.currentCheck = checkId(check);
  const base = { operation: check.operation, name: check.name };
  const mismatches: Mismatch[] = [];
  try {
    if (!run.main.hasKey && check.name !== 'ignored_auth_missing' && check.name !== 'ignored_auth_malformed') {
      throw new SkipError('no API key (VIDEO_API_KEY)');
    }
    const overBudget = run.budgetSkips?.get(checkId(check));
    if (overBudget) throw new SkipError(overBudget);
    await collectingMismatches(mismatches, () => check.run(contextFor(run)));
    const found = mismatches.splice(0).map((m) => ({ ...m, message: redact(m.message) }));
    if (found.length) {
      run.recordMismatches(checkId(check), found);
      const message = found.map((m) => `decision #${m.decision.join(', #')}: ${m.message}`).join('\n');
      return { ...base, state: 'drift', message, mismatches: found, ms: performance.now() - started };
    }
    return { ...base, state: 'passed', ms: performance.now() - started };
  } catch (err) {
    const ms = performance.now() - started;
    // An interface failure outweighs the mismatches met before it; they are still reported in the drift.
    const found = mismatches.splice(0).map((m) => ({ ...m, message: redact(m.message) }));
    if (found.length) run.recordMismatches(checkId(check), found);
    if (err instanceof SkipError) return { ...base, state: 'skipped', message: redact(err.reason), ms };
    const message = redact((err as Error)?.message ?? String(err));
    if (run.failuresDir) {
      // The check's own exchanges, plus the one it failed on when an earlier check made it (shared videos).
      const id = checkId(check);
      const own = run.exchanges.filter((e) => e.check === id);
      const shown = (err as { exchanges?: typeof own })?.exchanges ?? [];
      own.unshift(...shown.filter((e) => !own.includes(e)));
      writeBundle(run.failuresDir, makeBundle(id, message, run.target, own));
    }
    return { ...base, state: 'failed', message, ms };
  } finally {
    run.currentCheck = 'between checks';
  }
}

export async function runAll(run: Run, checks: Check[]): Promise<CheckResult[]> {
  assertEveryOperationCovered(run);
  const out: CheckResult[] = [];
  for (const c of checks) out.push(await runOne(run, c));
  return out;
}
