// videogen-contract: the contract suite from a terminal. Parses the command line (node:util parseArgs),
// resolves options against their environment variables, and runs one command: a run (default), --plan,
// --seed-fixtures, --replay, --har, or the `proxy` subcommand. Exit codes: 0 passed, 1 an interface failure (or
// a decision mismatch when strict; a reproduced failure for --replay), 2 a usage or setup error.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BODY_LIMITS } from '@videogen/openapi/rules';
import { redact } from '../engine/redact.ts';
import { formatPlans, plans } from '../commands/plan.ts';
import { checkTraffic, formatTraffic, readTraffic } from '../commands/har.ts';
import { formatReplay, readBundle, replay } from '../commands/replay.ts';
import { runContract, type Io } from '../commands/run.ts';
import { checkTarget } from '../commands/preflight.ts';
import { seed } from '../commands/seed.ts';
import { launchTarget, loadSandbox, SANDBOX_TIME_SCALE, sandboxTarget, startSandboxTarget } from './launch.ts';
import { externalTarget, settingsFrom, UsageError, type OptionValues } from './target.ts';

const OPTIONS = {
  'base-url': { type: 'string' },
  profile: { type: 'string' },
  'target-kind': { type: 'string' },
  'time-scale': { type: 'string' },
  timeout: { type: 'string' },
  'body-timeout': { type: 'string' },
  'body-deadline': { type: 'string' },
  'allow-http': { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  'no-strict': { type: 'boolean' },
  budget: { type: 'string' },
  'every-combination': { type: 'boolean' },
  only: { type: 'string', multiple: true },
  junit: { type: 'string' },
  summary: { type: 'string' },
  drift: { type: 'string' },
  failures: { type: 'string' },
  fixtures: { type: 'string' },
  plan: { type: 'boolean' },
  'seed-fixtures': { type: 'boolean' },
  seed: { type: 'string' },
  examples: { type: 'string' },
  'max-time': { type: 'string' },
  keyless: { type: 'boolean' },
  html: { type: 'string' },
  replay: { type: 'string' },
  target: { type: 'string' },
  har: { type: 'string' },
  prism: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies ParseArgsConfig['options'];

export const USAGE = `usage: videogen-contract [options] [CHECK…]      run the contract suite
       videogen-contract --plan [options]         requests, credits and floor wall time per profile; nothing sent
       videogen-contract --seed-fixtures --profile full   create a completed video and a conversion once (2 credits), for later runs
       videogen-contract --replay FILE [--target sandbox]   re-send a failure bundle and say whether it reproduces
       videogen-contract --har FILE               check recorded traffic (HAR 1.2 or JSON lines) offline; nothing sent
       videogen-contract proxy …                  a pacing proxy for any tool (videogen-contract proxy --help)

Target (an option wins over its environment variable):
  --base-url URL           VIDEO_API_BASE_URL      the API, including /v1; none: the embedded sandbox is started
  --target-kind KIND       CONTRACT_TARGET_KIND    external (default) | sandbox | prism (a stateless mock)
  --profile NAME           CONTRACT_PROFILE        read-only (default against a URL): GET only, no credit
                                                   no-credit: also the requests the interface says are refused;
                                                     stops at the first one accepted (at most 1 credit)
                                                   full (default against the sandbox): generations, conversions,
                                                     bursts (5 credits against a conforming service)
  --budget N               CONTRACT_CREDIT_BUDGET  spend at most N credits; what does not fit is skipped, cheapest coverage first
  --every-combination      CONTRACT_EVERY_COMBINATION=1  generate every valid field combination (a full run: 8 credits instead of 5)
  --time-scale N           CONTRACT_TIME_SCALE     the target runs N times faster than real time (sandbox --time-scale)
  --timeout SECONDS        CONTRACT_TIMEOUT        wait this long for an answer's headers (default 60)
  --body-timeout SECONDS   CONTRACT_BODY_TIMEOUT   an answer's body stalls when less than 1 KiB arrives in this long (default ${BODY_LIMITS.idleMs / 1000})
  --body-deadline SECONDS  CONTRACT_BODY_DEADLINE  an answer's whole body within this long of its headers (default ${BODY_LIMITS.totalMs / 1000}; at most ${BODY_LIMITS.maxBytes / 2 ** 20} MiB)
  --allow-http HOST        VIDEO_API_ALLOW_HTTP=a,b  plain http to this host too (default: https, http only on loopback:
                                                   the keys would cross the network in the clear); .lab.example: every
                                                   host under it, *: any
  --strict | --no-strict   CONTRACT_STRICT=1|0     decision mismatches fail the run too (default: only against the sandbox)
  --prism                                          start the Prism mock and run against it (workspace only: needs @stoplight/prism-cli)
  CHECK… / --only CHECK    CONTRACT_ONLY=a,b       judge only these: an operation, a check, or operation.check
Generated requests (fast-check, from the document's schemas; GET only in read-only; paced; no credit
unless --budget leaves some):
  --examples N             CONTRACT_EXAMPLES       generated requests per operation (default 10; 0: none)
  --max-time SECONDS       CONTRACT_MAX_TIME       the most wall time they take, all together (default 120)
  --seed N                 CONTRACT_SEED           reproduce the generated requests of a run (the summary prints its seed)
Keys (environment only, never printed); a key the target rejects ends it before any check (exit 2):
  VIDEO_API_KEY, VIDEO_API_OTHER_ACCOUNT_KEY (isolation checks), CONTRACT_FREE_PLAN_KEY, CONTRACT_NO_CREDIT_KEY
  --keyless                CONTRACT_KEYLESS=1      no VIDEO_API_KEY on purpose: only the checks that need none (authentication)
Fixtures: CONTRACT_*_ID variables (see the README); discovered on the target when unset.
Reports (defaults under ./test-results/):
  --junit FILE             CONTRACT_JUNIT_FILE     JUnit XML (junit.xml)
  --summary FILE           CONTRACT_SUMMARY_FILE   the summary (summary.txt, and summary.json beside it)
  --drift FILE             CONTRACT_DRIFT_FILE     the drift report (drift.md, and drift.json beside it)
  --failures DIR           CONTRACT_FAILURES_DIR   failure bundles for --replay (failures/)
  --fixtures FILE          CONTRACT_FIXTURES_FILE  what --seed-fixtures wrote and later runs read (fixtures.json)
  --html FILE              CONTRACT_HTML_FILE      the HTML report: coverage matrix, failures, drift (report.html)
  -h, --help    -v, --version
Exit: 0 passed, 1 an interface failure (or a mismatch when strict; a reproduced failure for --replay),
      2 a usage or setup error (no key, a key the target rejects, a URL that is not reachable or not the API).
`;

function version(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === '@videogen/contract-tests') return pkg.version;
    }
  }
  return 'unknown';
}

