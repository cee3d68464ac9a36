// videogen-contract compare --twin FILE: the target and a sandbox started from the twin, observed side by
// side (src/calibrate/compare.ts); the report on the terminal, as JSON and as HTML. Exit codes: 0 the twin
// behaves as the target in everything compared, 1 something differs, 2 a usage or setup error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isBuiltinTwin } from '@videogen/openapi/twin';
import { compareWithTwin } from '../calibrate/compare.ts';
import { comparisonHtml, comparisonJson, formatComparison } from '../calibrate/compare-report.ts';
import { externalTarget, settingsFrom, UsageError, type OptionValues } from '../cli/target.ts';
import { redact } from '../engine/redact.ts';
import { baseTwin, DEFAULT_CALIBRATION_BUDGET } from './calibrate.ts';
import { LATENCY_NOISE_OPTION, latencyNoiseOf } from './latency-noise.ts';
import type { Io } from './run.ts';

export const COMPARE_OPTIONS = {
  twin: { type: 'string' },
  json: { type: 'string' },
  html: { type: 'string' },
  ...LATENCY_NOISE_OPTION,
  'base-url': { type: 'string' },
  profile: { type: 'string' },
  budget: { type: 'string' },
  'time-scale': { type: 'string' },
  timeout: { type: 'string' },
  'body-timeout': { type: 'string' },
  'body-deadline': { type: 'string' },
  'every-combination': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export const COMPARE_USAGE = `usage: videogen-contract compare --twin FILE|default|alternative [options]

A differential run: the contract suite's scenarios and the calibration probes go to the target
(VIDEO_API_BASE_URL) and to a sandbox started from the twin (createSandbox({ twin }) of @videogen/sandbox, at
the target's time scale), both observed alike; every behaviour that differs is listed with both answers
and the tolerance used for what is measured. Credits are spent on the target as a calibration spends them.

  --twin FILE|NAME      the twin (a file, or a built-in: default, alternative)
  --profile NAME        CONTRACT_PROFILE        full (default), no-credit (no credit), read-only (GET only)
  --budget N            CONTRACT_CREDIT_BUDGET  at most N credits on the target (default ${DEFAULT_CALIBRATION_BUDGET})
  --json FILE           the comparison as JSON (default test-results/compare.json)
  --html FILE           the comparison as HTML, beside the contract report (default test-results/compare.html)
  --latency-noise MS    CONTRACT_LATENCY_NOISE  real ms of a round trip that are the measurement's, not the target's (default 3)
  --base-url URL        VIDEO_API_BASE_URL      the API, including /v1
  --time-scale N        CONTRACT_TIME_SCALE     the target runs N times faster (learned from RateLimit-Policy)
  --timeout, --body-timeout, --body-deadline, --every-combination   as for calibrate
Exit: 0 the twin behaves as the target in everything compared, 1 something differs, 2 a usage or setup error.
`;

const stdio: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

export async function compareCommand(
  argv: string[],
  io: Io = stdio,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: COMPARE_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (values.help) return (io.out(COMPARE_USAGE), 0);
    if (positionals.length) throw new UsageError(`compare takes no argument ${positionals[0]}`);
    if (!values.twin) throw new UsageError('--twin FILE is required (a twin file, or default / alternative)');
    const twin = baseTwin(values.twin);
    const s = settingsFrom(values as OptionValues, env);
    const config = externalTarget(s, env);
    const noise = latencyNoiseOf(values['latency-noise'], env);
    const c = await compareWithTwin(
      config,
      twin,
      isBuiltinTwin(values.twin) ? `built-in ${values.twin}` : values.twin,
      {
        profile: s.profile ?? 'full',
        budget: s.budget ?? DEFAULT_CALIBRATION_BUDGET,
        timeScaleGiven: s.timeScale !== undefined,
        urlSource: s.named.baseUrl,
        latencyNoiseMs: noise,
        progress: (who, line) => io.err(`${who.padEnd(6)} ${line}\n`),
      },
    );
    if ('setupError' in c) {
      io.err(`videogen-contract compare: ${redact(c.setupError)}\n`);
      return 2;
    }
    write(values.json ?? 'test-results/compare.json', `${comparisonJson(c)}\n`);
    write(values.html ?? 'test-results/compare.html', comparisonHtml(c));
    io.out(formatComparison(c));
    return c.differences ? 1 : 0;
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(
      `videogen-contract compare: ${redact((err as Error).message)}${usage ? '\n(videogen-contract compare --help lists every option)' : ''}\n`,
    );
    return 2;
  }
}
