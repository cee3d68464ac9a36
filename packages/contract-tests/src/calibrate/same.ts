// Whether two values of one behaviour are the same behaviour: exact for what a target chooses (a status,
// a code, a header family, a style), within a stated tolerance for what is measured (distributions,
// lifetimes, windows, rates). Both compare and calibrate --diff decide with this one function, and print
// the tolerance they used.
import { percentiles, type Fitted } from './fit.ts';

export interface Measured {
  value: unknown;
  /** Samples the value rests on (distributions, rates). */
  samples?: number;
  /** The log spread the samples are known to come from (a twin's declared distribution), when known. */
  sigma?: number;
  /**
   * The samples a twin's declared distribution was fitted from, when these samples are drawn from it:
   * its median is itself that uncertain.
   */
  fittedFrom?: number;
}

export interface Sameness {
  same: boolean;
  /** The tolerance applied, in words (measured behaviours only). */
  tolerance?: string;
}

export interface ToleranceOptions {
  /** How much faster than real time the targets run (a latency's noise floor is real milliseconds). */
  timeScale?: number;
  /**
   * Real ms of a round trip that are the measurement's, not the target's (loopback, scheduling): one
   * number, or the median's and the 95th percentile's apart (a busy machine's slow answers are rare).
   */
  latencyNoiseMs?: number | { p50: number; p95: number };
  /** Service seconds a duration can be off by from how often it was polled. */
  durationNoiseS?: number;
  /** How far either value can be off from how it was read (Finding.readingError): the noise is at least this. */
  readingError?: number;
}

/** z of the comparisons of medians: 3 standard errors (a false difference about once in 370 comparisons). */
const Z = 3;
/** The least log spread assumed of a measured behaviour (a generation time, a latency): about ±25%. */
const SIGMA_FLOOR = 0.25;
/** A 95th percentile is compared from this many samples on each side (below, it is an extrapolation). */
export const P95_SAMPLES = 10;

const ratio = (a: number, b: number) =>
  a > 0 && b > 0 ? Math.max(a, b) / Math.min(a, b) : a === b ? 1 : Number.POSITIVE_INFINITY;
const sigmaOf = (d: Fitted) => (d.family === 'lognormal' && d.p95 > d.p50 ? Math.log(d.p95 / d.p50) / 1.6449 : 0);

/**
 * Two fitted distributions: the medians within Z standard errors of a log-normal median (from both
 * spreads and sample counts, at least ×1.25), or within the measurement's noise; the 95th percentiles
 * within ×2 (or the noise) when both rest on P95_SAMPLES samples or more.
 */
export function sameDistributions(
  a: Measured,
  b: Measured,
  noise: number | { p50: number; p95: number },
  unit: string,
  compareTails = true,
): Sameness {
  const slack = typeof noise === 'number' ? { p50: noise, p95: noise } : noise;
  const x = a.value as Fitted;
  const y = b.value as Fitted;
  const na = Math.max(1, a.samples ?? 1);
  const nb = Math.max(1, b.samples ?? 1);
  // The larger spread: either fit's, or the one the samples are known to come from (a twin's declared
  // distribution); at least SIGMA_FLOOR (a constant's one sample rules out no spread).
  const sigma = Math.max(SIGMA_FLOOR, sigmaOf(x), sigmaOf(y), a.sigma ?? 0, b.sigma ?? 0);
  const fitted = Math.max(a.fittedFrom ?? 0, b.fittedFrom ?? 0);
  const allowed = Math.max(1.25, Math.exp(Z * sigma * Math.sqrt(1 / na + 1 / nb + (fitted ? 1 / fitted : 0))));
  const p = percentiles(x);
  const q = percentiles(y);
  const medians = Math.abs(p.p50 - q.p50) <= slack.p50 || ratio(p.p50, q.p50) <= allowed;
  const tails =
    !compareTails ||
    na < P95_SAMPLES ||
    nb < P95_SAMPLES ||
    Math.abs(p.p95 - q.p95) <= slack.p95 ||
    ratio(p.p95, q.p95) <= 2;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    same: medians && tails,
    tolerance: `medians within ×${round(allowed)} (${Z} standard errors of a log-normal median, σ ${round(sigma)}, ${na} and ${nb} samples${fitted ? `, a twin fitted from ${fitted}` : ''}) or ${round(slack.p50)} ${unit}; 95th percentiles ${!compareTails ? 'not compared (at a time scale a latency’s tail is this machine’s)' : na >= P95_SAMPLES && nb >= P95_SAMPLES ? `within ×2 or ${round(slack.p95)} ${unit}` : `not compared (fewer than ${P95_SAMPLES} samples on a side)`}`,
  };
}

