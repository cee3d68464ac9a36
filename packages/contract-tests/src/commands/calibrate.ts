// videogen-contract calibrate: observe a target and write its twin (src/calibrate/); --plan first;
// --from FILE… reads recorded traffic too (or alone); --diff OLD NEW says what changed between two
// calibrations. Exit codes: 0 written (for --diff: no change), 1 a change (--diff), 2 a usage or setup error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { builtinTwin, isBuiltinTwin, readTwin, type Twin } from '@videogen/openapi/twin';
import { BEHAVIOUR_KEYS } from '@videogen/openapi/twin';
import { diffTwins, formatDiff } from '../calibrate/diff.ts';
import {
  forCalibration,
  calibrationCatalogue,
  isSetupFailure,
  observe,
  type Observation,
} from '../calibrate/observe.ts';
import { formatCalibrationPlan } from '../calibrate/plan.ts';
import { emptyRecords } from '../calibrate/probes.ts';
import { defaultName, twinOf, unobservedReason } from '../calibrate/twin.ts';
import { behaviourName, valueWords } from '../calibrate/words.ts';
import { version } from '../cli/version.ts';
import { externalTarget, settingsFrom, UsageError, type OptionValues, type Settings } from '../cli/target.ts';
import { redact } from '../engine/redact.ts';
import { select } from '../engine/selection.ts';
import type { Profile } from '../shapes.ts';
import { checkTarget } from './preflight.ts';
import { LATENCY_NOISE_OPTION, latencyNoiseOf } from './latency-noise.ts';
import type { Io } from './run.ts';

/** The credit budget of a calibration unless told otherwise. */
export const DEFAULT_CALIBRATION_BUDGET = 10;
/** Where the twin goes unless told otherwise. */
export const DEFAULT_TWIN_FILE = 'twin.json';

