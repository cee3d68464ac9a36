// How a scenario or a judge ends other than by passing: a skip with its reason, a breach of the
// contract with the exchanges that show it, a fixture that could not be looked for because the target
// answered an error, a refusal of the run's own guard.
import type { Exchange } from '../shapes.ts';

/** One line that identifies an exchange in a message. */
export function describeExchange(ex: Exchange): string {
  const body = ex.text.length > 300 ? ex.text.slice(0, 300) + '…' : ex.text;
  return `${ex.method} ${ex.path} (${ex.auth}) → ${ex.status} ${ex.contentType} ${body}`;
}

/** The check cannot be judged on this target, for a reason that is not an error of the target. */
export class Skip extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Skip';
  }
}

/** A breach of the contract. */
export class Violation extends Error {
  /** The exchanges that show it (sent by a shared scenario too): failure bundles add them. */
  readonly exchanges: Exchange[];
  /** The classes of input it fails for (generated requests: `page: 2^31`), for the reports. */
  inputClasses?: string[];
  constructor(message: string, shown?: Exchange | Exchange[]) {
    super(message);
    this.exchanges = shown === undefined ? [] : Array.isArray(shown) ? shown : [shown];
    this.name = 'Violation';
  }
}

/**
 * What a check needs could not be looked for: the answer it rests on was an error (after the retries of
 * 7.1). Never a skip: a skip reason is never derived from an error answer. The check fails, naming it.
 */
export class Blocked extends Violation {
  constructor(what: string, ex: Exchange) {
    super(
      `${what}: the target answered ${ex.status} (after the retries of 7.1), so this could not be judged\n  ${describeExchange(ex)}`,
      ex,
    );
    this.name = 'Blocked';
  }
}

/** The judgement stops at a difference from one of our decisions: the check ends as drift, not failed. */
export class DecisionStop extends Error {
  constructor() {
    super('decision mismatch');
    this.name = 'DecisionStop';
  }
}

/** The run's own guard refused to send a generation or conversion (credit budget, no-credit profile). */
export class GuardRefusal extends Skip {
  constructor(reason: string) {
    super(reason);
    this.name = 'GuardRefusal';
  }
}

/**
 * Sends `steps` one after another until the guard refuses one: what was answered is kept (a target that
 * accepted a request it should refuse is judged on that answer), and why the rest was not sent.
 */
export async function untilGuard<T>(steps: Array<() => Promise<T>>): Promise<{ sent: T[]; stopped?: string }> {
  const sent: T[] = [];
  for (const step of steps) {
    try {
      sent.push(await step());
    } catch (err) {
      if (err instanceof GuardRefusal) return { sent, stopped: err.reason };
      throw err;
    }
  }
  return { sent };
}
