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
import type { RunResult } from '../engine/runner.ts';
import type { Profile, TargetConfig } from '../shapes.ts';
import { askedFor, type Finding } from './extract.ts';
import { isSetupFailure, observe, type Observation, type SetupFailure } from './observe.ts';
import { sameBehaviour } from './same.ts';
import { codeOf, type Seen } from './seen.ts';
import { behaviourName, valueWords } from './words.ts';

export interface Side {
  value?: unknown;
  words: string;
  samples?: number;
  /** How the value was read (a fit's words, the limiter probe's answers). */
  note?: string;
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
  /** The twin file's value is not observed (a decision, the interface): the calibration did not see it. */
  twinFile?: string;
}

export interface VerdictComparison {
  check: string;
  target: string;
  twin: string;
  /** The first line of each side's message (a failure's, a drift's). */
  targetMessage?: string;
  twinMessage?: string;
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
    ? {
        value: f.value,
        words: valueWords(key, f.value),
        samples: f.samples,
        ...(f.note && { note: f.note }),
        evidence: f.evidence.slice(0, 3),
      }
    : { words: 'not observed', unobserved: missing ?? 'nothing sent showed it', evidence: [] };

/** Compares two observations behaviour by behaviour (exported for tests: two observations of any targets). */
export function compareObservations(
  target: Observation,
  twin: Observation,
  o: { latencyNoiseMs?: number; declared?: Twin } = {},
): { behaviours: BehaviourComparison[]; verdicts: VerdictComparison[] } {
  const behaviours: BehaviourComparison[] = [];
  const twinAsked = askedFor(twin.seen);
  // A latency's noise: what the user says, and at least twice this machine's own round trip to an empty
  // local server as measured beside each observation (its median for medians, its p95 for tails).
  const own = (q: 'p50' | 'p95') => 2 * Math.max(target.roundTrip?.[q] ?? 0, twin.roundTrip?.[q] ?? 0);
  const floor = o.latencyNoiseMs ?? 3;
  const latencyNoiseMs = { p50: Math.max(floor, own('p50')), p95: Math.max(floor, own('p95')) };
  for (const key of BEHAVIOUR_KEYS) {
    const a = target.findings.found.get(key);
    const b = twin.findings.found.get(key);
    const file = o.declared?.behaviours[key];
    const base = {
      key,
      name: behaviourName(key),
      target: side(key, a, target.findings.missing.get(key)),
      twin: side(key, b, twin.findings.missing.get(key)),
      ...(file &&
        file.provenance.source !== 'observed' && {
          twinFile: `the twin file holds ${file.provenance.source === 'interface' ? `the interface's value (${file.provenance.section})` : 'our decision'}${file.provenance.note ? `: ${file.provenance.note}` : ''}`,
        }),
    };
    if (!a) {
      behaviours.push({ ...base, verdict: 'not compared' });
      continue;
    }
    if (!b) {
      // Not asked: the twin's run sent no request that shows it (a mode it did not generate, a probe
      // its fixtures skipped), or the timing that shows it did not come (videos that ended before the
      // concurrency probe's requests were answered).
      const notAsked = BY_SHAPE.test(key) ? !twinAsked.has(key) : BY_TIMING.test(key);
      if (notAsked) {
        behaviours.push({
          ...base,
          verdict: 'not compared',
          twin: { ...base.twin, unobserved: `${base.twin.unobserved} (its run was not asked for it)` },
        });
        continue;
      }
      // A transient 5xx the suite does not send again (a POST that may have created) may have taken the
      // place of the request that shows it: random, not the twin's behaviour.
      const lost = transientPosts(twin);
      behaviours.push(
        lost
          ? {
              ...base,
              verdict: 'not compared',
              twin: {
                ...base.twin,
                unobserved: `${base.twin.unobserved}; ${lost} POST${lost === 1 ? ' was' : 's were'} answered a transient 5xx and not sent again, which may have taken its place`,
              },
            }
          : { ...base, verdict: 'differs' },
      );
      continue;
    }
    // The twin's samples are drawn from its declared distribution, fitted from the target's: its spread.
    const declared = file;
    const d = declared?.value as { family?: string; p50?: number; p95?: number } | undefined;
    const sigma = d?.family === 'lognormal' && d.p50 && d.p95 ? Math.log(d.p95 / d.p50) / 1.6449 : undefined;
    const fittedFrom = declared?.provenance.source === 'observed' ? declared.provenance.samples : undefined;
    // A duration read by polls that came late (a busy machine at a time scale) is known only within its
    // widest bracket: the comparison allows that much, beside its own floor.
    const readingError = Math.max(a.readingError ?? 0, b.readingError ?? 0);
    const s = sameBehaviour(
      key,
      { value: a.value, samples: a.samples, sigma },
      { value: b.value, samples: b.samples, sigma, fittedFrom },
      {
        timeScale: Math.max(target.timeScale, twin.timeScale),
        latencyNoiseMs,
        ...(readingError && { readingError }),
      },
    );
    behaviours.push({ ...base, verdict: s.same ? 'same' : 'differs', ...(s.tolerance && { tolerance: s.tolerance }) });
  }
  // A check failed on one side and not on the other: the twin lets through what the target refuses, or
  // the reverse. A failure that rests on a 5xx answer is a transient one (random), not compared; a drift
  // on one side only is a decision's difference, which the behaviours above say better.
  const failed = (r: RunResult) => r.state === 'failed' && !(r.exchanges ?? []).some((e) => e.status >= 500);
  const twinResults = new Map((twin.results ?? []).map((r) => [checkId(r), r]));
  const verdicts: VerdictComparison[] = [];
  for (const r of target.results ?? []) {
    const t = twinResults.get(checkId(r));
    if (!t || r.state === 'skipped' || t.state === 'skipped' || r.name.startsWith('calibrate_')) continue;
    if ((r.state === 'failed') === (t.state === 'failed') || !(failed(r) || failed(t))) continue;
    verdicts.push({
      check: checkId(r),
      target: r.state,
      twin: t.state,
      ...(r.message && { targetMessage: r.message.split('\n')[0] }),
      ...(t.message && { twinMessage: t.message.split('\n')[0] }),
    });
  }
  return { behaviours, verdicts };
}

/** Behaviours a request's own shape asks for (askedFor tells whether a run sent one). */
const BY_SHAPE =
  /^(refusal\.(missing_credentials|malformed_credentials|unknown_key|malformed_id|bad_page|invalid_form|bad_combination|empty_text|unknown_setting|setting_mismatch|wrong_extension|too_many_images|conversion_body_invalid)|duration\.)/;
/** Behaviours only a moment shows (requests answered while the run's videos still ran). */
const BY_TIMING = /^(concurrency\.limit|retry_after\.concurrency|refusal\.generation_concurrency)$/;

/** POSTs of an observation answered a transient 5xx at last (not sent again: they may have created). */
function transientPosts(o: Observation): number {
  return o.seen.filter(
    (s) => s.method === 'POST' && s.operationId && s.status >= 500 && s.status !== 503 && codeOf(s) !== 'UNKNOWN_ERROR',
  ).length;
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
    const { behaviours, verdicts } = compareObservations(target, copy, {
      latencyNoiseMs: o.latencyNoiseMs,
      declared: twin,
    });
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
