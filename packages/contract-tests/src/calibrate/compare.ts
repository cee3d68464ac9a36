// `compare --twin FILE`: a differential run. The same scenarios and probes go to the target and to a
// sandbox started from the twin (`@videogen/sandbox`'s createSandbox({ twin }), started here as a target
// only: nothing of its rule code is imported), each observed as calibration observes (observe.ts), at the
// target's time scale and with the same profile and budget, side by side. Every behaviour both show is
// compared (exact, or within the stated tolerance for measured ones); a behaviour the target shows and
// the twin does not is a difference too; the contract checks judged on both sides must reach the same
// verdict. The report lists each difference with both sides' answers.
import type { Twin } from '@videogen/openapi/twin';
import { BEHAVIOUR_KEYS, type BehaviourKey } from '@videogen/openapi/twin';
import type { SandboxOptions } from '@videogen/sandbox';
import { checkId } from '../engine/catalogue.ts';
import { loadSandbox } from '../cli/launch.ts';
import { checkTarget } from '../commands/preflight.ts';
import { registerSecret } from '../engine/redact.ts';
import type { Profile, TargetConfig } from '../shapes.ts';
import type { Finding } from './extract.ts';
import { isSetupFailure, observe, type Observation, type SetupFailure } from './observe.ts';
import { sameBehaviour } from './same.ts';
import type { Seen } from './seen.ts';
import { behaviourName, valueWords } from './words.ts';

export interface Side {
  value?: unknown;
  words: string;
  samples?: number;
  /** Why this side did not show it. */
  unobserved?: string;
  evidence: Seen[];
}

export interface BehaviourComparison {
  key: BehaviourKey;
  name: string;
  /** `differs`, `same`, or `not compared` (the target did not show it). */
  verdict: 'differs' | 'same' | 'not compared';
  target: Side;
  twin: Side;
  tolerance?: string;
}

export interface VerdictComparison {
  check: string;
  target: string;
  twin: string;
}

export interface Comparison {
  target: { baseUrl: string; profile: string; timeScale: number };
  twin: { name: string; source: string; baseUrl: string };
  behaviours: BehaviourComparison[];
  /** Contract checks judged on both sides whose verdicts differ. */
  verdicts: VerdictComparison[];
  differences: number;
  observations: { target: Observation; twin: Observation };
  startedAt: number;
  wallMs: number;
}

export interface CompareOptions {
  profile: Profile;
  budget?: number;
  timeScaleGiven?: boolean;
  urlSource?: string;
  /** Real ms of a round trip that is not the target's (the latency comparisons' noise floor). */
  latencyNoiseMs?: number;
  progress?: (side: 'target' | 'twin', line: string) => void;
}

const side = (key: BehaviourKey, f: Finding | undefined, missing: string | undefined): Side =>
  f
    ? { value: f.value, words: valueWords(key, f.value), samples: f.samples, evidence: f.evidence.slice(0, 3) }
    : { words: 'not observed', unobserved: missing ?? 'nothing sent showed it', evidence: [] };

