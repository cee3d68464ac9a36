// Inferring a target's rate limiter from answers: its style (twin format: sliding, fixed, even,
// token-bucket), its limit and window, and whether a refused request counts against it. The interface
// gives numbers, not an algorithm (8.1), and no header says the rest, so it is learned by elimination:
// every candidate model is run over the very requests that were sent (their times as measured) and
// kept only if it gives the same answers. The probe (SCHEDULE) is a short sequence of single requests
// and bursts chosen so that, for the interface's numbers and any window phase, every pair of
// behaviours answers it differently, each at least 8% of a spacing interval away from the boundary
// that would change its answer, and so that it meets few 429s: about three per class.
//
// These models are the suite's own reading of the twin format's four styles (twin/schema.yaml,
// LimiterStyle and refused_count), written here and not imported: the suite is an independent check
// of any target, the sandbox included.
//   sliding       at most N in any window of W; counted: a refused request enters the log too
//   fixed         at most N per window aligned on multiples of W (at an unknown phase); counting a
//                 refused request changes nothing (the window is full already), so it cannot be observed
//   even          one request per W/N (GCRA, no burst); counted: a refusal moves the next slot by W/N
//   token-bucket  capacity N, one token back every W/N; counted: a refusal takes a token too (a debt)

export const STYLES = ['sliding', 'fixed', 'even', 'token-bucket'] as const;
export type Style = (typeof STYLES)[number];

export interface LimiterModel {
  style: Style;
  limit: number;
  /** The window, ms of the target's clock (real ms against a time-scaled target). */
  windowMs: number;
  refusedCount: boolean;
  /** fixed: where its windows start, ms within a window. */
  phaseMs?: number;
}

/** One request of a probe: when it was sent and answered (ms), and whether it was let through. */
export interface Attempt {
  at: number;
  /** Half its round trip, and a grain: the target decided somewhere within at ± slack. */
  slack: number;
  allowed: boolean;
}

interface Sim {
  allowedAt(t: number): boolean;
  take(t: number, allowed: boolean): void;
}

const EPS = 1e-6;

export function simulate(m: LimiterModel): Sim {
  const n = m.limit;
  const w = m.windowMs;
  const interval = w / n;
  const phase = m.phaseMs ?? 0;
  switch (m.style) {
    case 'sliding': {
      let log: number[] = [];
      return {
        allowedAt: (t) => log.filter((e) => e > t - w + EPS).length < n,
        take(t, allowed) {
          log = log.filter((e) => e > t - w + EPS);
          if (allowed || m.refusedCount) log.push(t);
        },
      };
    }
    case 'fixed': {
      let current = Number.NEGATIVE_INFINITY;
      let count = 0;
      const windowOf = (t: number) => Math.floor((t - phase) / w);
      return {
        allowedAt: (t) => (windowOf(t) === current ? count : 0) < n,
        take(t, allowed) {
          if (windowOf(t) !== current) {
            current = windowOf(t);
            count = 0;
          }
          if (allowed || m.refusedCount) count++;
        },
      };
    }
    case 'even': {
      let tat = Number.NEGATIVE_INFINITY;
      return {
        allowedAt: (t) => t >= tat - EPS,
        take(t, allowed) {
          if (allowed) tat = Math.max(tat, t) + interval;
          else if (m.refusedCount) tat += interval;
        },
      };
    }
    case 'token-bucket': {
      let tokens = n;
      let at = Number.NEGATIVE_INFINITY;
      const level = (t: number) => (at === Number.NEGATIVE_INFINITY ? n : Math.min(n, tokens + (t - at) / interval));
      return {
        allowedAt: (t) => level(t) >= 1 - EPS,
        take(t, allowed) {
          tokens = level(t);
          at = t;
          if (allowed || m.refusedCount) tokens -= 1;
        },
      };
    }
  }
}

/**
 * Whether a model gives the answers seen, and with how much benefit of the doubt: an answer the model
 * would give otherwise at both ends of its attempt's slack rules it out (-1); one it would give only
 * somewhere within the slack (a boundary, not at the attempt's own time) is taken as seen, and counted.
 * The model of the target itself needs the fewest of those.
 */
export function doubts(m: LimiterModel, attempts: readonly Attempt[]): number {
  const sim = simulate(m);
  let doubted = 0;
  for (const a of [...attempts].sort((x, y) => x.at - y.at)) {
    const early = sim.allowedAt(a.at - a.slack);
    const late = sim.allowedAt(a.at + a.slack);
    if (early === late && early !== a.allowed) return -1;
    if (sim.allowedAt(a.at) !== a.allowed) doubted++;
    sim.take(a.at, a.allowed);
  }
  return doubted;
}

