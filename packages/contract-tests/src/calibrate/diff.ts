// `calibrate --diff OLD NEW`: what changed on the target between two calibrations, as a changelog of
// behaviour ("generation time (text) p50 45 s → 70 s", "rate-limit headers RateLimit-* → X-RateLimit-*"),
// not of schema. A behaviour observed in both and no longer the same (sameBehaviour, with its tolerance)
// is a change; one observed in only one of them is listed apart (what the two calibrations saw
// differs, not the target), and never fails.
import { BEHAVIOUR_KEYS, type BehaviourKey, type Twin } from '@videogen/openapi/twin';
import { sameBehaviour } from './same.ts';
import { behaviourName, valueWords } from './words.ts';

export interface BehaviourChange {
  key: BehaviourKey;
  /** `changed`: observed in both, different; `observed`/`unobserved`: seen by only one calibration. */
  kind: 'changed' | 'observed' | 'unobserved';
  before: unknown;
  after: unknown;
  line: string;
  tolerance?: string;
}

export interface TwinDiff {
  old: { name: string; created_at: string };
  new: { name: string; created_at: string };
  changes: BehaviourChange[];
}

const timeScaleOf = (t: Twin) => Number((t.calibration as { time_scale?: unknown } | undefined)?.time_scale) || 1;
/** The local round trip a calibration measured beside itself (real ms), when it wrote one. */
const roundTripOf = (t: Twin) =>
  (t.calibration as { local_round_trip_ms?: { p50: number; p95: number } } | undefined)?.local_round_trip_ms;

export function diffTwins(a: Twin, b: Twin, o: { latencyNoiseMs?: number } = {}): TwinDiff {
  const changes: BehaviourChange[] = [];
  // A latency's noise, as compare reads it: what the user says (--latency-noise), and at least twice the
  // machines' own round trips, as each calibration measured them.
  const own = (q: 'p50' | 'p95') => 2 * Math.max(roundTripOf(a)?.[q] ?? 0, roundTripOf(b)?.[q] ?? 0);
  const floor = o.latencyNoiseMs ?? 3;
  const latencyNoiseMs = { p50: Math.max(floor, own('p50')), p95: Math.max(floor, own('p95')) };
  for (const key of BEHAVIOUR_KEYS) {
    const x = a.behaviours[key];
    const y = b.behaviours[key];
    const seenA = x.provenance.source === 'observed';
    const seenB = y.provenance.source === 'observed';
    const name = behaviourName(key);
    if (seenA && seenB) {
      const s = sameBehaviour(
        key,
        { value: x.value, samples: x.provenance.source === 'observed' ? x.provenance.samples : undefined },
        { value: y.value, samples: y.provenance.source === 'observed' ? y.provenance.samples : undefined },
        { timeScale: Math.max(timeScaleOf(a), timeScaleOf(b)), latencyNoiseMs },
      );
      if (!s.same)
        changes.push({
          key,
          kind: 'changed',
          before: x.value,
          after: y.value,
          line: `${name}: ${valueWords(key, x.value)} → ${valueWords(key, y.value)}`,
          ...(s.tolerance && { tolerance: s.tolerance }),
        });
    } else if (seenA !== seenB) {
      changes.push({
        key,
        kind: seenB ? 'observed' : 'unobserved',
        before: x.value,
        after: y.value,
        line: seenB
          ? `${name}: now observed, ${valueWords(key, y.value)} (${String(a.name)} held ${valueWords(key, x.value)}, not observed)`
          : `${name}: not observed by ${String(b.name)} (${String(a.name)} observed ${valueWords(key, x.value)})`,
      });
    }
  }
  return {
    old: { name: String(a.name), created_at: String(a.created_at) },
    new: { name: String(b.name), created_at: String(b.created_at) },
    changes,
  };
}

export function formatDiff(d: TwinDiff): string {
  const changed = d.changes.filter((c) => c.kind === 'changed');
  const other = d.changes.filter((c) => c.kind !== 'changed');
  const lines = [
    `Behaviour changes from ${d.old.name} (${d.old.created_at}) to ${d.new.name} (${d.new.created_at}): ${changed.length ? `${changed.length} changed` : 'none'}`,
    ...changed.map((c) => `  ${c.line}${c.tolerance ? `  [${c.tolerance}]` : ''}`),
  ];
  if (other.length)
    lines.push(
      '',
      `Seen by only one of them (not a change of the target; not counted): ${other.length}`,
      ...other.map((c) => `  ${c.line}`),
    );
  return `${lines.join('\n')}\n`;
}
