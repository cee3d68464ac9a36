// Distributions fitted from samples (latencies in ms, durations in s), as the twin format holds them: a
// constant, or a log-normal by its median and 95th percentile (twin/schema.yaml, Distribution). How:
//   - the median is the samples' median;
//   - the 95th percentile is the samples' own from MIN_EMPIRICAL_P95 samples on; below that, the
//     log-normal's: p50 · e^(1.6449 · s), s the spread of the samples' logarithms: their standard
//     deviation below MIN_ROBUST samples, their interquartile range / 1.349 from there (one slow answer
//     of a busy network then moves the fit less);
//   - samples that all lie within the measurement's resolution of each other (a polling interval, a
//     timer's grain) are a constant: the spread seen is the measurement's, not the target's;
//   - one sample is a constant at that sample, and says so: its median is known only within a factor
//     (for the spread of the target's other operations, or e^1.96·σ for a log-normal of σ = 0.5, ×2.7).
// Each fit carries the words that say how it was made and how far its median can be trusted (a 95%
// interval of the median from the log samples: e^(mean ± 1.96 · s / √n)), written into the twin's notes.

/** A fitted distribution (the twin format's Distribution). */
export type Fitted =
  | { family: 'constant'; unit: 'ms' | 's'; value: number }
  | { family: 'lognormal'; unit: 'ms' | 's'; p50: number; p95: number; p99?: number };

export interface Fit {
  value: Fitted;
  samples: number;
  /** How it was fitted and how far to trust it, in words. */
  note: string;
}

/** From this many samples on, the 95th percentile is read from the samples themselves. */
export const MIN_EMPIRICAL_P95 = 20;
/** From this many samples on, the log spread is read from the interquartile range. */
const MIN_ROBUST = 8;
/** From this many samples on, the 99th percentile is written too (as observed). */
const MIN_P99 = 100;
/** z of the 95th percentile of a normal. */
const Z95 = 1.6449;

/** Rounded for a file a person reads: 3 significant digits, never 0 for a positive value. */
export function round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  const r = Number(x.toFixed(Math.min(digits, 6)));
  return r === 0 ? Number(x.toPrecision(1)) : r;
}

/** The q-quantile of sorted values (linear between order statistics). */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

function logStats(values: readonly number[]) {
  const logs = values
    .filter((v) => v > 0)
    .map(Math.log)
    .sort((a, b) => a - b);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd =
    logs.length >= MIN_ROBUST
      ? (quantile(logs, 0.75) - quantile(logs, 0.25)) / 1.349
      : logs.length > 1
        ? Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1))
        : 0;
  return { mean, sd, n: logs.length };
}

/**
 * Fits samples of one behaviour. `resolution`: how coarse one sample's measurement is, in the unit
 * (samples within it of each other are a constant).
 */
export function fitSamples(samples: readonly number[], unit: 'ms' | 's', resolution = 0): Fit | undefined {
  const values = samples.filter((v) => Number.isFinite(v) && v >= 0).sort((a, b) => a - b);
  const n = values.length;
  if (!n) return undefined;
  const p50 = quantile(values, 0.5);
  const range = values[n - 1] - values[0];
  const u = unit === 'ms' ? 'ms' : 's';
  if (n === 1)
    return {
      value: { family: 'constant', unit, value: round(p50) },
      samples: 1,
      note: `one sample (${round(p50)} ${u}): a constant; the median is known only roughly (a log-normal of σ 0.5 puts one sample within ×2.7 of its median, 95% of the time) and the spread not at all`,
    };
  if (range <= resolution || p50 <= 0)
    return {
      value: { family: 'constant', unit, value: round(p50) },
      samples: n,
      note: `${n} samples within ${round(range)} ${u} of each other${resolution ? ` (the measurement's resolution is ${round(resolution)} ${u})` : ''}: a constant at their median`,
    };
  const { mean, sd, n: positive } = logStats(values);
  const empirical = n >= MIN_EMPIRICAL_P95;
  const p95 = Math.max(p50, empirical ? quantile(values, 0.95) : p50 * Math.exp(Z95 * sd));
  const half = positive > 1 ? (1.96 * sd) / Math.sqrt(positive) : 0;
  const value: Fitted = { family: 'lognormal', unit, p50: round(p50), p95: round(p95) };
  if (n >= MIN_P99) value.p99 = round(quantile(values, 0.99));
  return {
    value,
    samples: n,
    note: `log-normal from ${n} samples: median ${round(p50)} ${u} (95% interval of the median ${round(Math.exp(mean - half))}–${round(Math.exp(mean + half))} ${u}), p95 ${round(p95)} ${u} ${empirical ? 'read from the samples' : `from the spread of the log samples (s = ${round(sd)}; fewer than ${MIN_EMPIRICAL_P95} samples)`}`,
  };
}

/** The median and 95th percentile of a fitted distribution. */
export function percentiles(d: Fitted): { p50: number; p95: number } {
  return d.family === 'constant' ? { p50: d.value, p95: d.value } : { p50: d.p50, p95: d.p95 };
}

/**
 * How two distributions are compared (compare, calibrate --diff): the same when each percentile is
 * within `ratio` of the other, or within `slack` (in the unit) of it: the noise of a measurement that
 * is not the target's (a loopback's, a poll's).
 */
export interface Tolerance {
  /** Largest ratio between the two medians (1.5: within 50%). */
  p50Ratio: number;
  /** Largest ratio between the two 95th percentiles. */
  p95Ratio: number;
  /** Differences below this, in the unit, are noise. */
  slack: number;
}

export function sameDistribution(a: Fitted, b: Fitted, t: Tolerance): boolean {
  const x = percentiles(a);
  const y = percentiles(b);
  const close = (u: number, v: number, ratio: number) =>
    Math.abs(u - v) <= t.slack || (u > 0 && v > 0 && Math.max(u, v) / Math.min(u, v) <= ratio);
  return close(x.p50, y.p50, t.p50Ratio) && close(x.p95, y.p95, t.p95Ratio);
}

/** A distribution in words: `p50 45 s, p95 110 s`, or `30 s`. */
export function describeDistribution(d: Fitted): string {
  return d.family === 'constant' ? `${d.value} ${d.unit}` : `p50 ${d.p50} ${d.unit}, p95 ${d.p95} ${d.unit}`;
}
