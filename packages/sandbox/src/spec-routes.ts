// Routes come from the document: every operation of listOperations() becomes a Fastify route under
// /v1, authenticated and rate-limited per account, with its path and query parameters validated by
// Ajv against the parameter schemas of the document. Each operation has its handler, typed by its
// operationId from @videogen/openapi/types the way openapi-msw types MSW handlers: its path and query
// parameters, and the success body it answers.
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Operation, SchemaObject } from '@videogen/openapi';
import { RETRY_POLICY } from '@videogen/openapi/rules';
import type { TransientAnswer } from '@videogen/openapi/twin';
import type { FilledQueryParams, OperationId, PathParams, SuccessBody } from '@videogen/openapi/types';
import { ApiError, refusal } from './errors.js';
import type { Context } from './context.js';
import { BEARER, type Account } from './accounts.js';
import type { Fault } from './faults.js';
import { rateLimitHeaderWriter } from './rate-limit-headers.js';
import { rateLimitOf } from './spec.js';
import { Json, JSON_CONTENT_TYPE } from './json-body.js';
import { retryAfterIn } from './twin-behaviour.js';

/** The wait of a 503 for server load (7.1's shortest), the default `Retry-After` of an injected 503. */
const UNAVAILABLE_WAIT_SECONDS = RETRY_POLICY.serviceUnavailableDelayMs[0] / 1000;

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
/** An operation's handler; it throws an ApiError for any other answer (the twin words it). */
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
    const operationId = op.operationId as OperationId;
    const rateClass = rateLimitOf(op).class;
    const success = ctx.twin.successStatus(operationId);
    const decorate = ctx.twin.decorator(operationId);
    const writeRateLimitHeaders = rateLimitHeaderWriter(ctx, rateClass);
    app.route({
      method: op.method as HTTPMethods,
      url: fastifyPath(op.path),
      exposeHeadRoute: false,
      config: { operation: op },
      // Callback style, not async: this runs on every request, and a promise per request is measurable.
      onRequest: (request, reply, done) => {
        const account = ctx.accounts.authenticate(request.headers.authorization);
        if (!account) return done(ctx.twin.error(unauthenticated(request.headers.authorization), ctx.clock.now()));
        request.account = account;
        const fault = ctx.faults.take(account.name);
        if (fault) return injectFault(fault, reply, account, done);
        const transient = ctx.twin.transient(account.name);
        if (transient) return answerTransient(transient, request, reply, done);
        limit(account, reply, done);
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

    /** The rate limit of the operation's class, with its headers: on to the handler, or a 429. */
    function limit(account: Account, reply: FastifyReply, done: (err?: Error) => void) {
      const d = ctx.limiter.take(account.name, rateClass);
      writeRateLimitHeaders?.(reply, d, account.name);
      if (d.allowed) return done();
      const wait = ctx.clock.headerSeconds(d.resetMs);
      const c = ctx.limiter.limitOf(rateClass);
      const how = c.style === 'even' ? 'evenly' : `as a ${c.style} window`;
      const err = refusal(
        'rate_limited',
        `Rate limit exceeded (class ${rateClass}, ${c.limit} requests per ${c.windowSeconds} seconds, enforced ${how}). Retry after ${wait} seconds.`,
        { 'Retry-After': wait },
      );
      done(ctx.twin.error(err, ctx.clock.now()));
    }

    /** A fault queued with /_sandbox/faults, in place of (latency: before) the normal handling. */
    function injectFault(fault: Fault, reply: FastifyReply, account: Account, done: (err?: Error) => void) {
      const fail = (err: ApiError) => done(ctx.twin.error(err, ctx.clock.now()));
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
            ctx.clock.ms(
              fault.retry_after_seconds ??
                (fault.kind === '429' ? ctx.limiter.limitOf(rateClass).windowSeconds : UNAVAILABLE_WAIT_SECONDS),
            ),
          );
          const headers = { 'Retry-After': wait };
          // A 429 without its own code is the rate limit's, in the twin's words.
          if (fault.kind === '429' && fault.error_code === undefined)
            return fail(
              refusal('rate_limited', `Injected by /_sandbox/faults: 429. Retry after ${wait} seconds.`, headers),
            );
          const code = fault.error_code ?? (fault.kind === '429' ? 'RATE_LIMIT_EXCEEDED' : 'SERVICE_UNAVAILABLE');
          return fail(
            new ApiError(
              Number(fault.kind),
              code,
              `Injected by /_sandbox/faults: ${fault.kind} ${code}. Retry after ${wait} seconds.`,
              headers,
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

    /** One of the twin's transient errors, in its form (not counted toward the rate limit, as a fault). */
    function answerTransient(
      t: TransientAnswer,
      request: FastifyRequest,
      reply: FastifyReply,
      done: (err?: Error) => void,
    ) {
      const now = ctx.clock.now();
      const retry = t.status === 503 && t.retry_after_seconds !== undefined;
      if (t.form === 'envelope') {
        const headers: Record<string, string> = retry
          ? { 'Retry-After': ctx.clock.headerSeconds(ctx.clock.ms(t.retry_after_seconds ?? 0)) }
          : {};
        const code = t.error_code ?? 'SERVICE_UNAVAILABLE';
        return done(
          ctx.twin.error(new ApiError(t.status, code, `A transient error (${code}): retry later.`, headers), now),
        );
      }
      // A gateway's page or a bare status: not the envelope, and a deliberate twin answer (the self-check knows).
      request.twinAnswer = true;
      if (retry) {
        const seconds = ctx.clock.headerSeconds(ctx.clock.ms(t.retry_after_seconds ?? 0));
        const written = retryAfterIn(ctx.twin.unavailableRetryAfter, seconds, now);
        if (written !== undefined) reply.header('retry-after', written);
      }
      reply.code(t.status);
      if (t.form === 'empty') return void reply.send();
      const text = STATUS_CODES[t.status] ?? 'Error';
      if (t.form === 'text') return void reply.type('text/plain; charset=utf-8').send(`${t.status} ${text}`);
      reply
        .type('text/html; charset=utf-8')
        .send(`<html><head><title>${t.status} ${text}</title></head><body><h1>${t.status} ${text}</h1></body></html>`);
    }

    /** The operation's error in the twin's words (a non-API error stays a sandbox bug). */
    function fail(err: unknown): never {
      if (!(err instanceof ApiError)) throw err;
      throw ctx.twin.error(err, ctx.clock.now());
    }

    function answer(input: RouteInput, body: unknown): unknown {
      const page = body as
        | { results?: unknown[]; total_count?: number; items_per_page?: number; page?: number }
        | undefined;
      const past = ctx.twin.pastEnd;
      if (
        past.answer !== 'empty_page' &&
        Array.isArray(page?.results) &&
        !page.results.length &&
        page.page !== undefined &&
        page.page > 1 &&
        page.total_count !== undefined &&
        (past.answer === 'refused' || page.total_count > 0) &&
        page.items_per_page !== undefined
      ) {
        if (past.answer === 'refused') {
          // No document answer to map it back to: a deliberate twin answer.
          input.request.twinAnswer = true;
          return fail(new ApiError(past.status, past.error_code, `Page ${page.page} is past the last page.`));
        }
        // The last page (2.5: "page number returned").
        const last = Math.ceil(page.total_count / page.items_per_page);
        const again = { ...input, query: { ...input.query, page: last } };
        return Promise.resolve(handler(again)).then((b) => send(input.reply, b), fail);
      }
      return send(input.reply, body);
    }

    function send(reply: FastifyReply, body: unknown): unknown {
      reply.code(success);
      if (!decorate) {
        if (!(body instanceof Json)) return body;
        // Serialized once: the text is the answer.
        reply.type(JSON_CONTENT_TYPE);
        return body.text;
      }
      return decorate(body instanceof Json ? body.value : body, ctx.clock.now());
    }
  }
}

/** The refusal of a request without a valid key: none, not `Bearer <key>`, or a key no account has. */
function unauthenticated(authorization: string | undefined): ApiError {
  const message = 'Authentication failed: send a valid API key as "Authorization: Bearer <API_KEY>".';
  if (authorization === undefined) return refusal('missing_credentials', message);
  if (!BEARER.test(authorization)) return refusal('malformed_credentials', message);
  return refusal('unknown_key', message);
}

/** A parameter that failed its schema: a path parameter is the malformed id, a query parameter the bad page. */
const parameterRefusal = (where: string, message: string) =>
  refusal(where === 'path' ? 'malformed_id' : 'bad_page', message);

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
        if (p.required) throw parameterRefusal(p.in, `${p.name} is required.`);
        if (p.schema?.default === undefined) continue;
        value = p.schema.default;
      }
      value = coerce(value, p.schema);
      if (!validate(value)) {
        const rule = describe(p.schema);
        throw parameterRefusal(p.in, `${p.name} must be ${rule}.`);
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
