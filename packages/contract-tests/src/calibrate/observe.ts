// One observation of a target: the preflight, then what the suite's scenarios send (its catalogue, in
// the chosen profile, within the credit budget; generated requests off) plus the calibration probes,
// paced as every run is; then every behaviour read from the exchanges, and from recorded traffic when
// given. Calibrate writes a twin from it; compare makes two (the target's and the twin's) and sets
// them side by side.
import { basename } from 'node:path';
import { loadSpec } from '@videogen/openapi';
import type { RateClass } from '@videogen/openapi/rules';
import type { BehaviourKey } from '@videogen/openapi/twin';
import { catalogue } from '../checks/index.ts';
import { checkTarget } from '../commands/preflight.ts';
import { checkId } from '../engine/catalogue.ts';
import { redact } from '../engine/redact.ts';
import { learnsTimeScale, pacerFor, Run } from '../engine/run.ts';
import { runCatalogue, type RunResult } from '../engine/runner.ts';
import { select, type Selection } from '../engine/selection.ts';
import type { PreflightResult } from '../preflight.ts';
import type { Profile, TargetConfig } from '../shapes.ts';
import { extract, type Findings, type Finding } from './extract.ts';
import { limiterFindings } from './limits.ts';
import { calibrationChecks, emptyRecords, watchVideos, type ProbeRecords } from './probes.ts';
import { localRoundTrip, type RoundTrip } from './round-trip.ts';
import { baseUrlOf, readRecorded } from './recorded.ts';
import { fromExchange, type Seen } from './seen.ts';

/** The calibration's own probes, and the behaviours each one's skip explains. */
const PROBE_KEYS: Record<string, RegExp> = {
  calibrate_encoding: /^encoding\.api$/,
  calibrate_download: /^download\./,
  calibrate_limiter_A: /^rate_limit\.A\./,
  calibrate_limiter_B: /^rate_limit\.B\./,
  calibrate_empty_text: /^refusal\.empty_text$/,
  calibrate_durations: /^duration\.generation\./,
};

export interface ObserveOptions {
  profile: Profile;
  budget?: number;
  /** Recorded traffic to read too (HAR 1.2, failure bundles, JSON lines). */
  from?: string[];
  /** Given by the user (--time-scale): it wins over what the target states. */
  timeScaleGiven?: boolean;
  keyless?: boolean;
  urlSource?: string;
  /** A progress line per check (stderr). */
  progress?: (line: string) => void;
}

export interface Observation {
  baseUrl: string;
  timeScale: number;
  /** `recorded` when only recordings were read. */
  profile: Profile | 'recorded';
  seen: Seen[];
  findings: Findings;
  /** Answers the target gave per behaviour, for evidence and for compare. */
  records?: ProbeRecords;
  results?: RunResult[];
  selection?: Selection;
  creditsSpent: number;
  requests: number;
  startedAt: number;
  wallMs: number;
  sources: string[];
  preflight?: PreflightResult;
  /** This machine's own round trip to an empty local server, measured before and after (real ms): subtracted from latencies. */
  roundTrip?: RoundTrip;
}

export interface SetupFailure {
  setupError: string;
  preflight?: PreflightResult;
}

/**
 * The catalogue of a calibration: the probes that spend no credit, the suite's checks, then the probes
 * that spend (within what the budget leaves).
 */
export function calibrationCatalogue(config: TargetConfig, records: ProbeRecords) {
  const cat = catalogue(config);
  const probes = calibrationChecks(config, records);
  return { ...cat, checks: [...probes.first, ...cat.checks, ...probes.last] };
}

/** A target prepared for calibration: its profile, no generated requests (calibration sends what the scenarios send). */
export const forCalibration = (config: TargetConfig, profile: Profile): TargetConfig => {
  const { generation: _generated, ...rest } = config;
  return { ...rest, profile };
};

