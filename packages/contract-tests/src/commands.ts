// The suite's commands that are not a live run: --replay FILE and --har FILE (bin/contract.mjs).
import { readBundle, replay, formatReplay } from './replay.ts';
import { readTraffic, checkTraffic, formatTraffic } from './har.ts';
import { launchTarget, startSandboxTarget, sandboxTarget, SANDBOX_TIME_SCALE } from './launch.ts';
import { targetFromEnv } from './target.ts';
import { allChecks } from './checks/index.ts';
import { plan, formatPlans } from './plan.ts';
import { seed } from './seed.ts';
import { fixturesFileFromEnv } from './target.ts';

function valueOf(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (!v || v.startsWith('--')) throw new Error(`${flag} needs a value`);
  return v;
}

/** Runs the command in `args`; returns the exit code (1: the failure reproduces / traffic breaks the interface). */
export async function runCommand(args: string[], out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  if (args.includes('--plan')) {
    // The target as a run would see it, without starting or calling it.
    const target = process.env.VIDEO_API_BASE_URL
      ? targetFromEnv()
      : sandboxTarget('(sandbox started for the run)', (await import('@videogen/sandbox')) as any, Number(process.env.CONTRACT_TIME_SCALE ?? SANDBOX_TIME_SCALE) || SANDBOX_TIME_SCALE);
    const budget = process.env.CONTRACT_CREDIT_BUDGET ? Number(process.env.CONTRACT_CREDIT_BUDGET) : undefined;
    out(formatPlans((['read-only', 'full'] as const).map((p) => plan(allChecks(), target, p, budget)), target));
    return 0;
  }
  if (args.includes('--seed')) {
    // Against VIDEO_API_BASE_URL (it must be told CONTRACT_PROFILE=full: it spends credits).
    await seed(targetFromEnv(), fixturesFileFromEnv(), out);
    return 0;
  }
  const har = valueOf(args, '--har');
  if (har) {
    const { source, exchanges } = readTraffic(har);
    const report = checkTraffic(source, exchanges);
    out(formatTraffic(report, har));
    const strict = process.env.CONTRACT_STRICT === '1';
    return report.interfaceProblems > 0 || (strict && report.decisionProblems > 0) ? 1 : 0;
  }
  const file = valueOf(args, '--replay');
  if (file) {
    const bundle = readBundle(file);
    const target = valueOf(args, '--target');
    if (target && target !== 'sandbox') throw new Error('--target takes "sandbox" (else set VIDEO_API_BASE_URL)');
    const launched = target === 'sandbox' ? await startSandboxTarget() : await launchTarget();
    try {
      const r = await replay(bundle, launched.config);
      out(formatReplay(r, launched.config.baseUrl));
      return r.reproduced || r.problems > 0 ? 1 : 0;
    } finally {
      await launched.close();
    }
  }
  throw new Error('no command: --replay FILE or --har FILE');
}
