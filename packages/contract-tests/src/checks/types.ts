// What a check is, and the tools a check gets: skip with a reason, assert with the exchange in view.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe as describeExchange, type Api, type Exchange } from '../http.ts';
import type { Run } from '../run.ts';
import type { FixtureIds } from '../target.ts';
import { loadContract } from '../spec.ts';

export interface Check {
  /** operationId of the operation the check is about. */
  operation: string;
  name: string;
  run(ctx: CheckContext): Promise<void>;
}

/** Thrown to skip a check; the reason is reported. */
export class SkipError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipError';
  }
}

/**
 * A difference from one of this document's decisions (DECISIONS.md), not from the interface: the
 * target chose differently where the interface is silent. Recorded, and the check goes on.
 */
export interface Mismatch {
  decision: number[];
  /** What differs: the status, the error code, a header, or a value of the body or a behaviour. */
  kind: 'status' | 'error_code' | 'header' | 'value';
  message: string;
  exchange?: Exchange;
}

// The mismatches of the check running in this async context. Not one module-wide list: runs may
// share a process concurrently (the self-test runs its breaks at once), and one run's runner must not
// take another's.
const scope = new AsyncLocalStorage<Mismatch[]>();

/** Runs `fn` (one check) collecting the mismatches it records into `found`. */
export function collectingMismatches<T>(found: Mismatch[], fn: () => Promise<T>): Promise<T> {
  return scope.run(found, fn);
}

export function mismatch(decision: number[], kind: Mismatch['kind'], message: string, ex?: Exchange): void {
  const found = scope.getStore();
  if (!found) throw new Error('mismatch() called outside a check (runOne)');
  found.push({ decision, kind, message: ex ? `${message}\n  ${describeExchange(ex)}` : message, exchange: ex });
}

/** A breach of the contract found by a check. */
export class ContractViolation extends Error {
  /** The exchanges that show it (made by an earlier check too, e.g. a shared video): failure bundles add them. */
  readonly exchanges: Exchange[];
  constructor(message: string, shown?: Exchange | Exchange[]) {
    super(message);
    this.exchanges = shown === undefined ? [] : Array.isArray(shown) ? shown : [shown];
    this.name = 'ContractViolation';
  }
}

export interface CheckContext {
  run: Run;
  main: Api;
  anon: Api;
  skip(reason: string): never;
  /** Skip unless the profile is `full` (the check creates videos, converts or bursts). */
  requireFull(what: string): void;
  /** Skip unless the target keeps state (not the Prism mock). */
  requireStateful(why: string): void;
  /** A fixture id, or skip naming the environment variable that would provide it. */
  fixture(name: keyof FixtureIds): Promise<string>;
  other(): Api;
}

export function ensure(cond: unknown, message: string, ex?: Exchange | Exchange[]): asserts cond {
  if (!cond) throw new ContractViolation(ex && !Array.isArray(ex) ? `${message}\n  ${describeExchange(ex)}` : message, ex);
}

export function check(operation: string, name: string, run: (ctx: CheckContext) => Promise<void>): Check {
  return { operation, name, run };
}

/**
 * An error response: the status, the envelope, and (when given) the exact error_code. A status or code
 * that only this document chose (an x-decision on the expected response, or an invented code) is
 * recorded as a mismatch with that decision when the target answered another error of the same class.
 */
export function ensureError(ex: Exchange, statuses: number[], code?: string): void {
  const contract = loadContract();
  if (!statuses.includes(ex.status)) {
    const decided = statuses.map((s) => contract.decisionFor(ex.operationId, s));
    const sameClass = statuses.some((s) => Math.floor(s / 100) === Math.floor(ex.status / 100));
    if (sameClass && decided.every(Boolean)) mismatch([...new Set(decided.flat() as number[])], 'status', `expected ${statuses.join(' or ')}, got ${ex.status}`, ex);
    else throw new ContractViolation(`expected ${statuses.join(" or ")}, got ${ex.status}\n  ${describeExchange(ex)}`, ex);
  }
  const b = ex.body as any;
  ensure(b && typeof b === 'object' && typeof b.error_code === 'string' && typeof b.error === 'string', 'error body is not the envelope {error_code, error}', ex);
  if (code && b.error_code !== code) {
    const decided = contract.decisionFor(ex.operationId, statuses[0], code);
    if (decided) mismatch(decided, 'error_code', `expected error_code ${code}, got ${b.error_code}`, ex);
    else throw new ContractViolation(`expected error_code ${code}, got ${b.error_code}\n  ${describeExchange(ex)}`, ex);
  }
}

/**
 * A success with the status this document chose: another 2xx is a mismatch with that decision (the
 * interface shows no success status), and the body is returned for the check to go on.
 */
export function ensureStatus(ex: Exchange, status: number, what: string): any {
  if (ex.status !== status && Math.floor(ex.status / 100) === 2 && Math.floor(status / 100) === 2) {
    const decided = loadContract().decisionFor(ex.operationId, status);
    if (decided) {
      mismatch(decided, 'status', `${what}: expected ${status}, got ${ex.status}`, ex);
      return ex.body as any;
    }
  }
  ensure(ex.status === status, `${what}: expected ${status}, got ${ex.status}`, ex);
  return ex.body as any;
}
