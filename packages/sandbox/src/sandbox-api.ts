// Sandbox-only endpoints under /_sandbox/ (a prefix no path of the service can take: the service's
// paths all live under /v1), declared in sandbox-api.yaml, not in the service's document. Each acts on
// the account of the key it is called with:
//   GET  /_sandbox/clock            the account's time
//   POST /_sandbox/clock/advance    move it forward N service seconds; when it answers, generations
//                                   have finished, URLs and videos expired, rate windows reset
//   POST /_sandbox/reset            back to the seed: videos, credits, clock, windows, faults, counters
//   GET|POST|DELETE /_sandbox/faults  behaviour injected for the account's next K requests
//   GET  /_sandbox/stats            statuses answered to the account on /v1 (the bench's 429s and 503s)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from './accounts.js';
import type { Context } from './context.js';
import { ApiError, invalidRequest } from './errors.js';
import { FAULT_KINDS, type Fault, type FaultKind } from './faults.js';
import { API_PREFIX } from './spec-routes.js';

export const SANDBOX_PREFIX = '/_sandbox';
/** Longest single advance: 10 years of service time (a bound, not a rule). */
const MAX_ADVANCE_SECONDS = 10 * 365 * 86400;
const MAX_FAULT_COUNT = 10_000;
const MAX_LATENCY_MS = 120_000;

function accountOf(ctx: Context, request: FastifyRequest): Account {
  const account = ctx.accounts.authenticate(request.headers.authorization);
  if (!account) throw new ApiError(401, 'UNAUTHORIZED', 'Send the API key of the account to act on: "Authorization: Bearer <API_KEY>".');
  return account;
}

function jsonBody(request: FastifyRequest): Record<string, unknown> {
  const raw = request.body;
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidRequest('The request body must be a JSON object.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isNum = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

export function registerSandboxApi(app: FastifyInstance, ctx: Context) {
  const clockView = (account: Account) => ({
    account: account.name,
    now: new Date(ctx.clock.now(account.name)).toISOString(),
    advanced_seconds: (ctx.clock.offset(account.name) * ctx.clock.timeScale) / 1000,
    time_scale: ctx.clock.timeScale,
  });

  app.get(`${SANDBOX_PREFIX}/clock`, async (request) => clockView(accountOf(ctx, request)));

  app.post(`${SANDBOX_PREFIX}/clock/advance`, async (request) => {
    const account = accountOf(ctx, request);
    const { seconds } = jsonBody(request);
    if (!isNum(seconds, 0, MAX_ADVANCE_SECONDS)) {
      throw invalidRequest(`seconds must be a number of service seconds from 0 to ${MAX_ADVANCE_SECONDS}.`);
    }
    // States are computed from the account's time when read, so moving the time is the whole work:
    // every later answer sees the videos, URLs and windows as they are at the new time.
    ctx.clock.advance(account.name, ctx.clock.ms(seconds));
    return clockView(account);
  });

  app.post(`${SANDBOX_PREFIX}/reset`, async (request) => {
    const account = accountOf(ctx, request);
    await ctx.store.resetAccount(account.name, ctx.accounts.initialCredits.get(account.name)!);
    ctx.clock.resetAccount(account.name);
    ctx.limiter.reset(account.name);
    ctx.faults.clear(account.name);
    ctx.stats.reset(account.name);
    return { ...clockView(account), reset: true, credits: ctx.store.creditsOf(account.name) };
  });

  const faultsView = (account: Account) => ({ account: account.name, faults: ctx.faults.pending(account.name) });
  app.get(`${SANDBOX_PREFIX}/faults`, async (request) => faultsView(accountOf(ctx, request)));
  app.delete(`${SANDBOX_PREFIX}/faults`, async (request) => {
    const account = accountOf(ctx, request);
    ctx.faults.clear(account.name);
    return faultsView(account);
  });
  app.post(`${SANDBOX_PREFIX}/faults`, async (request) => {
    const account = accountOf(ctx, request);
    const body = jsonBody(request);
    const kind = String(body.kind) as FaultKind;
    if (!FAULT_KINDS.includes(kind)) throw invalidRequest(`kind must be one of ${FAULT_KINDS.join(', ')}.`);
    const count = body.count ?? 1;
    if (!isInt(count, 1, MAX_FAULT_COUNT)) throw invalidRequest(`count must be an integer from 1 to ${MAX_FAULT_COUNT}.`);
    const fault: Fault = { kind, remaining: count };
    if (kind === 'latency') {
      if (!isNum(body.latency_ms, 0, MAX_LATENCY_MS)) throw invalidRequest(`latency_ms (real milliseconds, 0 to ${MAX_LATENCY_MS}) is required for a latency.`);
      fault.latency_ms = body.latency_ms;
    }
    if (body.retry_after_seconds !== undefined) {
      if (kind !== '429' && kind !== '503') throw invalidRequest('retry_after_seconds applies to a 429 or a 503.');
      if (!isNum(body.retry_after_seconds, 0, 86400)) throw invalidRequest('retry_after_seconds must be a number of service seconds from 0 to 86400.');
      fault.retry_after_seconds = body.retry_after_seconds;
    }
    if (body.error_code !== undefined) {
      if (kind !== '429' && kind !== '503' && kind !== '500') throw invalidRequest('error_code applies to a 429, a 503 or a 500.');
      if (typeof body.error_code !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(body.error_code)) throw invalidRequest('error_code must be an upper-case code such as SERVICE_UNAVAILABLE.');
      fault.error_code = body.error_code;
    }
    ctx.faults.add(account.name, fault);
    return faultsView(account);
  });

  app.get(`${SANDBOX_PREFIX}/stats`, async (request) => {
    const account = accountOf(ctx, request);
    return { account: account.name, responses: ctx.stats.of(account.name) };
  });

  // Every /v1 answer is counted per account and status (including the ones the sandbox refused).
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith(`${API_PREFIX}/`)) ctx.stats.record(request.account?.name, reply.statusCode);
    done();
  });
}
