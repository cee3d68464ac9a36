// What /_sandbox/ does, as functions: the HTTP endpoints (sandbox-api.ts) and the programmatic API of
// createSandbox (sb.clock, sb.faults, sb.reset, sb.stats) both call these, so the two never differ.
import type { Account } from './accounts.js';
import type { Context } from './context.js';
import { ApiError, invalidRequest } from './errors.js';
import { FAULT_KINDS, type Fault, type FaultKind } from './faults.js';

/** Longest single advance: 10 years of service time (a bound, not a rule). */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 86400;
const MAX_FAULT_COUNT = 10_000;
const MAX_LATENCY_MS = 120_000;

/** A fault to inject, as `POST /_sandbox/faults` takes it. */
export type FaultRequest =
  | {
      kind: 'latency' /** Real milliseconds added before the request is handled. */;
      latency_ms: number;
      count?: number;
    }
  | {
      kind: '429' | '503';
      count?: number;
      /** Retry-After in service seconds (default: the rate class's window for a 429, 30 for a 503). */
      retry_after_seconds?: number;
      /** Default RATE_LIMIT_EXCEEDED (429), SERVICE_UNAVAILABLE (503). */
      error_code?: string;
    }
  | { kind: '500'; count?: number /** Default UNKNOWN_ERROR. */; error_code?: string }
  | { kind: 'drop'; count?: number };

export interface ClockView {
  account: string;
  /** The account's time, ISO 8601. */
  now: string;
  /** Service seconds the account's time has been moved forward (the shared advance included). */
  advanced_seconds: number;
  time_scale: number;
}

/** An account named by one of its API keys or by its name; anything else is a programming error. */
export function accountNamed(ctx: Context, ref: string): Account {
  const account = ctx.accounts.authenticate(`Bearer ${ref}`) ?? ctx.accounts.all.get(ref);
  if (!account)
    throw new TypeError(
      `No sandbox account has the key or name ${JSON.stringify(ref)} (accounts: ${[...ctx.accounts.all.keys()].join(', ')})`,
    );
  return account;
}

export function clockView(ctx: Context, account: Account): ClockView {
  return {
    account: account.name,
    now: new Date(ctx.clock.now(account.name)).toISOString(),
    advanced_seconds: (ctx.clock.offset(account.name) * ctx.clock.timeScale) / 1000,
    time_scale: ctx.clock.timeScale,
  };
}

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isNum = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

/**
 * Moves time forward by service seconds: one account's (as `/_sandbox/clock/advance`), or every
 * account's when `account` is undefined. States are computed from the time when read, so moving the
 * time is the whole work: every later answer sees the videos, URLs and windows as they are then.
 */
export function advanceClock(ctx: Context, account: Account | undefined, seconds: unknown): void {
  if (!isNum(seconds, 0, MAX_ADVANCE_SECONDS))
    throw invalidRequest(`seconds must be a number of service seconds from 0 to ${MAX_ADVANCE_SECONDS}.`);
  ctx.clock.advance(account?.name, ctx.clock.ms(seconds));
}

/** Back to the seed: generated videos removed, credits refilled, own clock advance, rate windows, faults and counters cleared. */
export async function resetAccount(ctx: Context, account: Account): Promise<void> {
  await ctx.store.resetAccount(account.name, account.initialCredits);
  ctx.clock.resetAccount(account.name);
  await ctx.store.clockSaved;
  ctx.limiter.reset(account.name);
  ctx.twin.reset(account.name);
  ctx.faults.clear(account.name);
  ctx.stats.reset(account.name);
}

/** A fault request checked as the HTTP endpoint checks it (400 INVALID_REQUEST on a bad value). */
export function parseFault(body: Record<string, unknown>): Fault {
  const kind = String(body.kind) as FaultKind;
  if (!FAULT_KINDS.includes(kind)) throw invalidRequest(`kind must be one of ${FAULT_KINDS.join(', ')}.`);
  const count = body.count ?? 1;
  if (!isInt(count, 1, MAX_FAULT_COUNT)) throw invalidRequest(`count must be an integer from 1 to ${MAX_FAULT_COUNT}.`);
  const fault: Fault = { kind, remaining: count };
  if (kind === 'latency') {
    if (!isNum(body.latency_ms, 0, MAX_LATENCY_MS))
      throw invalidRequest(`latency_ms (real milliseconds, 0 to ${MAX_LATENCY_MS}) is required for a latency.`);
    fault.latency_ms = body.latency_ms;
  }
  if (body.retry_after_seconds !== undefined) {
    if (kind !== '429' && kind !== '503') throw invalidRequest('retry_after_seconds applies to a 429 or a 503.');
    if (!isNum(body.retry_after_seconds, 0, 86400))
      throw invalidRequest('retry_after_seconds must be a number of service seconds from 0 to 86400.');
    fault.retry_after_seconds = body.retry_after_seconds;
  }
  if (body.error_code !== undefined) {
    if (kind !== '429' && kind !== '503' && kind !== '500')
      throw invalidRequest('error_code applies to a 429, a 503 or a 500.');
    if (typeof body.error_code !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(body.error_code))
      throw invalidRequest('error_code must be an upper-case code such as SERVICE_UNAVAILABLE.');
    fault.error_code = body.error_code;
  }
  return fault;
}

/** An ApiError of the controls as a JavaScript error of the programmatic API (its message, a TypeError). */
export function asTypeError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ApiError) throw new TypeError(err.message);
    throw err;
  }
}
