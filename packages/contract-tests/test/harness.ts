// Runs the catalogue in-process against a fresh sandbox behind a (breaking) proxy.
import { startSandboxTarget } from '../src/launch.ts';
import { Run } from '../src/run.ts';
import { allChecks } from '../src/checks/index.ts';
import { runAll, checkId, type CheckResult } from '../src/runner.ts';
import { startBreakingProxy, type Break } from './breaking-proxy.ts';
import type { TargetConfig } from '../src/target.ts';

export const SELF_TEST_TIME_SCALE = 100;

export async function runAgainstProxy(
  make: (t: TargetConfig) => Break,
  operations?: string[],
): Promise<{ results: CheckResult[]; byId: Map<string, CheckResult>; run: Run; violations: string[] }> {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
  const proxy = await startBreakingProxy(sandbox.handle.origin, make(sandbox.config));
  try {
    const run = new Run({ ...sandbox.config, baseUrl: proxy.baseUrl });
    const checks = allChecks().filter((c) => !operations || operations.includes(c.operation));
    const results = await runAll(run, checks);
    return { results, byId: new Map(results.map((r) => [checkId(r), r])), run, violations: [...sandbox.handle.violations] };
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

export function failures(results: CheckResult[]): string[] {
  return results.filter((r) => r.state === 'failed').map((r) => `${checkId(r)}: ${r.message}`);
}
