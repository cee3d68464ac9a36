// Routes come from the document: every operation of listOperations() becomes a Fastify route under
// /v1, authenticated and rate-limited per account, with its path and query parameters validated by
// Ajv against the parameter schemas of the document.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '@videogen/openapi';
import { ApiError, invalidRequest } from './errors.js';
import type { Context } from './context.js';
import { rateLimitOf } from './spec.js';

export type Params = Record<string, unknown>;
export type OperationHandler = (request: FastifyRequest, reply: FastifyReply, params: Params) => Promise<unknown>;

export const API_PREFIX = '/v1';
export const fastifyPath = (specPath: string) => API_PREFIX + specPath.replace(/\{([^}]+)\}/g, ':$1');

export function registerSpecRoutes(app: FastifyInstance, ctx: Context, handlers: Record<string, OperationHandler>) {
  for (const op of ctx.model.operations) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`the document has an operation ${op.operationId} that the sandbox does not implement`);
    const validateParams = compileParameters(ctx, op);
    const rate = rateLimitOf(op);
    app.route({
      method: op.method as any,
      url: fastifyPath(op.path),
      exposeHeadRoute: false,
      config: { operation: op },
      // Callback style, not async: this runs on every request, and a promise per request is measurable.
      onRequest: (request, reply, done) => {
        const account = ctx.accounts.authenticate(request.headers.authorization);
        if (!account) {
          return done(new ApiError(401, 'UNAUTHORIZED', 'Authentication failed: send a valid API key as "Authorization: Bearer <API_KEY>".'));
        }
        request.account = account;
        const d = ctx.limiter.take(account.name, rate.class, rate.requests, rate.window_seconds);
        reply.header('RateLimit-Limit', String(d.limit));
        reply.header('RateLimit-Remaining', String(d.remaining));
        reply.header('RateLimit-Reset', ctx.clock.headerSeconds(d.resetMs));
        reply.header('RateLimit-Policy', `${d.limit};w=${ctx.clock.headerSeconds(d.windowMs)}`);
        if (!d.allowed) {
          const wait = ctx.clock.headerSeconds(d.resetMs);
          return done(
            new ApiError(
              429,
              'RATE_LIMIT_EXCEEDED',
              `Rate limit exceeded (class ${rate.class}, ${rate.requests} requests per ${rate.window_seconds} seconds). Retry after ${wait} seconds.`,
              { 'Retry-After': wait },
            ),
          );
        }
        done();
      },
      handler: async (request, reply) => handler(request, reply, validateParams(request)),
    });
  }
}

/** Strict string → typed value for query/path values ("1" → 1; "1.5", "1e0", " 1" stay strings and fail). */
function coerce(value: unknown, schema: any): unknown {
  if (typeof value !== 'string') return value;
  if (schema?.type === 'integer' && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (schema?.type === 'number' && /^-?\d{1,15}(\.\d{1,15})?$/.test(value)) return Number(value);
  if (schema?.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function compileParameters(ctx: Context, op: Operation): (request: FastifyRequest) => Params {
  const checks = op.parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({ p, validate: ctx.model.ajv.compile(p.schema ?? {}) }));
  return (request) => {
    const out: Params = {};
    for (const { p, validate } of checks) {
      const source = (p.in === 'path' ? request.params : request.query) as Record<string, unknown>;
      let value = source?.[p.name];
      if (value === undefined) {
        if (p.required) throw invalidRequest(`${p.name} is required.`);
        if (p.schema?.default === undefined) continue;
        value = p.schema.default;
      }
      value = coerce(value, p.schema);
      if (!validate(value)) {
        const rule = describe(p.schema);
        throw invalidRequest(`${p.name} must be ${rule}.`);
      }
      out[p.name] = value;
    }
    return out;
  };
}

function describe(schema: any): string {
  if (schema?.format === 'uuid') return 'a UUID';
  if (schema?.type === 'integer') return schema.minimum !== undefined ? `an integer of at least ${schema.minimum}` : 'an integer';
  return `a valid ${schema?.type ?? 'value'}`;
}
