// The sandbox server: Fastify, routes from the document, and the envelope for every failure a client
// can provoke (bad bytes, bad headers, unknown paths and methods) so nothing answers an unplanned 5xx.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { matchOperation } from '@videogen/openapi';
import { Accounts, type AccountConfig } from './accounts.js';
import { createClock } from './clock.js';
import type { Context } from './context.js';
import { ApiError, envelope, refusal } from './errors.js';
import { createHttpServer, defaultHttpLimits, onClientError, answerEnvelope, type HttpLimits } from './http-server.js';
import type http from 'node:http';
import { boundUnreadBody, registerRequestGuards } from './request-guards.js';
import { RateLimiter, type RateLimiterStyle } from './rate-limit.js';
import type { PersonalityName } from './personality.js';
import type { Twin } from '@videogen/openapi/twin';
import { compileTwin, loadTwin, type TwinSource } from './twin-behaviour.js';
import { registerTwinHooks } from './twin-hooks.js';
import { Faults, ResponseStats, type Fault } from './faults.js';
import { registerSandboxApi } from './sandbox-api.js';
import { responseChecker } from './response-check.js';
import { conversionHandlers } from './routes/conversions.js';
import { registerDocs } from './routes/docs.js';
import { registerDownloads } from './routes/downloads.js';
import { generateHandlers } from './routes/generate.js';
import { settingHandlers } from './routes/settings.js';
import { videoHandlers } from './routes/videos.js';
import { UrlSigner } from './signing.js';
import { specModel } from './spec.js';
import {
  accountNamed,
  advanceClock,
  asTypeError,
  clockView,
  parseFault,
  resetAccount,
  type ClockView,
  type FaultRequest,
} from './controls.js';
import { inProcessFetch, type SandboxFetch } from './in-process.js';
import { API_PREFIX, type OperationHandlers, registerSpecRoutes, takesForm } from './spec-routes.js';
import { RECORD_CACHE_SIZE, Store } from './store.js';
import { BoundedMap } from './bounded-map.js';

export interface SandboxOptions {
  /** The port to listen on (0 picks a free one). createSandbox: none, in-process only; startSandbox: default 4010. */
  port?: number;
  /** The address to listen on when there is a port. Default 127.0.0.1. */
  host?: string;
  /**
   * The origin that `baseUrl` and the download URLs name, when clients reach the sandbox by another name
   * than the address bound: a container's service name (`http://sandbox:4010`), this machine's LAN
   * address, a tunnel. Default: the address bound (loopback for a wildcard bind).
   */
  publicUrl?: string;
  /** N: run N times faster (generation, expiry, link lifetime, rate-limit windows, Retry-After). Default 1. */
  timeScale?: number;
  /** Keep state (videos, credits, signing secret) in DIR/sandbox.mdb so a restart loses nothing. */
  dataDir?: string;
  /** Check every response against the document; violations are logged and collected in `violations`. */
  validateResponses?: boolean;
  /** Default true; false disables the rate limits (benchmarks only). */
  rateLimits?: boolean;
  /** How the limits of 8.1 are enforced, every class: 'sliding' | 'fixed' | 'even' | 'token-bucket'. Default: the twin's (`even`, DECISIONS #28). */
  rateLimiter?: RateLimiterStyle;
  /**
   * How the sandbox answers wherever the interface is silent: a twin file's path, a twin object (as
   * `parseTwin` gives it, or the file's JSON), or a built-in name (`'default'`, `'alternative'`).
   * Default: the built-in `default` twin (our decisions). A twin that does not validate throws a
   * `TwinError` naming the field and the reason.
   */
  twin?: TwinSource;
  /** A built-in twin by name: `personality: 'alternative'` is `twin: 'alternative'`. */
  personality?: PersonalityName;
  /** The seed of the twin's samples (latencies, durations, transient errors): the same seed and requests, the same samples. Default 0. */
  seed?: number;
  /** One line per request: true prints to stdout, a function receives the lines. Default off. */
  logger?: boolean | ((line: string) => void);
  /** Service seconds every generation and conversion runs, whatever the twin's durations. Default: the twin's (30, constant). */
  generationSeconds?: number;
  /** Service seconds after which a completed video becomes expired. Default: the twin's (86400). */
  expireAfterSeconds?: number;
  /** Service seconds a download_url stays valid. Default: the twin's (3600). */
  downloadTtlSeconds?: number;
  /** Accounts added to (or replacing, by name) the default seed. */
  accounts?: AccountConfig[];
  /** Wall clock in epoch ms (tests inject one to move time by hand). Default Date.now. */
  now?: () => number;
  /** HMAC secret of download URLs. Default: random per process (kept in the data dir when there is one). */
  signingSecret?: string;
  /** Connection time limits and the connection cap (see the README, "Connection limits"); each defaults to its documented value. */
  httpLimits?: Partial<HttpLimits>;
}

