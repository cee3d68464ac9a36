// What a check is, and the tools a check gets: skip with a reason, assert with the exchange in view.
import { describe as describeExchange, type Api, type Exchange } from '../http.ts';
import type { Run } from '../run.ts';
import type { FixtureIds } from '../target.ts';

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

/** An error response: the status, the envelope, and (when given) the exact error_code. */
export function ensureError(ex: Exchange, statuses: number[], code?: string): void {
  ensure(statuses.includes(ex.status), `expected ${statuses.join(' or ')}, got ${ex.status}`, ex);
  const b = ex.body as any;
  ensure(b && typeof b === 'object' && typeof b.error_code === 'string' && typeof b.error === 'string', 'error body is not the envelope {error_code, error}', ex);
  if (code) ensure(b.error_code === code, `expected error_code ${code}, got ${b.error_code}`, ex);
}

export function ensureStatus(ex: Exchange, status: number, what: string): any {
  ensure(ex.status === status, `${what}: expected ${status}, got ${ex.status}`, ex);
  return ex.body as any;
}
