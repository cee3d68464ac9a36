// Deterministic samples of a twin's distributions: the n-th draw of a key for an account is a function
// of (seed, key, account, n) alone, so a run with the same seed and the same requests sees the same
// latencies, durations and transient errors, whatever else runs beside it.
import type { Distribution } from '@videogen/openapi/twin';

/** z of the 95th percentile of the standard normal: sigma = ln(p95 / p50) / Z95. */
const Z95 = 1.6448536269514722;

/** FNV-1a of a string, 32 bits. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finaliser: every input bit moves every output bit. */
function mix(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A uniform number in (0, 1), fixed by (seed, stream, n). */
export function uniform(seed: number, stream: number, n: number): number {
  const h = mix(mix(stream ^ mix(seed >>> 0)) ^ mix(n + 0x9e3779b9));
  return (h + 0.5) / 4294967296;
}

/** The distribution's value for the uniforms u1, u2 (log-normal by Box–Muller; clamped to min/max). */
export function quantile(d: Distribution, u1: number, u2: number): number {
  if (d.family === 'constant') return d.value;
  const mu = Math.log(d.p50);
  const sigma = Math.log(d.p95 / d.p50) / Z95;
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  const x = Math.exp(mu + sigma * z);
  return Math.min(d.max ?? Number.POSITIVE_INFINITY, Math.max(d.min ?? 0, x));
}

/** Draws per (key, account), each the next of its own sequence under one seed. */
export class Sampler {
  private readonly counts = new Map<string, number>();
  private readonly streams = new Map<string, number>();

  constructor(readonly seed: number) {}

  /** The next uniform of the sequence (key, account). */
  next(key: string, account: string): number {
    const name = `${key}\u0000${account}`;
    const n = this.counts.get(name) ?? 0;
    this.counts.set(name, n + 1);
    let stream = this.streams.get(name);
    if (stream === undefined) this.streams.set(name, (stream = fnv1a(name)));
    return uniform(this.seed, stream, n);
  }

  /** The next sample of a distribution for (key, account); a constant draws nothing. */
  sample(d: Distribution, key: string, account: string): number {
    if (d.family === 'constant') return d.value;
    return quantile(d, this.next(key, account), this.next(`${key}#2`, account));
  }

  /** Back to the first draw of every sequence of the account (`/_sandbox/reset`). */
  reset(account: string) {
    for (const name of this.counts.keys()) if (name.endsWith(`\u0000${account}`)) this.counts.delete(name);
  }
}
