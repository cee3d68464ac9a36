// Routes come from the document: every operation of listOperations() becomes a Fastify route under
// /v1, authenticated and rate-limited per account, with its path and query parameters validated by
// Ajv against the parameter schemas of the document. Each operation has its handler, typed by its
// operationId from @videogen/openapi/types the way openapi-msw types MSW handlers: its path and query
// parameters, and the success body it answers.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Operation, SchemaObject } from '@videogen/openapi';
import type { FilledQueryParams, OperationId, PathParams, SuccessBody } from '@videogen/openapi/types';
import { ApiError, invalidRequest } from './errors.js';
import type { Context } from './context.js';
import type { Account } from './accounts.js';
import type { Fault } from './faults.js';
import { rateLimitOf } from './spec.js';
import { Json, JSON_CONTENT_TYPE } from './json-body.js';

/** What an operation's handler is given: the request, once authenticated and its parameters checked. */
export interface OperationInput<Id extends OperationId> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The caller's account (the key was checked before any handler runs). */
  account: Account;
  /** The path parameters, each valid against its schema. */
  path: PathParams<Id>;
  /** The query parameters, each valid against its schema, the document's defaults filled in. */
  query: FilledQueryParams<Id>;
}
/** What a handler answers: the operation's success body as the document types it, or that body serialized once. */
export type OperationAnswer<Id extends OperationId> = SuccessBody<Id> | Json<SuccessBody<Id>>;
/** An operation's handler; it throws an ApiError for any other answer (the personality words it). */
export type OperationHandler<Id extends OperationId> = (
  input: OperationInput<Id>,
) => OperationAnswer<Id> | Promise<OperationAnswer<Id>>;
/** One handler for every operation of the document: a new operation does not compile until the sandbox serves it. */
export type OperationHandlers = { [Id in OperationId]: OperationHandler<Id> };

/** The route's view of any operation's input and handler (each handler is typed by its own operation above). */
interface RouteInput {
  request: FastifyRequest;
  reply: FastifyReply;
  account: Account;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
}
type RouteHandler = (input: RouteInput) => unknown;

export const API_PREFIX = '/v1';
export const fastifyPath = (specPath: string) => API_PREFIX + specPath.replace(/\{([^}]+)\}/g, ':$1');

/** Whether an operation's body is a form (its routes need the multipart parser). */
export const takesForm = (op: Operation) => Boolean(op.operation.requestBody?.content?.['multipart/form-data']);

