// Routes come from the document: every operation of listOperations() becomes a Fastify route under
// /v1, authenticated and rate-limited per account, with its path and query parameters validated by
// Ajv against the parameter schemas of the document.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '@videogen/openapi';
import { ApiError, invalidRequest } from './errors.js';
import type { Context } from './context.js';
import type { ErrorCause } from './personality.js';
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
        const fail = (err: ApiError, cause: Partial<ErrorCause> = {}) => done(ctx.personality.error(op, err, { now: ctx.clock.now(), ...cause }));
        const account = ctx.accounts.authenticate(request.headers.authorization);
        if (!account) {
          return fail(new ApiError(401, 'UNAUTHORIZED', 'Authentication failed: send a valid API key as "Authorization: Bearer <API_KEY>".'), {
            authorization: request.headers.authorization,
          });
        }
        request.account = account;
        const limit = () => {
          const d = ctx.limiter.take(account.name, rate.class, rate.requests, rate.window_seconds);
          if (ctx.personality.rateLimitHeaders) {
            reply.header('RateLimit-Limit', String(d.limit));
            reply.header('RateLimit-Remaining', String(d.remaining));
            reply.header('RateLimit-Reset', ctx.clock.headerSeconds(d.resetMs));
            reply.header('RateLimit-Policy', `${d.limit};w=${ctx.clock.headerSeconds(d.windowMs)}`);
          }
          if (!d.allowed) {
            const wait = ctx.clock.headerSeconds(d.resetMs);
            return fail(
              new ApiError(
                429,
                'RATE_LIMIT_EXCEEDED',
                `Rate limit exceeded (class ${rate.class}, ${rate.requests} requests per ${rate.window_seconds} seconds, enforced ${ctx.limiter.styleName === 'even' ? 'evenly' : `as a ${ctx.limiter.styleName} window`}). Retry after ${wait} seconds.`,
                { 'Retry-After': wait },
              ),
            );
          }
          done();
        };
        const fault = ctx.faults.take(account.name);
        if (!fault) return limit();
        switch (fault.kind) {
          case 'latency':
            setTimeout(limit, fault.latency_ms ?? 0);
            return;
          case 'drop':
            // Closes the connection without an answer (in-process: the injected response, so sb.fetch fails as fetch would).
            reply.raw.destroy();
            return;
          case '429':
          case '503': {
            const wait = ctx.clock.headerSeconds(ctx.clock.ms(fault.retry_after_seconds ?? (fault.kind === '429' ? rate.window_seconds : 30)));
            const code = fault.error_code ?? (fault.kind === '429' ? 'RATE_LIMIT_EXCEEDED' : 'SERVICE_UNAVAILABLE');
            return fail(new ApiError(Number(fault.kind), code, `Injected by /_sandbox/faults: ${fault.kind} ${code}. Retry after ${wait} seconds.`, { 'Retry-After': wait }));
          }
          case '500':
            return fail(new ApiError(500, fault.error_code ?? 'UNKNOWN_ERROR', 'Injected by /_sandbox/faults: an unexpected error occurred.'));
        }
      },
      handler: async (request, reply) => {
        try {
          const params = validateParams(request);
          let body: any = await handler(request, reply, params);
          // A page past the end: the alternative answers the last page (2.5: "page number returned").
          if (ctx.personality.clampPage && Array.isArray(body?.results) && !body.results.length && body.total_count > 0 && body.page > 1) {
            body = await handler(request, reply, { ...params, page: Math.ceil(body.total_count / body.items_per_page) });
          }
          reply.code(ctx.personality.successStatus(op));
          return ctx.personality.body(op, body);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          throw ctx.personality.error(op, err, { now: ctx.clock.now(), pathParameter: (err as ParamError).parameterIn === 'path' });
        }
      },
    });
  }
}

/** A parameter that failed its schema, and where it was. */
type ParamError = ApiError & { parameterIn?: string };

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
        if (p.required) throw Object.assign(invalidRequest(`${p.name} is required.`), { parameterIn: p.in });
        if (p.schema?.default === undefined) continue;
        value = p.schema.default;
      }
      value = coerce(value, p.schema);
      if (!validate(value)) {
        const rule = describe(p.schema);
        throw Object.assign(invalidRequest(`${p.name} must be ${rule}.`), { parameterIn: p.in });
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