/** Two rates of events (k of n each): the same unless a two-proportion test puts them Z standard errors apart. */
export function sameRates(a: Measured, b: Measured): Sameness {
  const ra = Number((a.value as { rate?: unknown }).rate ?? 0);
  const rb = Number((b.value as { rate?: unknown }).rate ?? 0);
  const na = a.samples ?? 0;
  const nb = b.samples ?? 0;
  if (!na || !nb) return { same: Math.abs(ra - rb) <= 0.02, tolerance: 'rates within 2 points (sample sizes unknown)' };
  const pooled = (ra * na + rb * nb) / (na + nb);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  const z = se > 0 ? Math.abs(ra - rb) / se : ra === rb ? 0 : Number.POSITIVE_INFINITY;
  return {
    same: z <= Z,
    tolerance: `a two-proportion test within ${Z} standard errors (${na} and ${nb} answers)`,
  };
}

const json = (v: unknown) =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );

/** What of an extra field's description is behaviour: a constant's value, or what a generated one is (and its prefix). */
function extraShape(v: unknown): unknown {
  const o = (v ?? {}) as { fields?: Record<string, unknown>; item_fields?: Record<string, unknown> };
  return { fields: o.fields ?? {}, item_fields: o.item_fields ?? {} };
}

/** Whether two values of a behaviour are the same, and the tolerance used for a measured one. */
export function sameBehaviour(key: string, a: Measured, b: Measured, o: ToleranceOptions = {}): Sameness {
  const scale = o.timeScale ?? 1;
  if (key.startsWith('latency.')) {
    const n = o.latencyNoiseMs ?? 3;
    const noise = typeof n === 'number' ? { p50: n, p95: n } : n;
    // At a time scale a latency's tail is this machine's (its slow answers, multiplied): medians only.
    return sameDistributions(a, b, { p50: noise.p50 * scale, p95: noise.p95 * scale }, 'ms', scale === 1);
  }
  if (key.startsWith('duration.'))
    return sameDistributions(a, b, Math.max(o.durationNoiseS ?? 5, o.readingError ?? 0), 's');
  if (key === 'transient.errors') {
    const rates = sameRates(a, b);
    const forms = (v: unknown) =>
      ((v as { answers?: Array<{ status?: unknown; form?: unknown }> }).answers ?? [])
        .map((x) => `${x.status} ${x.form}`)
        .sort();
    // A side whose every 5xx was a create's answer not kept (it was sent again) saw a rate but no form.
    const both = forms(a.value).length > 0 && forms(b.value).length > 0;
    return { same: rates.same && (!both || json(forms(a.value)) === json(forms(b.value))), tolerance: rates.tolerance };
  }
  if (key === 'download.ttl_seconds' || key.endsWith('.window_seconds')) {
    const close = ratio(Number(a.value), Number(b.value)) <= 1.1;
    return { same: close, tolerance: 'within 10%' };
  }
  if (key === 'encoding.api') {
    const x = a.value as { codings?: string[]; min_bytes?: number };
    const y = b.value as { codings?: string[]; min_bytes?: number };
    const codings = json([...(x.codings ?? [])].sort()) === json([...(y.codings ?? [])].sort());
    const threshold = !x.codings?.length || ratio(Math.max(1, x.min_bytes ?? 0), Math.max(1, y.min_bytes ?? 0)) <= 4;
    return {
      same: codings && threshold,
      tolerance:
        'the same codings; thresholds within ×4 (each is read between the largest body sent plain and the smallest encoded)',
    };
  }
  if (key === 'copyright.items') {
    const shape = (v: unknown) => {
      const c = v as { form?: unknown; text_field?: unknown };
      return { form: c.form, text_field: c.text_field };
    };
    return { same: json(shape(a.value)) === json(shape(b.value)) };
  }
  if (key.startsWith('body.extra_fields.')) return { same: json(extraShape(a.value)) === json(extraShape(b.value)) };
  return { same: json(a.value) === json(b.value) };
}
