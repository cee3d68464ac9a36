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

import type { Exchange } from '../shapes.ts';
import { codeOf, fromExchange } from './seen.ts';

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

/** A model that explains the answers, and how much benefit of the doubt it needed. */
interface Fit {
  model: LimiterModel;
  label: string;
  rank: number;
  doubted: number;
}

/** Every model of the grid (limits × windows × styles × counting × fixed phases) that explains the answers. */
function fits(attempts: readonly Attempt[], limits: readonly number[], windows: readonly number[]): Fit[] {
  const out: Fit[] = [];
  let rank = 0;
  for (const windowMs of windows)
    for (const limit of limits) {
      if (!(limit >= 1) || !(windowMs > 0)) continue;
      for (const style of STYLES)
        for (const counted of style === 'fixed' ? [false] : [false, true]) {
          const phases = style === 'fixed' ? Array.from({ length: 200 }, (_, i) => (i / 200) * windowMs) : [0];
          for (const phaseMs of phases) {
            const model = { style, limit, windowMs, refusedCount: counted, phaseMs };
            const doubted = doubts(model, attempts);
            if (doubted >= 0) out.push({ model, label: label(style, counted), rank, doubted });
          }
        }
      rank++;
    }
  return out;
}

/**
 * When the answers leave more than one behaviour (a request lost to a transient 5xx, round trips that blur
 * a boundary), the soonest step from `from` (ms) that tells two of them apart whatever their numbers and
 * phase: one request, or else the fewest back to back (stopping at a refusal; at most the limit and one
 * more), whose answers one behaviour gives and the other cannot, even if the step leaves up to an eighth
 * of a spacing late. The probe sends it
 * and infers again. Undefined when one behaviour is left, or no step in the next two windows tells any apart.
 */
export function nextAttempt(
  attempts: readonly Attempt[],
  limits: readonly number[],
  windows: readonly number[],
  from: number,
): Step | undefined {
  const all = fits(attempts, limits, windows);
  if (!all.length) return undefined;
  const rank = Math.min(...all.map((f) => f.rank));
  const atRank = all.filter((f) => f.rank === rank);
  const least = Math.min(...atRank.map((f) => f.doubted));
  const best = atRank.filter((f) => f.doubted === least);
  if (new Set(best.map((f) => f.label)).size < 2) return undefined;
  const sorted = [...attempts].sort((a, b) => a.at - b.at);
  const windowMs = Math.max(...best.map((f) => f.model.windowMs));
  const step = Math.min(...best.map((f) => f.model.windowMs / f.model.limit)) / 8;
  /** What each behaviour may answer to `max` requests at t (and as late as t + step): answers as "+-". */
  const answers = (t: number, max: number) => {
    const says = new Map<string, Set<string>>();
    for (const f of best)
      for (const at of [t, t + step]) {
        const sim = simulate(f.model);
        for (const a of sorted) sim.take(a.at, a.allowed);
        let said = '';
        for (let i = 0; i < max; i++) {
          const allowed = sim.allowedAt(at);
          sim.take(at, allowed);
          said += allowed ? '+' : '-';
          if (!allowed) break;
        }
        const set = says.get(f.label) ?? new Set<string>();
        set.add(said);
        says.set(f.label, set);
      }
    return [...says.values()];
  };
  const disjoint = (a: Set<string>, b: Set<string>) => ![...a].some((x) => b.has(x));
  const most = Math.max(...best.map((f) => f.model.limit)) + 1;
  for (let t = from; t <= from + 2 * windowMs; t += step)
    for (let max = 1; max <= most; max++) {
      const sets = answers(t, max);
      if (sets.some((a, i) => sets.slice(i + 1).some((b) => disjoint(a, b)))) return { at: t, max };
    }
  return undefined;
}

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
  // The least doubt per behaviour and numbers (a fixed window's phases are one behaviour).
  const byBehaviour = new Map<string, Fit>();
  for (const f of fits(attempts, limits, windows)) {
    const key = `${f.rank}|${f.label}|${f.model.limit}|${f.model.windowMs}`;
    const known = byBehaviour.get(key);
    if (!known || f.doubted < known.doubted) byBehaviour.set(key, f);
  }
  const found = [...byBehaviour.values()];
  if (!found.length) return undefined;
  // Prefer the earliest numbers (the interface's, then the target's statement); then the behaviour that
  // needs the least benefit of the doubt (answers it gives only elsewhere within their round trip); then
  // the strictest.
  found.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.doubted - b.doubted ||
      PREFERENCE.indexOf(a.model.style) - PREFERENCE.indexOf(b.model.style) ||
      Number(b.model.refusedCount) - Number(a.model.refusedCount),
  );
  const best = found[0];
  // Ambiguity: the behaviours at the same numbers that explain the answers as well.
  const candidates = [
    ...new Set(found.filter((f) => f.rank === best.rank && f.doubted === best.doubted).map((f) => f.label)),
  ];
  return {
    style: best.model.style,
    limit: best.model.limit,
    windowMs: best.model.windowMs,
    ...(best.model.style !== 'fixed' && { refusedCount: best.model.refusedCount }),
    candidates,
  };
}

/** The answers of a probe as the limiter models read them: when (real ms), the slack of its round trip, let through or not. */
export function attemptsOf(exchanges: Exchange[]): Attempt[] {
  // A 5xx after the retries (a gateway's page) says nothing of the limiter: it may never have reached it.
  return exchanges
    .filter((ex) => ex.status < 500)
    .map((ex) => ({
      at: (ex.at ?? 0) + ex.ms / 2,
      // The target decided somewhere in the round trip; a millisecond more for its own clock's grain.
      slack: ex.ms / 2 + 1,
      allowed: !(ex.status === 429 && codeOf(fromExchange(ex)) !== 'INSUFFICIENT_CREDIT'),
    }));
}

/**
 * The limits to try: the interface's, the target's statement, and what its bursts showed (how many passed
 * before a refusal, and one more: the first request before a burst counts too).
 */
export function candidateLimits(attempts: readonly Attempt[], nominal: number, stated?: number): number[] {
  const runs: number[] = [];
  let run = 0;
  for (const a of attempts) {
    if (a.allowed) run++;
    else {
      runs.push(run);
      run = 0;
    }
  }
  return [...new Set([nominal, stated, ...runs, ...runs.map((n) => n + 1)])].filter(
    (n): n is number => typeof n === 'number' && n >= 1,
  );
}
