// The behaviours whose value the interface states (its numbers, generated from the document into the
// rules): a twin may leave those values out (provenance `interface`), and the reader fills them in, so
// that the built-in twins do not restate the document's limits.
import { MAX_RUNNING, RATE_LIMITS } from '@videogen/openapi/rules';

const STATED = new Map<string, { value: unknown; section: string }>();
for (const [cls, limit] of Object.entries(RATE_LIMITS)) {
  STATED.set(`rate_limit.${cls}.limit`, { value: limit.requests, section: '8.1' });
  STATED.set(`rate_limit.${cls}.window_seconds`, { value: limit.windowMs / 1000, section: '8.1' });
}
STATED.set('concurrency.limit', { value: MAX_RUNNING, section: '8.2' });

/** The value the interface states for a behaviour, or undefined when it states none. */
export function interfaceValue(key: string): unknown {
  return STATED.get(key)?.value;
}

/** The section of the interface that states each of those behaviours. */
export const INTERFACE_SECTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  [...STATED].map(([key, { section }]) => [key, section]),
);