/** Whether a model gives the answers seen (within each attempt's slack). */
export const explains = (m: LimiterModel, attempts: readonly Attempt[]) => doubts(m, attempts) >= 0;

/** A step of the probe: at `at` ms after it starts, up to `max` requests back to back, stopping at the first refusal. */
export interface Step {
  at: number;
  max: number;
}

/**
 * The probe of one class for the limits N per W (ms): one request; a burst at W/2 + I/4 (I = W/N, the
 * spacing); one request, and another if it passes, 1.5 I later; a burst at 1.3 W + I. Searched over
 * such schedules (N of 2, 3, 5 and 10) for the shortest that separates every behaviour robustly.
 */
export function schedule(limit: number, windowMs: number): Step[] {
  const interval = windowMs / limit;
  const burst = 2 * limit + 1;
  const second = windowMs / 2 + interval / 4;
  return [
    { at: 0, max: 1 },
    { at: second, max: burst },
    { at: second + 1.5 * interval, max: 2 },
    { at: 1.3 * windowMs + interval, max: burst },
  ];
}

/** What a probe of `schedule` sends at most, and the 429s it meets against a limiter of the interface's numbers. */
export function scheduleCost(
  limit: number,
  windowMs: number,
): { requests: number; durationMs: number; idleMs: number } {
  const steps = schedule(limit, windowMs);
  return {
    requests: steps.reduce((a, s) => a + s.max, 0),
    durationMs: steps[steps.length - 1].at,
    idleMs: IDLE_WINDOWS * windowMs,
  };
}

/** Windows of silence in the class before a probe: a window, and one more for a refusal earlier in the run that counted. */
export const IDLE_WINDOWS = 2;

/** A behaviour as the twin format holds it. */
export interface Inferred {
  style: Style;
  limit: number;
  windowMs: number;
  /** undefined: not observable for this style (a fixed window). */
  refusedCount?: boolean;
  /** Every behaviour (style, counting) that explains the answers, best first; more than one: ambiguous. */
  candidates: string[];
}

const label = (style: Style, counted: boolean) =>
  style === 'fixed' ? 'fixed' : `${style}${counted ? ' (refusals counted)' : ''}`;

/** Strictest first: what a client paced for it also passes elsewhere; the order ties are broken in. */
const PREFERENCE: Style[] = ['even', 'sliding', 'fixed', 'token-bucket'];

/**
 * The models that explain `attempts`, over limits and windows to try (the interface's first), and for a
 * fixed window every phase on a grid of 200. Undefined when none does.
 */
export function infer(
  attempts: readonly Attempt[],
  limits: readonly number[],
  windows: readonly number[],
): Inferred | undefined {
  const found: Array<{
    style: Style;
    counted: boolean;
    limit: number;
    windowMs: number;
    rank: number;
    doubted: number;
  }> = [];
  let rank = 0;
  for (const windowMs of windows)
    for (const limit of limits) {
      if (!(limit >= 1) || !(windowMs > 0)) continue;
      for (const style of STYLES)
        for (const counted of style === 'fixed' ? [false] : [false, true]) {
          const phases = style === 'fixed' ? Array.from({ length: 200 }, (_, i) => (i / 200) * windowMs) : [0];
          const fits = phases
            .map((phaseMs) => doubts({ style, limit, windowMs, refusedCount: counted, phaseMs }, attempts))
            .filter((d) => d >= 0);
          if (fits.length) found.push({ style, counted, limit, windowMs, rank, doubted: Math.min(...fits) });
        }
      rank++;
    }
  if (!found.length) return undefined;
  // Prefer the earliest numbers (the interface's, then the target's statement); then the behaviour that
  // needs the least benefit of the doubt (answers it gives only elsewhere within their round trip); then
  // the strictest.
  found.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.doubted - b.doubted ||
      PREFERENCE.indexOf(a.style) - PREFERENCE.indexOf(b.style) ||
      Number(b.counted) - Number(a.counted),
  );
  const best = found[0];
  // Ambiguity: the behaviours at the same numbers that explain the answers as well.
  const candidates = [
    ...new Set(
      found.filter((f) => f.rank === best.rank && f.doubted === best.doubted).map((f) => label(f.style, f.counted)),
    ),
  ];
  return {
    style: best.style,
    limit: best.limit,
    windowMs: best.windowMs,
    ...(best.style !== 'fixed' && { refusedCount: best.counted }),
    candidates,
  };
}
