// Runs the catalogue in-process against a fresh sandbox behind a (breaking) proxy, as the CLI would.
import { startSandboxTarget } from '../src/cli/launch.ts';
import { catalogue } from '../src/checks/index.ts';
import { checkId, type Check } from '../src/engine/catalogue.ts';
import type { Pacer } from '@videogen/openapi/rules';
import { Run } from '../src/engine/run.ts';
import { runCatalogue, type RunResult } from '../src/engine/runner.ts';
import { select } from '../src/engine/selection.ts';
import type { GenerationSettings, Profile, TargetConfig } from '../src/shapes.ts';
import { startBreakingProxy, type Break } from './breaking-proxy.ts';

export const SELF_TEST_TIME_SCALE = 100;

/** Generated requests as a run takes them by default (--examples 10), with a seed of the test's own. */
export const generation = (seed = 1, examples = 10): GenerationSettings => ({
  examples,
  maxTimeMs: 120_000,
  seed,
  seedGiven: true,
});

/** Runs the catalogue for `config` (filtered to `operations`), as `videogen-contract` does, in this process. */
export async function runSuite(
  config: TargetConfig,
  opts: {
    operations?: string[];
    budget?: number;
    profile?: Profile;
    checks?: (c: Check) => boolean;
    /** The run's pacer (default: paced at the config's time scale, as the command line's --time-scale). */
    pacer?: Pacer;
  } = {},
) {
  const cat = catalogue(config);
  const selection = select(cat, config, opts.profile ?? config.profile, opts.budget);
  if (opts.operations) selection.checks = selection.checks.filter((c) => opts.operations!.includes(c.check.operation));
  if (opts.checks) selection.checks = selection.checks.filter((c) => opts.checks!(c.check));
  // Counted, so that a test can assert the burst was sent with the sandbox's time held (TargetConfig.holdTime).
  let bursts = 0;
  const { holdTime } = config;
  const target = holdTime ? { ...config, holdTime: () => (bursts++, holdTime()) } : config;
  const run = new Run({ ...target, profile: opts.profile ?? config.profile }, opts.pacer);
  const results = await runCatalogue(run, cat, selection);
  return { run, results, selection, byId: new Map(results.map((r) => [checkId(r), r])), bursts };
}

export async function runAgainstProxy(
  make: (t: TargetConfig) => Break,
  operations?: string[],
  sandboxOptions: Record<string, unknown> = {},
  profile?: Profile,
  /** The sandbox's time runs during the burst (no holdTime): for a break that waits upstream for it to pass. */
  {
    burstInRealTime = false,
    generation,
    limits,
  }: { burstInRealTime?: boolean; generation?: GenerationSettings; limits?: TargetConfig['limits'] } = {},
): Promise<{ results: RunResult[]; byId: Map<string, RunResult>; run: Run; violations: string[]; bursts: number }> {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, sandboxOptions);
  const proxy = await startBreakingProxy(sandbox.handle.origin, make(sandbox.config));
  try {
    const target = {
      ...sandbox.config,
      baseUrl: proxy.baseUrl,
      holdTime: burstInRealTime ? undefined : sandbox.config.holdTime,
      ...(generation && { generation }),
      ...(limits && { limits }),
    };
    const { run, results, byId, bursts } = await runSuite(target, { operations, profile });
    return { results, byId, run, violations: [...sandbox.handle.violations], bursts };
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
  return Object.fromEntries(
    results.map((r) => [checkId(r), r.state === 'skipped' ? `skipped: ${r.message}` : r.state]),
  );
}