export const CALIBRATE_OPTIONS = {
  out: { type: 'string' },
  from: { type: 'string', multiple: true },
  base: { type: 'string' },
  name: { type: 'string' },
  diff: { type: 'boolean' },
  ...LATENCY_NOISE_OPTION,
  json: { type: 'boolean' },
  plan: { type: 'boolean' },
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

export const CALIBRATE_USAGE = `usage: videogen-contract calibrate [options]              observe the target and write its twin (default twin.json)
       videogen-contract calibrate --plan [options]       requests, credits, least wall time and what stays unobserved; only the preflight sent
       videogen-contract calibrate --from FILE… [options] refine from recorded traffic too (alone when no URL is set)
       videogen-contract calibrate --diff OLD NEW [--json] [--latency-noise MS]
                                                          what changed on the target between two calibrations (exit 1 when something did)

A twin says how the target answers wherever the interface is silent; \`videogen-sandbox --twin FILE\` and
\`createSandbox({ twin })\` answer like it. Calibration sends what the contract suite's scenarios send
(generated requests off) and probes for the rest (the limiter of each class, encodings, downloads,
durations), paced as every run is, after the preflight.

  --out FILE           where the twin goes (default ${DEFAULT_TWIN_FILE})
  --profile NAME       CONTRACT_PROFILE        full (default): generations and conversions within the budget, their durations
                                               no-credit: no credit; the limiter probes and the refusals of POST requests
                                               read-only: GET requests only, no burst; the rest stays unobserved (and says so)
  --budget N           CONTRACT_CREDIT_BUDGET  at most N credits (default ${DEFAULT_CALIBRATION_BUDGET})
  --from FILE          recorded traffic: the pacing proxy's HAR, any HAR 1.2, a failure bundle, JSON lines (repeatable)
  --base FILE|NAME     the twin whose values stand where nothing is observed (default: the built-in default; an
                       earlier calibration keeps what it observed, marked as not observed again)
  --name NAME          the twin's name (default HOST@YYYY-MM-DD)
  --base-url URL       VIDEO_API_BASE_URL      the API, including /v1
  --time-scale N       CONTRACT_TIME_SCALE     the target runs N times faster (a sandbox's --time-scale; learned from RateLimit-Policy)
  --timeout, --body-timeout, --body-deadline   as for a run (videogen-contract --help)
  --every-combination                          generate every valid combination (durations of each: more credits)
  --latency-noise MS   CONTRACT_LATENCY_NOISE  --diff: real ms of a round trip that are the measurement's, not the target's,
                                               as compare reads them (default 3; at least twice the calibrations' own round trip)
Keys from the environment only, never printed: VIDEO_API_KEY (VIDEO_API_OTHER_ACCOUNT_KEY and the others as for a run).
Exit: 0 the twin was written (--diff: no change), 1 --diff found a change, 2 a usage or setup error.
`;

const stdio: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** The twin that stands where nothing is observed: a built-in by name, or a file. */
export function baseTwin(base: string | undefined): Twin {
  if (base === undefined) return builtinTwin('default');
  return isBuiltinTwin(base) ? builtinTwin(base) : readTwin(base);
}

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

const duration = (ms: number) =>
  ms < 120_000
    ? `${Math.round(ms / 100) / 10} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** What a calibration observed and left out, in lines. */
export function formatCalibration(
  o: Observation,
  file: string,
  name: string,
  unobserved: Array<[string, string]>,
): string {
  const found = o.findings.found;
  const lines = [
    `Calibrated ${o.baseUrl} (${o.profile === 'recorded' ? 'recorded traffic only' : `profile ${o.profile}`}${o.timeScale !== 1 ? `, time scale ${o.timeScale}` : ''}): ${found.size} of ${BEHAVIOUR_KEYS.length} behaviours observed, ${unobserved.length} not.`,
  ];
  for (const key of BEHAVIOUR_KEYS) {
    const f = found.get(key);
    if (f)
      lines.push(
        `  ${behaviourName(key).padEnd(44)} ${valueWords(key, f.value)}${f.samples && f.samples > 1 ? `  (${f.samples})` : ''}`,
      );
  }
  if (unobserved.length) {
    lines.push('Not observed (the base twin\'s values stand, each marked "not observed" with the reason):');
    for (const [key, why] of unobserved) lines.push(`  ${key}: ${why}`);
  }
  const contract = o.results ?? [];
  const failed = contract.filter((r) => r.state === 'failed' && !r.name.startsWith('calibrate_'));
  if (failed.length)
    lines.push(
      `The target breaks the interface in ${failed.length} check${failed.length === 1 ? '' : 's'} (${failed
        .slice(0, 5)
        .map((r) => `${r.operation}.${r.name}`)
        .join(
          ', ',
        )}${failed.length > 5 ? ', …' : ''}): videogen-contract shows why; the twin holds only what the interface leaves open.`,
    );
  lines.push(
    `Spent ${o.creditsSpent} credit${o.creditsSpent === 1 ? '' : 's'}, ${o.requests} requests, ${duration(o.wallMs)}${o.sources.length ? ` (sources: ${o.sources.join(', ')})` : ''}. Wrote ${file} (${name}).`,
  );
  return `${lines.join('\n')}\n`;
}

async function diff(files: string[], json: boolean, latencyNoiseMs: number | undefined, io: Io): Promise<number> {
  if (files.length !== 2) throw new UsageError('--diff takes two twin files: OLD NEW');
  const d = diffTwins(baseTwin(files[0]), baseTwin(files[1]), { latencyNoiseMs });
  io.out(json ? `${JSON.stringify(d, null, 2)}\n` : formatDiff(d));
  return d.changes.some((c) => c.kind === 'changed') ? 1 : 0;
}

function settingsOf(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Settings & { profile: Profile; budget: number } {
  const s = settingsFrom(values as OptionValues, env);
  return { ...s, profile: s.profile ?? 'full', budget: s.budget ?? DEFAULT_CALIBRATION_BUDGET };
}

export async function calibrateCommand(
  argv: string[],
  io: Io = stdio,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: CALIBRATE_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (values.help) return (io.out(CALIBRATE_USAGE), 0);
    if (values.diff)
      return await diff(positionals, Boolean(values.json), latencyNoiseOf(values['latency-noise'], env), io);
    if (values['latency-noise'] !== undefined)
      throw new UsageError('--latency-noise is read by --diff (and by compare), not by a calibration');
    if (positionals.length)
      throw new UsageError(
        `calibrate takes no argument ${positionals[0]} (--from FILE for a recording, --diff OLD NEW for two twins)`,
      );
    const s = settingsOf(values, env);
    const base = baseTwin(values.base);
    const from = values.from ?? [];
    const config = s.baseUrl ? externalTarget(s, env) : undefined;
    if (!config && !from.length)
      throw new UsageError(
        'no target: set VIDEO_API_BASE_URL (or --base-url), or give recorded traffic with --from FILE',
      );
    if (values.plan) {
      if (!config) throw new UsageError('--plan needs a target: set VIDEO_API_BASE_URL');
      const checked = await checkTarget(config, {
        timeScaleGiven: s.timeScale !== undefined,
        urlSource: s.named.baseUrl,
      });
      const target = forCalibration(checked.config, s.profile);
      const selection = select(calibrationCatalogue(target, emptyRecords()), target, s.profile, s.budget);
      io.out(formatCalibrationPlan(selection, target, checked.result));
      if (checked.result.ok) return 0;
      io.err(`videogen-contract: ${redact(checked.result.message)}\n`);
      return 2;
    }
    const o = await observe(config, {
      profile: s.profile,
      budget: s.budget,
      from,
      timeScaleGiven: s.timeScale !== undefined,
      urlSource: s.named.baseUrl,
      progress: (line) => io.err(`${line}\n`),
    });
    if (isSetupFailure(o)) {
      io.err(`videogen-contract: ${o.setupError}\n`);
      return 2;
    }
    const file = values.out ?? DEFAULT_TWIN_FILE;
    const name = values.name ?? defaultName(o.baseUrl);
    const twin = twinOf(o.findings, base, {
      name,
      baseUrl: o.baseUrl,
      createdBy: `videogen-contract calibrate ${version()}`,
      profile: o.profile,
      creditsSpent: o.creditsSpent,
      requests: o.requests,
      wallSeconds: o.wallMs / 1000,
      sources: o.sources,
      timeScale: o.timeScale,
      ...(o.roundTrip && { localRoundTrip: o.roundTrip }),
    });
    write(file, `${redact(JSON.stringify(twin, null, 2))}\n`);
    const unobserved = (twin.calibration?.unobserved ?? []).map((k): [string, string] => [
      k,
      unobservedReason(
        k as (typeof BEHAVIOUR_KEYS)[number],
        o.findings.missing.get(k as (typeof BEHAVIOUR_KEYS)[number]) ?? 'nothing sent showed it',
        o.profile,
      ),
    ]);
    io.out(formatCalibration(o, file, name, unobserved));
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(
      `videogen-contract calibrate: ${redact((err as Error).message)}${usage ? '\n(videogen-contract calibrate --help lists every option)' : ''}\n`,
    );
    return 2;
  }
}
