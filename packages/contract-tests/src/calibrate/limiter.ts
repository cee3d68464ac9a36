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
  /** A limiter in the same state, to be asked on its own. */
  copy(): Sim;
}

const EPS = 1e-6;

export function simulate(m: LimiterModel): Sim {
  const n = m.limit;
  const w = m.windowMs;
  const interval = w / n;
  const phase = m.phaseMs ?? 0;
  switch (m.style) {
    case 'sliding': {
      const sliding = (log: number[]): Sim => ({
        allowedAt: (t) => log.filter((e) => e > t - w + EPS).length < n,
        take(t, allowed) {
          log = log.filter((e) => e > t - w + EPS);
          if (allowed || m.refusedCount) log.push(t);
        },
        copy: () => sliding([...log]),
      });
      return sliding([]);
    }
    case 'fixed': {
      const windowOf = (t: number) => Math.floor((t - phase) / w);
      const fixed = (current: number, count: number): Sim => ({
        allowedAt: (t) => (windowOf(t) === current ? count : 0) < n,
        take(t, allowed) {
          if (windowOf(t) !== current) {
            current = windowOf(t);
            count = 0;
          }
          if (allowed || m.refusedCount) count++;
        },
        copy: () => fixed(current, count),
      });
      return fixed(Number.NEGATIVE_INFINITY, 0);
    }
    case 'even': {
      const even = (tat: number): Sim => ({
        allowedAt: (t) => t >= tat - EPS,
        take(t, allowed) {
          if (allowed) tat = Math.max(tat, t) + interval;
          else if (m.refusedCount) tat += interval;
        },
        copy: () => even(tat),
      });
      return even(Number.NEGATIVE_INFINITY);
    }
    case 'token-bucket': {
      const bucket = (tokens: number, at: number): Sim => {
        const level = (t: number) => (at === Number.NEGATIVE_INFINITY ? n : Math.min(n, tokens + (t - at) / interval));
        return {
          allowedAt: (t) => level(t) >= 1 - EPS,
          take(t, allowed) {
            tokens = level(t);
            at = t;
            if (allowed || m.refusedCount) tokens -= 1;
          },
          copy: () => bucket(tokens, at),
        };
      };
      return bucket(n, Number.NEGATIVE_INFINITY);
    }
  }
}

/**
 * Whether a model gives the answers seen, and with how much benefit of the doubt. Each answer was decided
 * somewhere within its attempt's slack, the earlier ones too: an answer rules the model out only if the
 * model would give the other one even with every earlier request placed where it helps (a request let
 * through as late as it may have been decided, with the earlier ones as early as they may have been; a
 * refusal the other way round; each style lets through more the later it is asked and the earlier it was
 * taken). One it gives only thus, not at the attempts' own times, is taken as seen, and counted. The model
 * of the target itself needs the fewest of those.
 */
