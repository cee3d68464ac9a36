// One lane of generated requests run as a fast-check property: `runs` values drawn from a seed (a
// request, or a sequence of requests that follows the document's links), each sent (paced by the run's
// pacer, like every request) and judged; the first that fails is shrunk to the smallest value that still
// fails, within a cap of requests (every try is a request to a paced, possibly costly target), and kept
// with its exchanges for a replay bundle. A wall-time deadline ends the lane between two values; the
// run's credit guard ends it at once.
import fc from 'fast-check';
import { Judge } from '../engine/judge.ts';
import { GuardRefusal, Violation } from '../engine/outcomes.ts';
import type { Contract } from '../engine/contract.ts';
import type { Exchange } from '../shapes.ts';
import { describeCase, type GeneratedCase } from './cases.ts';
import { judgeCase } from './judge.ts';

/** A case as sent, with its answer. */
export interface Step {
  case: GeneratedCase;
  exchange: Exchange;
}

/** A case as sent: its answer, and whether it was sent while shrinking a failure (not one of the lane's runs). */
export interface SentCase {
  case: GeneratedCase;
  exchanges: Exchange[];
  shrinking?: boolean;
}

export interface LaneFailure {
  /** The failing case of the smallest failing value found (fast-check's shrunk counterexample). */
  case: GeneratedCase;
  /** Its exchanges: the request, or the sequence up to the failing one. */
  exchanges: Exchange[];
  /** The steps before it, for a sequence (what led to the failing request). */
  before: GeneratedCase[];
  message: string;
  /** The failing case first met, before shrinking. */
  first: GeneratedCase;
  /** Shrinking steps that still failed, and requests spent on shrinking. */
  shrinks: number;
  shrinkRequests: number;
  /** fast-check's replay path (with the lane's seed: `fc.check(..., { seed, path })`). */
  path?: string;
}

export interface LaneResult {
  name: string;
  seed: number;
  sent: SentCase[];
  failure?: LaneFailure;
  /** Why it stopped before its runs: the deadline, the credit guard. */
  stopped?: string;
}

export interface LaneOptions {
  name: string;
  runs: number;
  seed: number;
  /** Wall-clock instant (Date.now()) after which no further case is drawn. */
  deadline: number;
  /** The most requests spent shrinking a failure. */
  shrinkRequests: number;
  contract: Contract;
  /** Values tried first, before the drawn ones (fast-check's `examples`). */
  examples?: unknown[];
}

/** The first step whose answer fails, judged as the checks will judge it (mismatches are drift: they pass). */
export function verdict(contract: Contract, steps: Step[]): { at: number; message: string } | undefined {
  for (const [at, { case: c, exchange }] of steps.entries()) {
    const j = new Judge(contract);
    try {
      judgeCase(c, exchange, j);
    } catch (err) {
      if (err instanceof Violation) return { at, message: err.message };
      if ((err as Error).name === 'DecisionStop') continue;
      throw err;
    }
  }
  return undefined;
}

export async function runLane<T>(
  arbitrary: fc.Arbitrary<T>,
  send: (value: T) => Promise<Step[]>,
  o: LaneOptions,
): Promise<LaneResult> {
  const result: LaneResult = { name: o.name, seed: o.seed, sent: [] };
  let shrinking = false;
  let shrinkRequests = 0;
  let shrinks = 0;
  let last: { steps: Step[]; at: number; message: string; case: GeneratedCase } | undefined;
  let first: GeneratedCase | undefined;
  const failed = (steps: Step[], at: number, message: string, c: GeneratedCase) => {
    if (shrinking) shrinks++;
    else first = c;
    shrinking = true;
    last = { steps, at, message, case: c };
    return false;
  };
  const property = fc.asyncProperty(arbitrary, async (value) => {
    // Past the cap, a candidate counts as passing: fast-check keeps the smallest failure found so far.
    if (result.stopped || (shrinking && shrinkRequests >= o.shrinkRequests)) return true;
    const steps: Step[] = [];
    try {
      steps.push(...(await send(value)));
    } catch (err) {
      if (err instanceof GuardRefusal) {
        result.stopped = err.reason;
        return true;
      }
      // No answer after the retries of 7.1: a failure of this value (shrunk like any other).
      const c = (err as { generated?: GeneratedCase }).generated;
      if (!c) throw err;
      return failed(steps, steps.length, `${describeCase(c)}: ${(err as Error).message}`, c);
    }
    for (const s of steps)
      result.sent.push({ case: s.case, exchanges: [s.exchange], ...(shrinking && { shrinking: true }) });
    if (shrinking) shrinkRequests += steps.reduce((n, s) => n + 1 + s.exchange.transients, 0);
    const v = verdict(o.contract, steps);
    return v === undefined ? true : failed(steps, v.at, v.message, steps[v.at].case);
  });
  const remaining = Math.max(0, o.deadline - Date.now());
  const details = await fc.check(property, {
    numRuns: o.runs,
    seed: o.seed,
    ...(o.examples && { examples: o.examples.map((e) => [e as T] as [T]) }),
    plugins: [fc.interruptAfterTimeLimit(remaining)],
  });
  if (details.interrupted && !last)
    result.stopped ??= `the time budget (--max-time) ended after ${details.numRuns} of ${o.runs}`;
  if (details.failed && last && first)
    result.failure = {
      case: last.case,
      exchanges: last.steps.slice(0, last.at + 1).map((s) => s.exchange),
      before: last.steps.slice(0, last.at).map((s) => s.case),
      message: last.message,
      first,
      shrinks,
      shrinkRequests,
      path: details.counterexamplePath ?? undefined,
    };
  else if (details.failed && details.errorInstance && !last) throw details.errorInstance;
  return result;
}