/** Routes for the document's operations, or for those `which` selects. */
export function registerSpecRoutes(
  app: FastifyInstance,
  ctx: Context,
  handlers: OperationHandlers,
  which: (op: Operation) => boolean = () => true,
) {
  for (const op of ctx.model.operations) {
    if (!which(op)) continue;
    // The document read at run time names its operations as strings, and the route builds a handler's
    // input from it: here every handler is seen as taking any operation's input (each is typed by its
    // own above). A document newer than this build is caught here.
    const implemented = (handlers as unknown as Partial<Record<string, RouteHandler>>)[op.operationId];
    if (!implemented)
      throw new Error(`the document has an operation ${op.operationId} that the sandbox does not implement`);
    const handler: RouteHandler = implemented;
    const validateParams = compileParameters(ctx, op);
    const rate = rateLimitOf(op);
    app.route({
      method: op.method as HTTPMethods,
      url: fastifyPath(op.path),
      exposeHeadRoute: false,
      config: { operation: op },
      // Callback style, not async: this runs on every request, and a promise per request is measurable.
      onRequest: (request, reply, done) => {
        const account = ctx.accounts.authenticate(request.headers.authorization);
        if (!account) {
          const err = new ApiError(
            401,
            'UNAUTHORIZED',
            'Authentication failed: send a valid API key as "Authorization: Bearer <API_KEY>".',
          );
          return done(
            ctx.personality.error(op, err, { now: ctx.clock.now(), authorization: request.headers.authorization }),
          );
        }
        request.account = account;
        const fault = ctx.faults.take(account.name);
        if (!fault) return limit(account, reply, done);
        injectFault(fault, reply, account, done);
      },
      // Synchronous while the operation is (a read): a promise per request is measurable here too.
      handler: (request, reply) => {
        try {
          const { account } = request;
          // onRequest has set it, or answered 401: a handler never runs without one.
          if (!account) throw new Error(`no account on ${op.operationId} after authentication`);
          const input: RouteInput = { request, reply, account, ...validateParams(request) };
          const body = handler(input);
          return body instanceof Promise ? body.then((b) => answer(input, b), fail) : answer(input, body);
        } catch (err) {
          return fail(err);
        }
      },
    });

    /** `RateLimit-Policy`, the same string for every request of the class (written once per window and quota). */
    let policy = { limit: NaN, windowMs: NaN, text: '' };
    function policyOf(limit: number, windowMs: number): string {
      if (policy.limit !== limit || policy.windowMs !== windowMs)
        policy = { limit, windowMs, text: `${limit};w=${ctx.clock.headerSeconds(windowMs)}` };
      return policy.text;
    }

    /** The rate limit of the operation's class, with its headers: on to the handler, or a 429. */
    function limit(account: Account, reply: FastifyReply, done: (err?: Error) => void) {
      const d = ctx.limiter.take(account.name, rate.class, rate.requests, rate.window_seconds);
      if (ctx.personality.rateLimitHeaders) {
        reply.header('ratelimit-limit', String(d.limit));
        reply.header('ratelimit-remaining', String(d.remaining));
        reply.header('ratelimit-reset', d.resetMs > 0 ? ctx.clock.headerSeconds(d.resetMs) : '0');
        reply.header('ratelimit-policy', policyOf(d.limit, d.windowMs));
      }
      if (d.allowed) return done();
      const wait = ctx.clock.headerSeconds(d.resetMs);
      const how = ctx.limiter.styleName === 'even' ? 'evenly' : `as a ${ctx.limiter.styleName} window`;
      const err = new ApiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        `Rate limit exceeded (class ${rate.class}, ${rate.requests} requests per ${rate.window_seconds} seconds, enforced ${how}). Retry after ${wait} seconds.`,
        { 'Retry-After': wait },
      );
      done(ctx.personality.error(op, err, { now: ctx.clock.now() }));
    }

    /** A fault queued with /_sandbox/faults, in place of (latency: before) the normal handling. */
    function injectFault(fault: Fault, reply: FastifyReply, account: Account, done: (err?: Error) => void) {
      const fail = (err: ApiError) => done(ctx.personality.error(op, err, { now: ctx.clock.now() }));
      switch (fault.kind) {
        case 'latency':
          setTimeout(() => limit(account, reply, done), fault.latency_ms ?? 0);
          return;
        case 'drop':
          // Closes the connection without an answer (in-process: the injected response, so sb.fetch fails as fetch would).
          reply.raw.destroy();
          return;
        case '429':
        case '503': {
          const wait = ctx.clock.headerSeconds(
            ctx.clock.ms(fault.retry_after_seconds ?? (fault.kind === '429' ? rate.window_seconds : 30)),
          );
          const code = fault.error_code ?? (fault.kind === '429' ? 'RATE_LIMIT_EXCEEDED' : 'SERVICE_UNAVAILABLE');
          return fail(
            new ApiError(
              Number(fault.kind),
              code,
              `Injected by /_sandbox/faults: ${fault.kind} ${code}. Retry after ${wait} seconds.`,
              { 'Retry-After': wait },
            ),
          );
        }
        case '500':
          return fail(
            new ApiError(
              500,
              fault.error_code ?? 'UNKNOWN_ERROR',
              'Injected by /_sandbox/faults: an unexpected error occurred.',
            ),
          );
      }
    }

    /** The operation's error in this personality's words (a non-API error stays a sandbox bug). */
    function fail(err: unknown): never {
      if (!(err instanceof ApiError)) throw err;
      throw ctx.personality.error(op, err, {
        now: ctx.clock.now(),
        pathParameter: (err as ParamError).parameterIn === 'path',
      });
    }

    function answer(input: RouteInput, body: unknown): unknown {
      // A page past the end: the alternative answers the last page (2.5: "page number returned").
      const page = body as
        | { results?: unknown[]; total_count?: number; items_per_page?: number; page?: number }
        | undefined;
      if (
        ctx.personality.clampPage &&
        Array.isArray(page?.results) &&
        !page.results.length &&
        page.total_count !== undefined &&
        page.total_count > 0 &&
        page.page !== undefined &&
        page.page > 1 &&
        page.items_per_page !== undefined
      ) {
        const last = { ...input, query: { ...input.query, page: Math.ceil(page.total_count / page.items_per_page) } };
        return Promise.resolve(handler(last)).then((b) => send(input.reply, b), fail);
      }
      return send(input.reply, body);
    }

    function send(reply: FastifyReply, body: unknown): unknown {
      reply.code(ctx.personality.successStatus(op));
      if (!(body instanceof Json)) return ctx.personality.body(op, body);
      const out = ctx.personality.body(op, body.value);
      // Unchanged by the personality: the text serialized once is the answer.
      if (out !== body.value) return out;
      reply.type(JSON_CONTENT_TYPE);
      return body.text;
    }
  }
}

/** A parameter that failed its schema, and where it was. */
type ParamError = ApiError & { parameterIn?: string };

/** Strict string → typed value for query/path values ("1" → 1; "1.5", "1e0", " 1" stay strings and fail). */
function coerce(value: unknown, schema: SchemaObject | undefined): unknown {
  if (typeof value !== 'string') return value;
  if (schema?.type === 'integer' && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (schema?.type === 'number' && /^-?\d{1,15}(\.\d{1,15})?$/.test(value)) return Number(value);
  if (schema?.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The request's path and query parameters, each checked against its schema (defaults filled in). */
function compileParameters(
  ctx: Context,
  op: Operation,
): (request: FastifyRequest) => Pick<RouteInput, 'path' | 'query'> {
  // Compiled on the operation's first request (start-up compiles nothing it does not need).
  let checks: Array<{ p: Operation['parameters'][number]; validate: (v: unknown) => boolean }> | undefined;
  const compile = () =>
    op.parameters
      .filter((p) => p.in === 'path' || p.in === 'query')
      .map((p) => ({ p, validate: ctx.model.ajv.compile(p.schema ?? {}) as (v: unknown) => boolean }));
  return (request) => {
    const out: Pick<RouteInput, 'path' | 'query'> = { path: {}, query: {} };
    for (const { p, validate } of (checks ??= compile())) {
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
      (p.in === 'path' ? out.path : out.query)[p.name] = value;
    }
    return out;
  };
}

function describe(schema: SchemaObject | undefined): string {
  if (schema?.format === 'uuid') return 'a UUID';
  if (schema?.type === 'integer')
    return schema.minimum !== undefined ? `an integer of at least ${schema.minimum}` : 'an integer';
  return `a valid ${schema?.type ?? 'value'}`;
}
