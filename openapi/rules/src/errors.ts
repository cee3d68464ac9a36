// Interface 7.1: what an error answer means and whether waiting can help. The one classifier of
// the client, the CLI and the contract suite.
import { RETRY_POLICY } from './generated/constants.js';

export type ErrorKind =
  | 'auth'
  | 'not_found'
  | 'rate_limit'
  | 'insufficient_credit'
  | 'concurrency'
  | 'unavailable'
  | 'validation'
  | 'server'
  | 'api';

export interface ErrorClass {
  kind: ErrorKind;
  /** Whether sending the same request again (after `wait`) can succeed. */
  retryable: boolean;
  /**
   * What to wait for before a retry: `rate-limit` until the rate limit resets (429; Retry-After /
   * RateLimit-Reset when sent), `server-load` 30–60 s (503, RETRY_POLICY.serviceUnavailableDelayMs),
   * `backoff` exponential (other 5xx, at most RETRY_POLICY.maxRetries times), `none`: do not retry.
   */
  wait: 'rate-limit' | 'server-load' | 'backoff' | 'none';
}

/** (status, error_code) pairs that x-retry-policy never retries although their status is (429 INSUFFICIENT_CREDIT). */
const noRetry = (status: number, code: string | undefined) =>
  code !== undefined && RETRY_POLICY.noRetry.some(([s, c]) => s === status && c === code);

/**
 * An error answer → its kind, and whether and how to retry it (x-retry-policy). A 429 whose code
 * is INSUFFICIENT_CREDIT is the credit balance (7.2), not the rate limit: kind `insufficient_credit`,
 * never retried (waiting adds no credit; x-retry-policy says so). Any other 429, with another code or
 * no body at all, is the rate limit.
 */
export function classifyError(status: number, error_code?: string | null): ErrorClass {
  const code = error_code ?? undefined;
  const kind = kindOf(status, code);
  if (noRetry(status, code)) return { kind, retryable: false, wait: 'none' };
  if (status === 429) return { kind, retryable: true, wait: 'rate-limit' };
  if (status === 503) return { kind, retryable: true, wait: 'server-load' };
  if (status >= 500 && status <= 599) return { kind, retryable: true, wait: 'backoff' };
  return { kind, retryable: false, wait: 'none' };
}

function kindOf(status: number, code: string | undefined): ErrorKind {
  if (code === 'INSUFFICIENT_CREDIT' && (status === 429 || status === 403)) return 'insufficient_credit';
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (code === 'SIMULTANEOUS_GENERATE_LIMIT') return 'concurrency';
  if (status === 503) return 'unavailable';
  if (status >= 500 && status <= 599) return 'server';
  if (status === 400 || status === 413 || status === 422) return 'validation';
  return 'api';
}
