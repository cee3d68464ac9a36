// What a check's judgement may say about recorded exchanges, and the rule it follows everywhere: it
// fails the target only for what the interface states. Where the expected value is one of this
// document's decisions (x-decision: a status, a code, the refusal itself, what a page past the end
// holds), any other answer the interface allows is a mismatch under that decision, never a failure.
import type { OperationId } from '@videogen/openapi/types';
import type { Exchange, Mismatch, ProblemKind } from '../shapes.ts';
import type { Answered } from './bodies.ts';
import type { Contract } from './contract.ts';
import { DecisionStop, Skip, Violation, describeExchange } from './outcomes.ts';

/** A response problem under a decision → what the drift report says differs. */
export const MISMATCH_KIND: Record<ProblemKind, Mismatch['kind']> = {
  status: 'status',
  headers: 'header',
  error_code: 'error_code',
  server_error: 'value',
  content_type: 'value',
  schema: 'value',
  envelope: 'value',
};

/** Fails the check unless `cond` holds; the exchange(s) that show it go into the message and the failure bundle. */
export function ensure(cond: unknown, message: string, ex?: Exchange | Exchange[]): asserts cond {
  if (!cond) throw new Violation(ex && !Array.isArray(ex) ? `${message}\n  ${describeExchange(ex)}` : message, ex);
}

export class Judge {
  readonly mismatches: Mismatch[] = [];
  /** What a pass rests on when it is less than the check's name says. */
  note?: string;

  constructor(readonly contract: Contract) {}

  /** A difference from decision(s) `decision`; the judgement goes on. */
  mismatch(decision: number[], kind: Mismatch['kind'], message: string, ex?: Exchange): void {
    this.mismatches.push({
      decision,
      kind,
      message: ex ? `${message}\n  ${describeExchange(ex)}` : message,
      exchange: ex,
    });
  }

  /** A difference from a decision after which nothing more can be judged (no body to read). */
  mismatchAndStop(decision: number[], kind: Mismatch['kind'], message: string, ex?: Exchange): never {
    this.mismatch(decision, kind, message, ex);
    throw new DecisionStop();
  }

  skip(reason: string): never {
    throw new Skip(reason);
  }

  /** The exchange a scenario should have recorded; its absence means an earlier answer stopped the scenario. */
  present<T>(value: T | undefined, what: string): T {
    if (value === undefined)
      throw new Violation(
        `${what} was not sent: an earlier answer of the same scenario stopped it (see the failure of that check)`,
      );
    return value;
  }

  /**
   * A success: the body, for the judgement to go on. Another 2xx differs from decision #2 only (the
   * interface shows no success status). A 4xx or 3xx instead of the success is a failure, unless the
   * success itself is our decision (`decided`, e.g. a page past the end, #30): then a mismatch, and the
   * judgement stops. A 5xx is a failure (it persisted past the retries of 7.1). The body is read as the
   * operation's success names it, each value still to check.
   */
  success<Id extends OperationId>(ex: Exchange<Id>, what: string, decided?: number[]): Answered<Id> {
    if (ex.status >= 200 && ex.status < 300) {
      if (ex.status !== 200) {
        const d = this.contract.decisionFor(ex.operationId, 200);
        if (d) this.mismatch(d, 'status', `${what}: expected 200, got ${ex.status}`, ex);
        else ensure(false, `${what}: expected 200, got ${ex.status}`, ex);
      }
      // (Whatever it is: a field a check reads is checked there, and the response checks judge the schema.)
      return ex.body as Answered<Id>;
    }
    if (decided && ex.status < 500)
      this.mismatchAndStop(decided, 'status', `${what}: expected 200, got ${ex.status}`, ex);
    throw new Violation(`${what}: expected 200, got ${ex.status}\n  ${describeExchange(ex)}`, ex);
  }

  /**
   * A refusal with one of `statuses`, the envelope of 7.1 and (when given) the exact error_code.
   * - the status differs, but the target still refused (another 4xx): a mismatch when every expected
   *   status is our decision (x-decision on the declared response), else a failure;
   * - the target accepted (2xx): a failure, unless the refusal itself is our decision (`decided`, e.g.
   *   a setting used with fields it does not list, #26): then a mismatch, and the judgement stops;
   * - a 5xx, or anything else: a failure.
   * The code: another code is a mismatch when the expected one is our decision (x-enumDecisions).
   */
  refusal(ex: Exchange, statuses: number[], code?: string, decided?: number[]): void {
    if (!statuses.includes(ex.status)) {
      const expected = `expected ${statuses.join(' or ')}, got ${ex.status}`;
      if (ex.status >= 200 && ex.status < 300 && decided)
        this.mismatchAndStop(decided, 'value', `accepted: ${expected}`, ex);
      const ours = statuses.map((s) => this.contract.decisionFor(ex.operationId, s));
      if (ex.status >= 400 && ex.status < 500 && ours.every(Boolean))
        this.mismatch([...new Set(ours.flat() as number[])], 'status', expected, ex);
      else throw new Violation(`${expected}\n  ${describeExchange(ex)}`, ex);
    }
    const b = ex.body as { error_code?: unknown; error?: unknown } | undefined;
    ensure(
      b && typeof b === 'object' && typeof b.error_code === 'string' && typeof b.error === 'string',
      'error body is not the envelope {error_code, error}',
      ex,
    );
    if (code && b.error_code !== code) {
      const d = this.contract.decisionFor(ex.operationId, statuses[0], code);
      if (d) this.mismatch(d, 'error_code', `expected error_code ${code}, got ${b.error_code}`, ex);
      else throw new Violation(`expected error_code ${code}, got ${b.error_code}\n  ${describeExchange(ex)}`, ex);
    }
  }
}