/** An account, named by one of its API keys (`'sandbox-key-acme'`) or by its name (`'acme'`). */
export type AccountRef = string;

/** The sandbox's time, shared by every account; pass it to the client as `clock` so that no wait is real. */
export interface SandboxClock {
  /** Now in epoch ms: the wall clock plus every advance so far (plus the account's own, when one is given). */
  now(account?: AccountRef): number;
  /**
   * The client's `Clock.sleep`: resolves as soon as the sandbox's time has been moved `ms` forward (no
   * real wait), so a client given `clock: sb.clock` polls, paces and backs off in no time while the
   * sandbox sees that time pass. Concurrent sleepers wake earliest first; rejects when `signal` aborts.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Moves time forward by service seconds (divided by the time scale, like `POST /_sandbox/clock/advance`):
   * for every account, or only for `account`. At once: later answers see generations finished, download
   * URLs and videos expired, rate windows reset.
   */
  advance(seconds: number, account?: AccountRef): void;
  /** The account's clock as `GET /_sandbox/clock` shows it. */
  read(account: AccountRef): ClockView;
}

/** Behaviour injected for an account's next `/v1` requests (`/_sandbox/faults`). */
export interface SandboxFaults {
  /** Queues a fault (or several, in order) for the account's next requests; returns what is pending. */
  add(account: AccountRef, fault: FaultRequest | FaultRequest[]): Fault[];
  /** The account's pending faults, in the order they will be used. */
  list(account: AccountRef): Fault[];
  /** Clears the account's pending faults, or every account's. */
  clear(account?: AccountRef): void;
}

