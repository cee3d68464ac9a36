// What each tool costs, in the words a model reads in its description: a credit or none, the rate class
// of the requests it sends, and the running slot a start holds. Every number comes from the document's
// constants (OPERATIONS, RATE_LIMITS, MAX_RUNNING, POLLING, PAGE_SIZE), never written here.
import {
  MAX_RUNNING,
  OPERATIONS,
  type OperationId,
  PAGE_SIZE,
  POLLING,
  RATE_LIMITS,
  type RateClass,
} from '@videogen/openapi/rules';

const seconds = (ms: number) => `${ms / 1000} s`;

export function operation(id: OperationId) {
  const op = OPERATIONS.find((o) => o.operationId === id);
  if (!op) throw new TypeError(`no operation ${id} in the document`);
  return op;
}

/** "rate class A (2 requests per 10 s per account)". */
export function rateClassPhrase(rateClass: RateClass): string {
  const { requests, windowMs } = RATE_LIMITS[rateClass];
  return `rate class ${rateClass} (${requests} requests per ${seconds(windowMs)} per account)`;
}

/** The cost sentence of a tool that sends `id` (once, or once per `per`). */
export function costOf(id: OperationId, per?: string): string {
  const op = operation(id);
  const rate = `one ${rateClassPhrase(op.rateClass)} request${per ? ` ${per}` : ''}`;
  if (op.startsVideo)
    return (
      `Cost: spends credit for one video when the service accepts it (the service states no price; it answers INSUFFICIENT_CREDIT when the balance is short); ` +
      `${rate}; holds one of the account's ${MAX_RUNNING} running slots (generations and conversions share them) until the video finishes.`
    );
  return `Cost: no credit; ${rate}.`;
}

/** Shared by every description: the server keeps the account's limits, so a model need not. */
export const PACED =
  'This server paces every request to the account\'s limits (shared with the account\'s other processes when VIDEO_API_PACING_URL is set): it never meets "too many requests".';

/** The polling rule of the interface (4.7), in seconds. */
export const POLL_SECONDS = POLLING.intervalMs / 1000;
export const MAX_WAIT_SECONDS = POLLING.timeoutMs / 1000;
export { PAGE_SIZE };
