// One lane of generated requests run as a fast-check property: `runs` cases drawn from a seed, each sent
// (paced by the run's pacer, like every request) and judged; the first that fails is shrunk to the
// smallest request that still fails, within a cap of requests (every try is a request to a paced,
// possibly costly target), and kept with its exchanges for a replay bundle. A wall-time deadline ends
// the lane between two cases; the run's credit guard ends it at once.
import fc from 'fast-check';
import { Judge } from '../engine/judge.ts';
import { GuardRefusal, Violation } from '../engine/outcomes.ts';
import type { Contract } from '../engine/contract.ts';
import type { Exchange } from '../shapes.ts';
import { describeCase, type GeneratedCase } from './cases.ts';
import { judgeCase } from './judge.ts';

/** A case as sent: its answers (one, or a sequence's several) in order. */
export interface SentCase {
  case: GeneratedCase;
  exchanges: Exchange[];
  /** Sent while shrinking a failure (not one of the lane's `runs`). */
  shrinking?: boolean;
}

export interface LaneFailure {
  /** The smallest failing case found (fast-check's shrunk counterexample). */
  case: GeneratedCase;
  exchanges: Exchange[];
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
}

/** Whether a case's answers pass, judged as the checks will judge them (mismatches are drift: they pass). */
function verdict(contract: Contract, c: GeneratedCase, exchanges: Exchange[]): string | undefined {
  for (const ex of exchanges) {
    const j = new Judge(contract);
    try {
      judgeCase(c, ex, j);
    } catch (err) {
      if (err instanceof Violation) return err.message;
      if ((err as Error).name === 'DecisionStop') continue;
      throw err;
    }
  }
  return undefined;
}

export async function runLane(
  arbitrary: fc.Arbitrary<GeneratedCase>,
  send: (c: GeneratedCase) => Promise<Exchange[]>,
  o: LaneOptions,
): Promise<LaneResult> {
  const result: LaneResult = { name: o.name, seed: o.seed, sent: [] };
  let shrinking = false;
  let shrinkRequests = 0;
  let shrinks = 0;
  let last: { case: GeneratedCase; exchanges: Exchange[]; message: string } | undefined;
  let first: GeneratedCase | undefined;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    // Past the cap, a candidate counts as passing: fast-check keeps the smallest failure found so far.
    if (result.stopped || (shrinking && shrinkRequests >= o.shrinkRequests)) return true;
    let exchanges: Exchange[];
    try {
      exchanges = await send(c);
    } catch (err) {
      if (err instanceof GuardRefusal) {
        result.stopped = err.reason;
        return true;
      }
      // No answer after the retries of 7.1: a failure of this case (shrunk like any other).
      exchanges = [];
      const message = `${describeCase(c)}: ${(err as Error).message}`;
      if (shrinking) shrinks++;
      else first = c;
      shrinking = true;
      last = { case: c, exchanges, message };
      return false;
    }
    result.sent.push({ case: c, exchanges, ...(shrinking && { shrinking: true }) });
    if (shrinking) shrinkRequests += exchanges.length + exchanges.reduce((n, e) => n + e.transients, 0);
    const failed = verdict(o.contract, c, exchanges);
    if (failed === undefined) return true;
    if (shrinking) shrinks++;
    else first = c;
    shrinking = true;
    last = { case: c, exchanges, message: failed };
    return false;
  });
  const remaining = Math.max(0, o.deadline - Date.now());
  const details = await fc.check(property, {
    numRuns: o.runs,
    seed: o.seed,
    plugins: [fc.interruptAfterTimeLimit(remaining)],
  });
  if (details.interrupted && !last)
    result.stopped ??= `the time budget (--max-time) ended after ${details.numRuns} of ${o.runs} cases`;
  if (details.failed && last && first)
    result.failure = {
      case: last.case,
      exchanges: last.exchanges,
      message: last.message,
      first,
      shrinks,
      shrinkRequests,
      path: details.counterexamplePath ?? undefined,
    };
  else if (details.failed && details.errorInstance && !last) throw details.errorInstance;
  return result;
}