/** Compares two observations behaviour by behaviour (exported for tests: two observations of any targets). */
export function compareObservations(
  target: Observation,
  twin: Observation,
  o: { latencyNoiseMs?: number } = {},
): { behaviours: BehaviourComparison[]; verdicts: VerdictComparison[] } {
  const behaviours: BehaviourComparison[] = [];
  // A latency's noise: what the user says, and at least twice this machine's own round trip to an empty
  // local server as measured beside each observation (its median for medians, its p95 for tails).
  const own = (q: 'p50' | 'p95') => 2 * Math.max(target.roundTrip?.[q] ?? 0, twin.roundTrip?.[q] ?? 0);
  const floor = o.latencyNoiseMs ?? 3;
  const latencyNoiseMs = { p50: Math.max(floor, own('p50')), p95: Math.max(floor, own('p95')) };
  for (const key of BEHAVIOUR_KEYS) {
    const a = target.findings.found.get(key);
    const b = twin.findings.found.get(key);
    const base = {
      key,
      name: behaviourName(key),
      target: side(key, a, target.findings.missing.get(key)),
      twin: side(key, b, twin.findings.missing.get(key)),
    };
    if (!a) {
      behaviours.push({ ...base, verdict: 'not compared' });
      continue;
    }
    if (!b) {
      behaviours.push({ ...base, verdict: 'differs' });
      continue;
    }
    const s = sameBehaviour(
      key,
      { value: a.value, samples: a.samples },
      { value: b.value, samples: b.samples },
      { timeScale: Math.max(target.timeScale, twin.timeScale), latencyNoiseMs },
    );
    behaviours.push({ ...base, verdict: s.same ? 'same' : 'differs', ...(s.tolerance && { tolerance: s.tolerance }) });
  }
  const judged = (r: { state: string }) => r.state !== 'skipped';
  const twinResults = new Map((twin.results ?? []).map((r) => [checkId(r), r]));
  const verdicts: VerdictComparison[] = [];
  for (const r of target.results ?? []) {
    const t = twinResults.get(checkId(r));
    if (!t || !judged(r) || !judged(t) || r.name.startsWith('calibrate_')) continue;
    if (r.state !== t.state) verdicts.push({ check: checkId(r), target: r.state, twin: t.state });
  }
  return { behaviours, verdicts };
}

/** The sandbox keys that stand for the target's accounts (the same accounts the suite's sandbox target uses). */
type SandboxKeys = Record<'acme' | 'globex' | 'initech' | 'umbrella', string>;

function twinTarget(target: TargetConfig, baseUrl: string, keys: SandboxKeys): TargetConfig {
  return {
    ...target,
    // Probed as the target is: discovered, not told (kind external: no sandbox-only check).
    kind: 'external',
    baseUrl,
    apiKey: keys.acme,
    otherAccountKey: target.otherAccountKey ? keys.globex : undefined,
    freePlanKey: target.freePlanKey ? keys.initech : undefined,
    noCreditKey: target.noCreditKey ? keys.umbrella : undefined,
    fixtures: {},
    seededIds: [],
    pacingUrl: undefined,
    holdTime: undefined,
  };
}

export async function compareWithTwin(
  config: TargetConfig,
  twin: Twin,
  source: string,
  o: CompareOptions,
): Promise<Comparison | SetupFailure> {
  const startedAt = Date.now();
  // The target's pace first: the twin runs at the same time scale.
  const checked = await checkTarget(config, { timeScaleGiven: o.timeScaleGiven, urlSource: o.urlSource });
  if (!checked.result.ok) return { setupError: checked.result.message, preflight: checked.result };
  const timeScale = checked.config.timeScale;
  const sandbox = await loadSandbox();
  const options: SandboxOptions & { twin: Twin } = { port: 0, timeScale, twin };
  const handle = await sandbox.startSandbox(options);
  const keys = sandbox.SANDBOX_KEYS as unknown as SandboxKeys;
  for (const k of Object.values(keys)) registerSecret(k);
  try {
    const common = { profile: o.profile, budget: o.budget, timeScaleGiven: true };
    const [target, copy] = await Promise.all([
      observe(
        { ...checked.config, timeScale },
        { ...common, urlSource: o.urlSource, progress: (l) => o.progress?.('target', l) },
      ),
      observe(twinTarget({ ...checked.config, timeScale }, handle.baseUrl, keys), {
        ...common,
        progress: (l) => o.progress?.('twin', l),
      }),
    ]);
    if (isSetupFailure(target)) return target;
    if (isSetupFailure(copy)) return { setupError: `the sandbox started from the twin: ${copy.setupError}` };
    const { behaviours, verdicts } = compareObservations(target, copy, { latencyNoiseMs: o.latencyNoiseMs });
    return {
      target: { baseUrl: target.baseUrl, profile: o.profile, timeScale },
      twin: { name: String(twin.name), source, baseUrl: handle.baseUrl },
      behaviours,
      verdicts,
      differences: behaviours.filter((b) => b.verdict === 'differs').length + verdicts.length,
      observations: { target, twin: copy },
      startedAt,
      wallMs: Date.now() - startedAt,
    };
  } finally {
    await handle.close();
  }
}