export async function observe(
  config: TargetConfig | undefined,
  o: ObserveOptions,
): Promise<Observation | SetupFailure> {
  const startedAt = Date.now();
  const spec = loadSpec();
  const seen: Seen[] = [];
  const sources: string[] = [];
  let live:
    | { run: Run; results: RunResult[]; records: ProbeRecords; selection: Selection; preflight: PreflightResult }
    | undefined;
  let timeScale = config?.timeScale ?? 1;
  const roundTrips: number[] = [];
  let baseUrl = config?.baseUrl;
  if (config) {
    const pacer = pacerFor(config, learnsTimeScale(config, o.timeScaleGiven === true) ? 'learn' : config.timeScale);
    const checked = await checkTarget(config, {
      keyless: o.keyless,
      timeScaleGiven: o.timeScaleGiven,
      urlSource: o.urlSource,
      pacer,
    });
    if (!checked.result.ok) {
      await pacer.close();
      return { setupError: redact(checked.result.message), preflight: checked.result };
    }
    const target = forCalibration(checked.config, o.profile);
    timeScale = target.timeScale;
    baseUrl = target.baseUrl;
    const records = emptyRecords();
    const cat = calibrationCatalogue(target, records);
    const selection = select(cat, target, o.profile, o.budget);
    const run = new Run(target, pacer);
    const width = String(selection.checks.length).length;
    roundTrips.push(...(await localRoundTrip()));
    const watch = watchVideos(run, records);
    const results = await runCatalogue(run, cat, selection, {
      onResult: (r, i, n) =>
        o.progress?.(
          `[${String(i + 1).padStart(width)}/${n}] ${r.state.padEnd(7)} ${checkId(r)}${r.state === 'skipped' && r.message ? ` — ${r.message.split('\n')[0]}` : ''}`,
        ),
    });
    await watch.stop();
    roundTrips.push(...(await localRoundTrip()));
    await run.close();
    live = { run, results, records, selection, preflight: checked.result };
    seen.push(...run.exchanges.map((ex) => fromExchange(ex, records.tagged.get(ex))), ...records.outside);
    sources.push('live');
  }
  for (const file of o.from ?? []) {
    seen.push(...(await readRecorded(file, spec, baseUrl)));
    sources.push(basename(file));
  }
  baseUrl ??= baseUrlOf(seen, spec);
  if (!baseUrl)
    return { setupError: 'no target: the recordings hold no request of the API, and no VIDEO_API_BASE_URL was given' };
  const roundTrip = summarise(roundTrips);
  const findings = extract(seen, {
    baseUrl,
    timeScale,
    spec,
    localRoundTripMs: roundTrip?.p50,
    transients: live?.run.transients.map((t) => ({ status: t.status, errorCode: t.errorCode, detail: t.detail })),
  });
  const add = (key: BehaviourKey, f: Finding | string) => {
    if (typeof f === 'string') {
      if (!findings.found.has(key)) findings.missing.set(key, f);
    } else {
      findings.found.set(key, f);
      findings.missing.delete(key);
    }
  };
  for (const cls of ['A', 'B'] as RateClass[]) limiterFindings(cls, live?.records.limiter[cls], seen, timeScale, add);
  // A behaviour whose probe did not run: the probe's reason says why (its profile, its fixture).
  for (const r of live?.results ?? []) {
    const keys = PROBE_KEYS[r.name];
    if (!keys || r.state !== 'skipped' || !r.message) continue;
    for (const key of findings.missing.keys()) if (keys.test(key)) findings.missing.set(key, r.message);
  }
  return {
    baseUrl,
    timeScale,
    profile: live ? o.profile : 'recorded',
    seen,
    findings,
    ...(live && { records: live.records, results: live.results, selection: live.selection, preflight: live.preflight }),
    creditsSpent: live?.run.creditsSpent ?? 0,
    requests: live?.run.exchanges.length ?? 0,
    startedAt,
    wallMs: Date.now() - startedAt,
    sources,
    ...(roundTrip && { roundTrip }),
  };
}

function summarise(ms: number[]): RoundTrip | undefined {
  if (!ms.length) return undefined;
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), samples: sorted.length };
}

export const isSetupFailure = (o: Observation | SetupFailure): o is SetupFailure => 'setupError' in o;
