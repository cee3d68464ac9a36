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
import { advanceClock, clockView, parseFault, resetAccount } from './controls.js';
import { ApiError, invalidRequest } from './errors.js';

export const SANDBOX_PREFIX = '/_sandbox';

function accountOf(ctx: Context, request: FastifyRequest): Account {
  const account = ctx.accounts.authenticate(request.headers.authorization);
  if (!account)
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      'Send the API key of the account to act on: "Authorization: Bearer <API_KEY>".',
    );
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
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

export function registerSandboxApi(app: FastifyInstance, ctx: Context) {
  app.get(`${SANDBOX_PREFIX}/clock`, async (request) => clockView(ctx, accountOf(ctx, request)));

  app.post(`${SANDBOX_PREFIX}/clock/advance`, async (request) => {
    const account = accountOf(ctx, request);
    advanceClock(ctx, account, jsonBody(request).seconds);
    // Answered once the new time is kept (a data dir): an acknowledged advance survives a restart.
    await ctx.store.clockSaved;
    return clockView(ctx, account);
  });

  app.post(`${SANDBOX_PREFIX}/reset`, async (request) => {
    const account = accountOf(ctx, request);
    await resetAccount(ctx, account);
    return { ...clockView(ctx, account), reset: true, credits: ctx.store.creditsOf(account.name) };
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
    ctx.faults.add(account.name, parseFault(jsonBody(request)));
    return faultsView(account);
  });

  app.get(`${SANDBOX_PREFIX}/stats`, async (request) => {
    const account = accountOf(ctx, request);
    return { account: account.name, responses: ctx.stats.of(account.name) };
  });
}
