// Runs the catalogue in-process against a fresh sandbox behind a (breaking) proxy, as the CLI would.
import { startSandboxTarget } from '../src/cli/launch.ts';
import { catalogue } from '../src/checks/index.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { Run } from '../src/engine/run.ts';
import { runCatalogue, type RunResult } from '../src/engine/runner.ts';
import { select } from '../src/engine/selection.ts';
import type { Profile, TargetConfig } from '../src/shapes.ts';
import { startBreakingProxy, type Break } from './breaking-proxy.ts';

export const SELF_TEST_TIME_SCALE = 100;

/** Runs the catalogue for `config` (filtered to `operations`), as `videogen-contract` does, in this process. */
export async function runSuite(config: TargetConfig, opts: { operations?: string[]; budget?: number; profile?: Profile } = {}) {
  const cat = catalogue(config);
  const selection = select(cat, config, opts.profile ?? config.profile, opts.budget);
  if (opts.operations) selection.checks = selection.checks.filter((c) => opts.operations!.includes(c.check.operation));
  const run = new Run({ ...config, profile: opts.profile ?? config.profile });
  const results = await runCatalogue(run, cat, selection);
  return { run, results, selection, byId: new Map(results.map((r) => [checkId(r), r])) };
}

export async function runAgainstProxy(
  make: (t: TargetConfig) => Break,
  operations?: string[],
  sandboxOptions: Record<string, unknown> = {},
  profile?: Profile,
): Promise<{ results: RunResult[]; byId: Map<string, RunResult>; run: Run; violations: string[] }> {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, sandboxOptions);
  const proxy = await startBreakingProxy(sandbox.handle.origin, make(sandbox.config));
  try {
    const { run, results, byId } = await runSuite({ ...sandbox.config, baseUrl: proxy.baseUrl }, { operations, profile });
    return { results, byId, run, violations: [...sandbox.handle.violations] };
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

export function failures(results: RunResult[]): string[] {
  return results.filter((r) => r.state === 'failed').map((r) => `${checkId(r)}: ${r.message}`);
}

/** What a run decided per check: its state, and a skip's reason (the verdicts and skips two runs are compared by). */
export function verdicts(results: RunResult[]): Record<string, string> {
  return Object.fromEntries(results.map((r) => [checkId(r), r.state === 'skipped' ? `skipped: ${r.message}` : r.state]));
}