/**
 * `videogen-contract proxy …`: the pacing proxy (src/proxy/, its own module). Loaded only when asked,
 * from the build (dist/proxy/index.js) or the sources (src/proxy/index.ts).
 */
async function proxy(argv: string[], io: Io): Promise<number> {
  for (const rel of ['./proxy/index.js', '../proxy/index.ts']) {
    const url = new URL(rel, import.meta.url);
    if (!existsSync(fileURLToPath(url))) continue;
    const m = (await import(url.href)) as { proxyCommand?: (argv: string[]) => Promise<number> };
    if (typeof m.proxyCommand === 'function') return m.proxyCommand(argv);
  }
  io.err('proxy: not available in this build\n');
  return 2;
}

const stdio: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** Runs the command line `argv` (without node and the script); returns the exit code. */
export async function main(argv: string[], io: Io = stdio, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'proxy') return proxy(argv.slice(1), io);
  try {
    // --seed was the fixtures command before it took the generation seed: say so rather than "argument missing".
    const at = argv.indexOf('--seed');
    if (at >= 0 && (at === argv.length - 1 || argv[at + 1].startsWith('-')))
      throw new UsageError(
        '--seed takes a number (the seed of the generated requests); to create fixtures use --seed-fixtures --profile full',
      );
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (values.help) return (io.out(USAGE), 0);
    if (values.version) return (io.out(`${version()}\n`), 0);
    const s = settingsFrom({ ...(values as OptionValues), only: [...(values.only ?? []), ...positionals] }, env);
    if (values.har) {
      const { source, exchanges } = readTraffic(values.har);
      const report = checkTraffic(source, exchanges);
      io.out(formatTraffic(report, values.har));
      return report.interfaceProblems > 0 || (s.strict && report.decisionProblems > 0) ? 1 : 0;
    }
    if (values.plan) {
      // The target as a run would see it: the sandbox a run would start is not started; a URL gets the
      // run's preflight (one GET per key, no credit), which also reads the pace its limits run at.
      if (!s.baseUrl) {
        const target = sandboxTarget(
          '(sandbox started for the run)',
          await loadSandbox(),
          s.timeScale ?? SANDBOX_TIME_SCALE,
          s,
        );
        io.out(formatPlans(plans(target, s.budget), target));
        return 0;
      }
      const checked = await checkTarget(externalTarget(s, env), {
        keyless: s.keyless,
        timeScaleGiven: s.timeScale !== undefined,
        urlSource: s.named.baseUrl,
      });
      const target = checked.config;
      io.out(formatPlans(plans(target, s.budget), target, checked.result));
      if (checked.result.ok) return 0;
      io.err(`videogen-contract: ${redact(checked.result.message)}\n`);
      return 2;
    }
    if (values['seed-fixtures']) {
      await seed(externalTarget(s, env), s.fixturesFile, io.out);
      return 0;
    }
    if (values.replay) {
      const bundle = readBundle(values.replay);
      if (values.target && values.target !== 'sandbox')
        throw new UsageError('--target takes "sandbox" (else set VIDEO_API_BASE_URL)');
      const launched = values.target === 'sandbox' ? await startSandboxTarget() : await launchTarget(s);
      try {
        const r = await replay(bundle, launched.config);
        io.out(formatReplay(r, launched.config.baseUrl));
        return r.reproduced || r.problems > 0 ? 1 : 0;
      } finally {
        await launched.close();
      }
    }
    const launched = await launchTarget(s, { prism: values.prism });
    try {
      return (await runContract(launched.config, s, io)).exitCode;
    } finally {
      await launched.close();
    }
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(
      `videogen-contract: ${redact((err as Error).message)}${usage ? '\n(videogen-contract --help lists every option)' : ''}\n`,
    );
    return 2;
  }
}
