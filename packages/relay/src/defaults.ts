// The relay's defaults, alone (`@videogen/relay/defaults`): what `videogen relay --help` prints, read
// without loading the relay itself (its Redis client, its HTTP server) into every other command.
import { POLLING } from '@videogen/openapi/rules';

/**
 * Svix's retry schedule (and the issue's): the first attempt at once, then after 5 s, 5 min, 30 min,
 * 2 h, 5 h and 10 h; then the event is dead-lettered. Attempt n waits schedule[n - 1] after the previous.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
];

/** How long a receiver has to answer an attempt (Svix allows 15 s): no answer by then is a failure. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** The defaults of the relay's options, in one place (the command's --help reads them). */
export const DEFAULTS = {
  stateFile: 'videogen-relay.json',
  pollIntervalMs: POLLING.intervalMs,
  listIntervalMs: 20_000,
  maxListPages: 3,
  retryScheduleMs: RETRY_SCHEDULE_MS,
  deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
  leaseMs: 30_000,
  concurrency: 8,
  backfillMs: 10 * 60_000,
  maxWatchMs: 24 * 3600_000,
} as const;
