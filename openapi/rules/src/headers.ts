// Parsers of the headers a service may send about its limits: Retry-After (RFC 9110 10.2.3) and the
// RateLimit-* fields (IETF draft, in its older `5;w=10` and newer `"name";q=5;w=10` forms).
// The sandbox scales its clock, so seconds may be decimals (`Retry-After: 0.25`).
import { RATE_LIMITS } from './generated/constants.js';

/** A header source: fetch `Headers`, or a plain object (node:http style, any case of names). */
export type HeaderSource =
  | { get(name: string): string | null }
  | Record<string, string | number | readonly string[] | undefined | null>;

/**
 * The ceiling of every wait or window a server announces (Retry-After, RateLimit-Reset, the window of
 * RateLimit-Policy): a larger value is read as this. A wait of hours is a misconfiguration (or a hostile
 * answer), every caller has its own ceiling below, and what one answer says is kept no longer than this.
 */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** One header's value from either kind of source (lists joined with ", "). */
export function headerValue(h: HeaderSource, name: string): string | undefined {
  if (typeof (h as { get?: unknown }).get === 'function')
    return (h as { get(n: string): string | null }).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() !== wanted || v == null) continue;
    return Array.isArray(v) ? v.join(', ') : String(v);
  }
  return undefined;
}

const SECONDS = /^\d+(?:\.\d+)?$/;
// IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT", asctime "Sun Nov  6 08:49:37 1994".
const HTTP_DATE =
  /^(?:[A-Za-z]{3,9}, \d{2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Retry-After → milliseconds to wait from `nowMs`, as the server said it: delta-seconds (decimals
 * accepted), or an HTTP-date (a date in the past → 0). Undefined when absent or not one of these
 * forms (negative, `soon`, `5s`, …): the caller then applies its own default. Uncapped: for reporting
 * what the server asked (an error's `retryAfterMs`); to wait, use parseRetryAfter.
 */
export function retryAfterMs(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  let ms: number;
  if (SECONDS.test(v)) ms = Number(v) * 1000;
  else if (HTTP_DATE.test(v)) ms = Date.parse(v) - nowMs;
  else return undefined;
  if (Number.isNaN(ms)) return undefined;
  return Math.max(0, Math.ceil(ms));
}

/** Retry-After → milliseconds to wait (retryAfterMs), capped at MAX_RETRY_AFTER_MS. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const ms = retryAfterMs(value, nowMs);
  return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_AFTER_MS);
}

export interface RateLimitPolicy {
  /** The policy's name (newer draft form), if given. */
  name?: string;
  /** Requests allowed per window. */
  limit: number;
  /** The window, in milliseconds. */
  windowMs: number;
}

export interface RateLimitInfo {
  /** RateLimit-Policy, one entry per policy (a header may list several). */
  policies: RateLimitPolicy[];
  /** RateLimit-Limit (or the q= of a combined RateLimit header). */
  limit?: number;
  /** RateLimit-Remaining (or r=). */
  remaining?: number;
  /** RateLimit-Reset (or t=), in milliseconds from now. */
  resetMs?: number;
}

/** Splits a structured-field list: `a;k=v, b;k=v` → [[item, {k: v}], …]. */
function items(value: string): Array<[string, Record<string, string>]> {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [head, ...params] = part.split(';').map((s) => s.trim());
      const map: Record<string, string> = {};
      for (const p of params) {
        const eq = p.indexOf('=');
        if (eq > 0)
          map[p.slice(0, eq).trim().toLowerCase()] = p
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
      }
      return [head, map];
    });
}

const number = (s: string | undefined): number | undefined =>
  s !== undefined && SECONDS.test(s.trim()) ? Number(s) : undefined;

/**
 * RateLimit-Policy / RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset (and the combined
 * `RateLimit: "name";r=0;t=3` of the newer draft) → numbers. Values that are not non-negative
 * numbers are ignored, never guessed.
 */
export function parseRateLimitHeaders(headers: HeaderSource): RateLimitInfo {
  const info: RateLimitInfo = { policies: [] };
  const policy = headerValue(headers, 'ratelimit-policy');
  if (policy) {
    for (const [head, params] of items(policy)) {
      // Older form: "5;w=10" (limit first); newer: "name";q=5;w=10.
      const limit = number(params.q) ?? number(head);
      const window = number(params.w);
      if (limit === undefined || window === undefined || window <= 0) continue;
      const name = number(head) === undefined ? head.replace(/^"(.*)"$/, '$1') : undefined;
      // A window over the ceiling is read as the ceiling, with the quota that keeps the stated rate.
      const windowMs = window * 1000;
      const capped = Math.min(windowMs, MAX_RETRY_AFTER_MS);
      info.policies.push({ ...(name && { name }), limit: (limit * capped) / windowMs, windowMs: capped });
    }
  }
  const first = (name: string) => {
    const v = headerValue(headers, name);
    return v === undefined ? undefined : number(items(v)[0]?.[0]);
  };
  const limit = first('ratelimit-limit');
  const remaining = first('ratelimit-remaining');
  const reset = first('ratelimit-reset');
  const combined = headerValue(headers, 'ratelimit');
  const c = combined ? items(combined)[0]?.[1] : undefined;
  const l = limit ?? number(c?.q) ?? info.policies[0]?.limit;
  const r = remaining ?? number(c?.r);
  const t = reset ?? number(c?.t);
  if (l !== undefined) info.limit = l;
  if (r !== undefined) info.remaining = r;
  if (t !== undefined) info.resetMs = Math.min(Math.ceil(t * 1000), MAX_RETRY_AFTER_MS);
  return info;
}

/**
 * The most a server's RateLimit-Policy may speed a reader up from the interface's limits (a sandbox's
 * `--time-scale`): read as this at most, by the pacer and by timeScaleOf. One answer saying
 * `1000;w=0.001` must not make every process send, poll and lease a million times faster; a target
 * faster still is told (`timeScale`, `--time-scale`).
 */
export const MAX_LEARNED_TIME_SCALE = 1000;

/**
 * The time scale a class-B RateLimit-Policy states: the interface's quota over a shorter window
 * (`5;w=0.1`: 100×), or its even spacing (`1;w=0.02`: 100×), as a sandbox started with --time-scale
 * sends it. A policy of another shape states other limits, not a faster clock: no time scale is read
 * from it (a pacer still follows it). Undefined for 1 or slower: the real service's time; at most
 * MAX_LEARNED_TIME_SCALE.
 */
export function timeScaleOf(policy: Pick<RateLimitPolicy, 'limit' | 'windowMs'> | undefined): number | undefined {
  if (!policy || policy.windowMs <= 0) return undefined;
  const { requests, windowMs } = RATE_LIMITS.B;
  const perRequest = windowMs / requests;
  const scale =
    policy.limit === requests
      ? windowMs / policy.windowMs
      : policy.limit === 1
        ? perRequest / policy.windowMs
        : undefined;
  // Rounded (the window is sent with a few decimals); 1 or slower is no time scale, and no faster one
  // than MAX_LEARNED_TIME_SCALE is believed.
  if (scale === undefined || !Number.isFinite(scale)) return undefined;
  const rounded = Number(scale.toPrecision(6));
  return rounded > 1 ? Math.min(rounded, MAX_LEARNED_TIME_SCALE) : undefined;
}