export function doubts(m: LimiterModel, attempts: readonly Attempt[]): number {
  const sim = simulate(m);
  const early = simulate(m);
  const late = simulate(m);
  // A fixed window's phase is a free parameter already (a grid of them is tried): placed where it helps
  // for each answer on its own, its requests could sit on either side of one same boundary.
  const strict = m.style === 'fixed';
  let doubted = 0;
  let earliest = Number.NEGATIVE_INFINITY;
  let latest = Number.NEGATIVE_INFINITY;
  for (const a of [...attempts].sort((x, y) => x.at - y.at)) {
    if (strict) {
      const before = sim.allowedAt(a.at - a.slack);
      if (before === sim.allowedAt(a.at + a.slack) && before !== a.allowed) return -1;
    } else if (a.allowed ? !early.allowedAt(a.at + a.slack) : late.allowedAt(a.at - a.slack)) return -1;
    if (sim.allowedAt(a.at) !== a.allowed) doubted++;
    sim.take(a.at, a.allowed);
    // In the order they were sent, whatever their slacks.
    earliest = Math.max(earliest, a.at - a.slack);
    latest = Math.max(latest, a.at + a.slack);
    early.take(earliest, a.allowed);
    late.take(latest, a.allowed);
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

/** Steps (each at most the limit and one more) the probe may add to tell apart behaviours its schedule left together. */
export const EXTRA_STEPS = 3;

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

/** A behaviour's fit that needs the least benefit of the doubt (a fixed window: its best phase). */
const leastDoubted = (group: readonly Fit[]): Fit => group.reduce((a, b) => (b.doubted < a.doubted ? b : a));

/**
 * The fits grouped by behaviour and numbers (a fixed window's phases are one behaviour), best first: the
 * earliest numbers (the interface's, then the target's statement); then the behaviour that needs the least
 * benefit of the doubt (answers it gives only elsewhere within their round trip); then the strictest.
 */
function behaviours(all: readonly Fit[]): Fit[][] {
  const groups = new Map<string, Fit[]>();
  for (const f of all) {
    const key = `${f.rank}|${f.label}|${f.model.limit}|${f.model.windowMs}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()].sort(
    (a, b) =>
      a[0].rank - b[0].rank ||
      leastDoubted(a).doubted - leastDoubted(b).doubted ||
      PREFERENCE.indexOf(a[0].model.style) - PREFERENCE.indexOf(b[0].model.style) ||
      Number(b[0].model.refusedCount) - Number(a[0].model.refusedCount),
  );
}

/**
 * When the answers leave more than one behaviour (a request lost to a transient 5xx, round trips that blur
 * a boundary), a step from `from` (ms) whose answers tell the one `infer` would keep apart from others that
 * explain the answers too, however much benefit of the doubt they need: one request, or else the fewest
 * back to back (stopping at a refusal; at most the limit and one more), whose answers the kept behaviour
 * gives and the other cannot, whatever their phase, even if the step leaves late and is decided anywhere
 * within a round trip as slow as the slowest seen so far. Preferred: the step that rules out the most
 * behaviours at the kept one's numbers, then the most at any numbers, then the soonest. The probe sends
 * it and infers again. Undefined when one behaviour is left, or no step in the next two windows tells any apart.
 */
export function nextAttempt(
  attempts: readonly Attempt[],
  limits: readonly number[],
  windows: readonly number[],
  from: number,
): Step | undefined {
  const groups = behaviours(fits(attempts, limits, windows));
  if (groups.length < 2) return undefined;
  const [kept, ...rest] = groups;
  // Behaviours at other numbers only where they explain the answers better: kept only for their rank.
  const others = rest.filter((g) => g[0].rank === kept[0].rank || leastDoubted(g).doubted < leastDoubted(kept).doubted);
  // Behaviours at the kept one's numbers count first: the others are there for a burst read otherwise.
  const weight = (g: Fit[]) => (g[0].rank === kept[0].rank ? 1000 : 1);
  if (!others.length) return undefined;
  const sorted = [...attempts].sort((a, b) => a.at - b.at);
  const windowMs = Math.max(...groups.map((g) => g[0].model.windowMs));
  const spacing = kept[0].model.windowMs / kept[0].model.limit;
  // The measured round trips: the step may leave as late as the slowest one (or an eighth of a spacing),
  // and is decided anywhere within one; a burst's next request leaves when the answer is in.
  const trips = sorted.map((a) => 2 * a.slack).sort((a, b) => a - b);
  const slowest = trips[trips.length - 1] ?? 0;
  const typical = trips[Math.floor(trips.length / 2)] ?? 0;
  const spread = Math.max(spacing / 8, slowest) + slowest;
  const most = Math.max(...groups.map((g) => g[0].model.limit)) + 1;
  /** What a behaviour may answer to up to `most` requests decided from t to t + spread: each prefix up to a refusal. */
  const replayed = new Map<Fit, Sim>();
  for (const g of groups)
    for (const f of g) {
      const sim = simulate(f.model);
      for (const a of sorted) sim.take(a.at, a.allowed);
      replayed.set(f, sim);
    }
  const answers = (group: Fit[], t: number): Set<string>[] => {
    const says = Array.from({ length: most }, () => new Set<string>());
    for (const f of group)
      for (let k = 0; k <= 4; k++) {
        const sim = (replayed.get(f) as Sim).copy();
        let said = '';
        for (let i = 0; i < most; i++) {
          const at = t + (k / 4) * spread + i * typical;
          const allowed = sim.allowedAt(at);
          sim.take(at, allowed);
          said += allowed ? '+' : '-';
          for (let max = i + 1; max <= most && (max === i + 1 || !allowed); max++) says[max - 1].add(said);
          if (!allowed) break;
        }
      }
    return says;
  };
  const disjoint = (a: Set<string>, b: Set<string>) => ![...a].some((x) => b.has(x));
  let best: { at: number; max: number; score: number } | undefined;
  const all = others.reduce((sum, g) => sum + weight(g), 0);
  const step = spacing / 8;
  for (let t = from; t <= from + 2 * windowMs; t += step) {
    const mine = answers(kept, t);
    const theirs = others.map((g) => answers(g, t));
    for (let max = 1; max <= most; max++) {
      const score = theirs.reduce(
        (sum, says, i) => sum + (disjoint(mine[max - 1], says[max - 1]) ? weight(others[i]) : 0),
        0,
      );
      if (score > 0 && (!best || score > best.score)) best = { at: t, max, score };
      if (best?.score === all) return { at: t, max };
    }
  }
  return best && { at: best.at, max: best.max };
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
  const groups = behaviours(fits(attempts, limits, windows));
  if (!groups.length) return undefined;
  // Ambiguity: the behaviours at the same numbers that explain the answers as well.
  const best = leastDoubted(groups[0]);
  const candidates = [
    ...new Set(
      groups
        .map(leastDoubted)
        .filter((f) => f.rank === best.rank && f.doubted === best.doubted)
        .map((f) => f.label),
    ),
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