/** A sandbox created by createSandbox: answered in-process by `fetch`, and on a port when one was given. */
export interface Sandbox {
  /** `publicUrl` when given; else `http://127.0.0.1:PORT` when listening, `https://sandbox-N.videogen.test` (reachable only through `fetch`) when not. */
  origin: string;
  /** The origin of its download URLs: `origin`, or another one (its own port) when the twin's downloads live on another host. */
  downloadOrigin: string;
  /** The twin it answers as (its values resolved). */
  twin: Twin;
  /** origin + '/v1': the base URL to give the client. */
  baseUrl: string;
  /** The port listened on; undefined when the sandbox is in-process only. */
  port: number | undefined;
  /** fetch answered in-process, no socket: the client's `fetch` option. Reaches only this sandbox. */
  fetch: SandboxFetch;
  clock: SandboxClock;
  faults: SandboxFaults;
  /** Back to the seed (`POST /_sandbox/reset`): one account, or every account. */
  reset(account?: AccountRef): Promise<void>;
  /** Statuses answered on /v1 since the start or the last reset (`{ '200': 12, '429': 0, … }`): one account's, or all together. */
  stats(account?: AccountRef): Record<string, number>;
  /** Problems found by `validateResponses` (and any internal error): tests assert this stays empty. */
  violations: string[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A sandbox listening on a port (startSandbox, or createSandbox with `port`). */
export interface RunningSandbox extends Sandbox {
  port: number;
}

/** Largest non-multipart body (a conversion body is a few dozen bytes). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** In-process sandboxes of this process, for their distinct origins (the client keeps one pacer per base URL). */
let inProcessCount = 0;

/**
 * A sandbox for tests: answers in-process through `sb.fetch` (no port, no socket); with `port` it also
 * listens (0: a free port). Its time moves with the wall clock and jumps forward with `sb.clock`.
 */
export async function createSandbox(options: SandboxOptions & { port: number }): Promise<RunningSandbox>;
export async function createSandbox(options?: SandboxOptions): Promise<Sandbox>;
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const model = specModel();
  const accounts = new Accounts(options.accounts);
  const store = new Store(accounts, { dataDir: options.dataDir, signingSecret: options.signingSecret });
  // With a data dir, the time moved forward survives a restart (the videos created in it need it).
  const clock = createClock(options.timeScale ?? 1, options.now ?? Date.now, {
    saved: store.savedClock(),
    onChange: (offsets) => store.saveClock(offsets),
  });
  const twin = compileTwin(twinOf(options), {
    generationSeconds: options.generationSeconds,
    expireAfterSeconds: options.expireAfterSeconds,
    downloadTtlSeconds: options.downloadTtlSeconds,
    rateLimiter: options.rateLimiter,
    seed: options.seed,
  });
  const stats = new ResponseStats();
  const ctx: Context = {
    twin,
    faults: new Faults(),
    stats,
    model,
    accounts,
    store,
    clock,
    limiter: new RateLimiter(clock, options.rateLimits ?? true, twin.limits),
    signer: new UrlSigner(store.signingSecret, twin.download.query),
    origin: '',
    downloadOrigin: '',
    views: new BoundedMap(RECORD_CACHE_SIZE),
  };
  const violations: string[] = [];
  const log =
    options.logger === true ? (line: string) => process.stdout.write(`${line}\n`) : options.logger || undefined;
  const httpLimits = { ...defaultHttpLimits(), ...options.httpLimits };
  const served: { handler?: http.RequestListener } = {};
  const app = buildApp(ctx, {
    httpLimits,
    validateResponses: options.validateResponses ?? false,
    violations,
    log,
    served,
  });

  let port: number | undefined;
  /** The download host's own server, when the twin's downloads live on another origin. */
  let downloads: http.Server | undefined;
  try {
    const publicOrigin = options.publicUrl === undefined ? undefined : originOf(options.publicUrl);
    if (options.port === undefined) {
      await app.ready();
      const n = ++inProcessCount;
      ctx.origin = publicOrigin ?? `https://sandbox-${n}.videogen.test`;
      ctx.downloadOrigin = twin.download.otherOrigin ? `https://downloads-${n}.videogen.test` : ctx.origin;
    } else {
      const host = options.host ?? '127.0.0.1';
      await app.listen({ port: options.port, host });
      const address = app.server.address();
      port = typeof address === 'object' && address ? address.port : options.port;
      // Download URLs must be reachable by the client: a wildcard bind is reached on loopback, unless
      // the operator names the origin its clients use.
      const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      ctx.origin = publicOrigin ?? `http://${publicHost}:${port}`;
      ctx.downloadOrigin = ctx.origin;
      if (twin.download.otherOrigin) {
        // Another origin: the same sandbox on a port of its own that serves the downloads and nothing else.
        const handler = served.handler;
        if (!handler) throw new Error('the sandbox has no request handler to serve downloads with');
        downloads = createHttpServer((req, res) => {
          if (req.url?.startsWith('/downloads/')) return handler(req, res);
          answerEnvelope(res, 404, 'NOT_FOUND', 'This host serves downloads only: the API is on another origin.');
        }, httpLimits);
        const dport = await listenOn(downloads, host);
        const named = publicOrigin ? new URL(publicOrigin) : undefined;
        ctx.downloadOrigin = named ? `${named.protocol}//${named.hostname}:${dport}` : `http://${publicHost}:${dport}`;
      }
    }
  } catch (err) {
    await app.close();
    await store.close(); // releases the data dir
    throw err;
  }

  const state = { origin: ctx.origin, downloadOrigin: ctx.downloadOrigin, closed: false };
  const named = (ref: AccountRef) => accountNamed(ctx, ref);
  const everyOrOne = (ref?: AccountRef) => (ref === undefined ? [...accounts.all.values()] : [named(ref)]);
  const close = async () => {
    if (state.closed) return;
    state.closed = true;
    if (downloads) {
      downloads.closeAllConnections();
      await new Promise((resolve) => downloads?.close(resolve));
    }
    await app.close();
    await store.close();
  };
  return {
    origin: ctx.origin,
    downloadOrigin: ctx.downloadOrigin,
    // A copy: the built-in twins are shared by every sandbox of the process.
    twin: structuredClone(twin.twin),
    baseUrl: ctx.origin + API_PREFIX,
    port,
    fetch: inProcessFetch(app, state),
    clock: {
      now: (account) => clock.now(account === undefined ? undefined : named(account).name),
      sleep: (ms, signal) => clock.sleep(ms, signal),
      advance: (seconds, account) =>
        asTypeError(() => advanceClock(ctx, account === undefined ? undefined : named(account), seconds)),
      read: (account) => clockView(ctx, named(account)),
    },
    faults: {
      add: (account, fault) => {
        const name = named(account).name;
        const parsed = (Array.isArray(fault) ? fault : [fault]).map((f) => asTypeError(() => parseFault({ ...f })));
        for (const f of parsed) ctx.faults.add(name, f);
        return ctx.faults.pending(name);
      },
      list: (account) => ctx.faults.pending(named(account).name),
      clear: (account) => {
        for (const a of everyOrOne(account)) ctx.faults.clear(a.name);
      },
    },
    reset: async (account) => {
      for (const a of everyOrOne(account)) await resetAccount(ctx, a);
    },
    stats: (account) => (account === undefined ? stats.total() : stats.of(named(account).name)),
    violations,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A sandbox listening on `port` (default 4010; 0 picks a free one): what the CLI runs. */
export function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return createSandbox({ ...options, port: options.port ?? 4010 });
}

interface AppOptions {
  httpLimits: HttpLimits;
  validateResponses: boolean;
  violations: string[];
  log?: (line: string) => void;
  /** Receives the server's request handler (a second origin serves downloads with it). */
  served: { handler?: http.RequestListener };
}

/** The twin of the options: `twin`, or the built-in `personality`, or the default. */
function twinOf(options: SandboxOptions): Twin {
  if (options.twin !== undefined && options.personality !== undefined)
    throw new TypeError('give either twin or personality (a built-in twin by name), not both');
  return loadTwin(options.twin ?? options.personality);
}

/** Listens on a free port of `host`; resolves to the port. */
function listenOn(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

function buildApp(ctx: Context, opts: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    // close() must not wait for clients' keep-alive sockets (tests start and stop many sandboxes).
    forceCloseConnections: true,
    bodyLimit: JSON_BODY_LIMIT,
    // A too-long id should reach the UUID check (400), not the router's own answer. compile: the
    // routes are matched by generated code instead of a tree walk (find-my-way's compiler mode).
    routerOptions: { maxParamLength: 2000, compile: true },
    serverFactory: (handler) => {
      opts.served.handler = handler;
      return createHttpServer(handler, opts.httpLimits);
    },
    clientErrorHandler: onClientError,
    // Never echo the URL: its query string may hold a download signature.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const what =
        error.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid percent-encoding' : 'the request could not be read';
      reply.code(400).send(envelope('INVALID_REQUEST', `Malformed request: ${what}.`));
    },
  });

  // Bodies are kept raw: the conversion handler parses JSON itself so that its errors come in the
  // documented order, and an unexpected content type reaches the handler instead of a bare 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.setErrorHandler((thrown: unknown, request, reply) => {
    if (thrown instanceof ApiError) {
      reply.code(thrown.status).headers(thrown.headers).send(thrown.body);
      return;
    }
    // Fastify's own errors carry a statusCode; anything else is a sandbox bug.
    const err = thrown as { statusCode?: unknown; message?: string; stack?: string } | undefined;
    const status = typeof err?.statusCode === 'number' ? err.statusCode : 500;
    if (status === 413) {
      const err = ctx.twin.error(
        refusal('payload_too_large', `The request body is larger than ${JSON_BODY_LIMIT} bytes.`),
        ctx.clock.now(),
      );
      reply.code(err.status).headers(err.headers).send(err.body);
    } else if (status >= 400 && status < 500) {
      // Fastify's own 4xx (bad content type, bad encoding...) become the document's 400.
      reply.code(400).send(envelope('INVALID_REQUEST', err?.message ?? 'Invalid request.'));
    } else {
      // A sandbox bug: answer, but make it loud for the tests.
      const message = `internal error on ${request.method} ${request.url.split('?')[0]}: ${err?.stack ?? err}`;
      opts.violations.push(message);
      process.stderr.write(`[sandbox] ${message}\n`);
      reply
        .code(500)
        .send(envelope('UNKNOWN_ERROR', 'An unexpected error occurred (sandbox bug; see the sandbox log).'));
    }
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    if (path.startsWith(`${API_PREFIX}/`)) {
      const specPath = path.slice(API_PREFIX.length);
      const allowed = ctx.model.operations
        .map((o) => o.method)
        .filter((m, i, a) => a.indexOf(m) === i && matchOperation(ctx.model.spec, m, specPath))
        .sort();
      if (allowed.length) {
        reply.code(405).header('Allow', allowed.join(', '));
        return reply.send(
          envelope(
            'METHOD_NOT_ALLOWED',
            `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
          ),
        );
      }
    }
    return reply.code(404).send(envelope('NOT_FOUND', `No such endpoint: ${request.method} ${path}.`));
  };
  registerRequestGuards(app, notFound, () => [new URL(ctx.origin || 'http://localhost').hostname]);
  app.setNotFoundHandler(notFound);

  if (opts.validateResponses) {
    const check = responseChecker(ctx.model, ctx.twin);
    app.addHook('onSend', (request, reply, payload, done) => {
      const op = request.routeOptions.config?.operation;
      if (op && !request.twinAnswer) {
        for (const p of check(
          op,
          reply.statusCode,
          String(reply.getHeader('content-type') ?? ''),
          payload,
          reply.getHeaders(),
        )) {
          const line = `${request.method} ${request.url.split('?')[0]} → ${reply.statusCode}: ${p}`;
          opts.violations.push(line);
          process.stderr.write(`[sandbox] RESPONSE VIOLATES THE OPENAPI DOCUMENT: ${line}\n`);
        }
      }
      done(null, payload);
    });
  }

  // After the self-check: what the twin adds to an answer (a latency, a content coding).
  registerTwinHooks(app, ctx, API_PREFIX);

  // Once an answer is sent (one hook, not one per concern: each is a cost on every request): every /v1
  // answer is counted per account and status (the refused ones too), an unread body gets its bound, and
  // the log line is written.
  const log = opts.log;
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith(`${API_PREFIX}/`)) ctx.stats.record(request.account?.name, reply.statusCode);
    boundUnreadBody(request, opts.httpLimits);
    // Never the key: the account name stands for the caller.
    if (log)
      log(
        `${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms ${request.account?.name ?? '-'}`,
      );
    done();
  });

  registerSandboxApi(app, ctx);
  // One handler for every operation of the document: a new operation does not compile until it is here.
  const handlers: OperationHandlers = {
    ...videoHandlers(ctx),
    ...settingHandlers(ctx),
    ...conversionHandlers(ctx),
    ...generateHandlers(ctx),
  };
  // @fastify/multipart hooks every route of its scope (an onRequest and an onResponse, each a promise
  // per request): only the operations that take a form are in that scope.
  app.register(async (forms) => {
    await forms.register(multipart);
    registerSpecRoutes(forms, ctx, handlers, takesForm);
  });
  registerSpecRoutes(app, ctx, handlers, (op) => !takesForm(op));
  registerDownloads(app, ctx);
  registerDocs(app, ctx);
  return app;
}

/** The origin a public URL names; anything more (a path, a query, credentials) is a mistake said at once. */
function originOf(url: string): string {
  const notAnOrigin = new TypeError(
    `publicUrl (--public-url) must be an http:// or https:// origin such as http://sandbox:4010, got ${url}`,
  );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notAnOrigin;
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.username || parsed.password || parsed.search || parsed.hash)
    throw notAnOrigin;
  if (parsed.pathname !== '/')
    throw new TypeError(
      `publicUrl (--public-url) names the origin only (the sandbox adds /v1), got the path ${parsed.pathname}`,
    );
  return parsed.origin;
}
