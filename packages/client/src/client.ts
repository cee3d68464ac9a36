// createClient: the assembly. Options → one transport (transport.ts: send, pace, retry, log) → the
// resources (resources/: videos, settings, conversions) → the flows built on them (waiting,
// downloading). `client.api` is openapi-fetch over the same transport.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import createFetchClient, { defaultPathSerializer } from 'openapi-fetch';
import {
  ALLOW_HTTP_VARIABLE,
  allowedHttpHosts,
  BODY_LIMITS,
  insecureUrlProblem,
  keyIdentity,
  POLLING,
  PRODUCTION_BASE_URL,
  type PacerStore,
  redactUrl,
  type ScheduleSnapshot,
  scheduleName,
  statedTimeScale,
  type WaitNotice,
  waitLine,
} from '@videogen/openapi/rules';
import { APIPromise } from './api-promise.js';
import { type Clock, realClock } from './clock.js';
import { createCore } from './core.js';
import { download, type DownloadOptions } from './download.js';
import { AuthenticationError } from './errors.js';
import type { components, paths } from '@videogen/openapi/types';
import { createLog, type LogLevel, type Logger, type TrafficLogger } from './logger.js';
import { pacerFor } from './pacer.js';
import { checkPathParameter } from './path-parameters.js';
import { pacingUrlProblem, sharedPacingStore } from './pacing-store.js';
import { waitForVideo, type WaitOptions } from './polling.js';
import { envProxyDispatcher } from './proxy.js';
import { Conversions, type ConversionTarget, type ConvertOptions } from './resources/conversions.js';
import { Settings } from './resources/settings.js';
import { Videos, type GenerateOptions } from './resources/videos.js';
import {
  type AnnounceOptions,
  createAnnouncer,
  type PlainFetch,
  RELAY_URL_VARIABLE,
  relayUrlProblem,
} from './relay-announce.js';
import { env as processEnv } from './runtime.js';
import { inFlowSpan } from './tracing.js';
import { bodyLimits, createTransport, fromRequest, retryOptions, type RetryOptions } from './transport.js';
import type { GenerateInput, Plan } from './uploads.js';

type Schemas = components['schemas'];
export type Video = Schemas['Video'];
export type VideoSetting = Schemas['VideoSetting'];

export interface ClientOptions {
  /** Default: process.env.VIDEO_API_KEY. Never logged, never part of an error or of inspect output. */
  apiKey?: string;
  /**
   * Default: process.env.VIDEO_API_BASE_URL, else the spec's production server. HTTPS, or HTTP on loopback
   * or to a host `allowHttpHosts` names (the key would cross the network in the clear otherwise: 5.2).
   */
  baseUrl?: string;
  /**
   * Hosts plain HTTP may reach besides loopback: a lab network allowed explicitly (`lab-api`, `10.0.0.5`,
   * `.lab.example` for every host under it, `*` for any). Default: VIDEO_API_ALLOW_HTTP (comma-separated).
   */
  allowHttpHosts?: string[];
  /** Upload limits to check against (default 'personal', the smaller ones). */
  plan?: Plan;
  /** Called as fetch(request, init) with a standard Request: pass init on (it carries the timeout's signal). */
  fetch?: (req: Request, init?: RequestInit) => Promise<Response>;
  /**
   * Extra fetch options for every request (API calls, uploads, downloads): `dispatcher` on Node (an
   * undici Agent or ProxyAgent), `proxy` on Bun, `client` on Deno. A given `dispatcher` replaces the
   * one the proxy variables would choose.
   */
  fetchOptions?: Record<string, unknown>;
  /** Shorthand for retry.maxRetries (default 3). */
  maxRetries?: number;
  /** Per attempt, until the response headers arrive (default 60 s; uploads: none unless given per call). */
  timeoutMs?: number;
  /**
   * Per attempt, once the headers came: an answer's body (a download's included) must bring 1 KiB more,
   * or end, within this long of waiting for it (default 30 s), else a TimeoutError (`deadline:
   * 'body-idle'`). A server sending a byte a second is a stall; a slow link that moves is not.
   */
  bodyTimeoutMs?: number;
  /**
   * Per attempt: an API answer's whole body within this long of its headers (default 60 s), else a
   * TimeoutError (`deadline: 'body-total'`). Not for downloads: give `bodyDeadlineMs` to `download` itself.
   */
  bodyDeadlineMs?: number;
  /** The largest API answer body accepted, decoded (default 16 MiB), else a ResponseTooLargeError. */
  maxBodyBytes?: number;
  /** The largest video `download` writes (default 2 GiB); a download can raise it with `maxBytes`. */
  maxDownloadBytes?: number;
  retry?: Partial<RetryOptions>;
  /** One scheduler per account for the rate limits and the concurrency limit (default true). */
  pacing?: boolean;
  /** Clients with the same account (and the same clock) share a scheduler (default: the same API key). */
  account?: string;
  /**
   * Share the scheduler with every process of the account, on Redis: `redis://` or `rediss://` (TLS),
   * with user, password and database number as usual. Default: VIDEO_API_PACING_URL (ignored by a
   * client given its own `clock`). Needs the package `@videogen/pacer-redis`. Without it, each
   * process paces alone (in memory). See the guide "Running several replicas".
   */
  pacingUrl?: string;
  /** Where the scheduler keeps its schedule, given whole (a `createRedisPacerStore(...)`, or your own). */
  pacingStore?: PacerStore;
  /** Time source of every wait; inject one in tests. */
  clock?: Clock;
  /**
   * Where log records go: a pino-shaped logger (`{ debug, info, warn, error }`, each called as
   * `(fields, message)`), or a function given each record as one JSON line. Default: stderr, as JSON lines.
   */
  logger?: Logger | TrafficLogger;
  /**
   * Default: VIDEO_API_LOG, else `off` (with a `logger` and neither: `info`, or `debug` for a function).
   * Shared pacing's two lines (Redis lost, back) and every wait of a second or more (a `warn` line saying
   * what it waits for) reach stderr when neither a level nor a logger is given.
   */
  logLevel?: LogLevel;
  /**
   * Told before every wait of a second or more, pacing or a retry, with what it waits for (the account's
   * rate limit, its running videos, the server's Retry-After, a backoff): `{ waitMs, kind, call, reason }`.
   * Given, it replaces the default `warn` line (the CLI prints its own). Status polling is not announced:
   * `waitForVideo`'s waits are the ones its caller asked for (its `onProgress` sees each status read).
   */
  onWait?: (notice: WaitNotice) => void;
  /**
   * A relay's URL (`videogen relay --listen`, @videogen/relay): every video this client creates
   * (`generate`, `convert`) is announced to it, so that it watches the video at once and sends its
   * webhook. Default: VIDEO_RELAY_URL. Without it the relay still finds the video at its next listing.
   */
  relayUrl?: string;
}

/**
 * The scheduler's name for a key, never the key itself: the rules' keyIdentity, the whole SHA-256 (the
 * name the contract suite and the pacing proxy pace by, so that a shared schedule is the same account
 * for all). SHA-256 by @noble/hashes (bundled): the same synchronous digest on every runtime, Workers
 * and browsers without node:crypto included.
 */
const identity = (key: string) => keyIdentity(bytesToHex(sha256(utf8ToBytes(key))));

/** How long an announce to a relay may take (each of its two attempts): a relay answers at once or is away. */
const ANNOUNCE_TIMEOUT_MS = 5_000;

export function createClient(options: ClientOptions = {}) {
  const env = processEnv();
  const key = options.apiKey ?? env.VIDEO_API_KEY;
  if (!key) throw new AuthenticationError('No API key: pass apiKey or set VIDEO_API_KEY');
  const baseUrl = (options.baseUrl ?? env.VIDEO_API_BASE_URL ?? PRODUCTION_BASE_URL).replace(/\/+$/, '');
  // 5.2, HTTPS only: checked before anything connects, by the rule every tool of the toolkit shares
  // (a TypeError, Invalid URL, for what is no URL at all).
  const parsed = new URL(baseUrl);
  const insecure = insecureUrlProblem(parsed, allowedHttpHosts(options.allowHttpHosts ?? env[ALLOW_HTTP_VARIABLE]));
  if (insecure) throw new TypeError(`Refusing base URL: the API key would cross the network in the clear; ${insecure}`);
  // fetch refuses a URL with credentials, and its error names the URL whole: refused here, shown redacted.
  if (parsed.username || parsed.password)
    throw new TypeError(
      `Refusing base URL ${redactUrl(baseUrl)}: a user or password in it is never sent (the API key goes in apiKey or VIDEO_API_KEY)`,
    );
  const clock = options.clock ?? realClock;
  const plan = options.plan ?? 'personal';
  const retry = retryOptions({
    ...(options.maxRetries != null && { maxRetries: options.maxRetries }),
    ...options.retry,
  });
  if (options.pacingUrl && options.clock)
    throw new TypeError(
      "pacingUrl keeps the schedule in Redis's real time and cannot follow a client's own clock: pass pacingStore (createRedisPacerStore({ url, timeScale })) instead",
    );
  // A client on its own clock (a test's, a sandbox's) lives in that clock's time: it paces alone.
  const pacingUrl = options.pacingUrl ?? (options.clock ? undefined : env.VIDEO_API_PACING_URL || undefined);
  const pacingProblem = pacingUrl === undefined ? undefined : pacingUrlProblem(pacingUrl);
  if (pacingProblem) throw new TypeError(pacingProblem);
  const logOptions = { logger: options.logger, level: options.logLevel, env: env.VIDEO_API_LOG, key };
  const log = createLog(logOptions);
  // Shared pacing lost is a fact its operator must hear (the replicas now pace at 1/N each): its two
  // lines (Redis away, Redis back) reach stderr even when no log was asked for; a level or a logger
  // given decides for them as for every other line.
  const pacingLog = createLog({ ...logOptions, unset: 'info' });
  // A wait of a second or more is said before it is slept, with what it waits for: by default a warn
  // line that reaches stderr even when no log was asked for (a level or a logger given decides); or
  // the caller's onWait (the CLI prints a plain line).
  const waitLog = createLog({ ...logOptions, unset: 'warn' });
  const announceWait =
    options.onWait ??
    ((n: WaitNotice) => waitLog.warn?.({ call: n.call, kind: n.kind, waitMs: Math.round(n.waitMs) }, waitLine(n)));
  const store = options.pacingStore ?? (pacingUrl ? sharedPacingStore(pacingUrl, pacingLog) : undefined);
  const dispatcher = options.fetchOptions?.dispatcher ?? envProxyDispatcher(env);
  const fetchOptions = dispatcher ? { ...options.fetchOptions, dispatcher } : options.fetchOptions;
  const relayUrl = options.relayUrl ?? (env[RELAY_URL_VARIABLE] || undefined);
  const relayProblem = relayUrl === undefined ? undefined : relayUrlProblem(relayUrl);
  if (relayProblem) throw new TypeError(relayProblem);

  const pacer =
    options.pacing === false
      ? undefined
      : pacerFor(scheduleName(baseUrl, options.account ?? identity(key)), clock, {
          maxWaitMs: retry.maxWaitMs,
          store,
        });
  const send = createTransport({
    fetch: options.fetch,
    fetchOptions,
    clock,
    retry,
    timeoutMs: options.timeoutMs ?? 60_000,
    body: bodyLimits({
      idleMs: options.bodyTimeoutMs,
      totalMs: options.bodyDeadlineMs,
      maxBytes: options.maxBodyBytes,
    }),
    pacer,
    check: (id) => videos.get(id),
    log,
    announce: announceWait,
  });
  // The target's own pace, as its answers state it (a sandbox started with --time-scale): polling follows
  // it, so that a video of a 60× sandbox is not waited for at the real service's 10 s per status read.
  const target = { timeScale: 1 };
  const learn = (res: Response) => {
    const scale = statedTimeScale(res.headers);
    if (scale) target.timeScale = scale;
  };
  const core = createCore({
    baseUrl,
    key,
    send: async (out, o) => {
      const sent = await send(out, o);
      if (o?.pace !== false && out.method === 'GET') learn(sent.response);
      return sent;
    },
    now: () => clock.now(),
  });
  const pollEvery = () => POLLING.intervalMs / target.timeScale;
  // The relay is not the API: a plain fetch (the client's own fetch and options), neither paced nor retried as the API is.
  const plainFetch: PlainFetch = (url, init) =>
    options.fetch
      ? options.fetch(new Request(url, init), { ...fetchOptions, signal: init.signal })
      : fetch(url, { ...init, ...fetchOptions });
  const announce = relayUrl
    ? createAnnouncer({ relayUrl, apiKey: key, fetch: plainFetch, log, timeoutMs: ANNOUNCE_TIMEOUT_MS })
    : undefined;
  const settings = new Settings(core);
  const videos = new Videos(core, settings, plan, announce);
  const conversions = new Conversions(core, announce);
  const wait = (id: string, o: WaitOptions = {}) =>
    inFlowSpan('waitForVideo', o.traceContext, (traceContext, span) => {
      span?.setAttribute('videogen.video_id', id);
      return waitForVideo((i, ro) => videos.get(i, ro), clock, id, { ...o, traceContext }, pollEvery);
    });

  const client = {
    /**
     * The typed openapi-fetch client: paced and retried like the helpers, errors returned, not thrown.
     * At most once as well: a create whose attempt may have made the video is not sent again, and its
     * `response` is the service's own answer (it cannot be looked up here: no prompt to match).
     */
    api: createFetchClient<paths>({
      baseUrl,
      headers: { Authorization: `Bearer ${key}` },
      // Path parameters as the helpers check them: one the document does not allow rejects with a
      // ValidationError and is not sent (`.` would reach GET /videos/).
      pathSerializer: (url, params) => {
        for (const [name, value] of Object.entries(params ?? {})) checkPathParameter(name, value);
        return defaultPathSerializer(url, params);
      },
      fetch: async (req) => (await send(await fromRequest(req), { signal: req.signal })).response,
    }),
    baseUrl,
    plan,
    videos,
    settings,
    conversions,
    /** Converts a video after checking the target against its conversion options (= conversions.create). */
    convert: (id: string, target: ConversionTarget, o?: ConvertOptions) => conversions.create(id, target, o),
    /** Polls until completed (x-polling: every 10 s, 600 s at most by default). */
    waitForVideo: (id: string, o?: WaitOptions): APIPromise<Video> => APIPromise.from(wait(id, o)),
    generateAndWait: (input: GenerateInput, o: WaitOptions & GenerateOptions = {}): APIPromise<Video> =>
      APIPromise.from(videos.generate(input, { ...o, timeoutMs: undefined }).then(({ video_id }) => wait(video_id, o))),
    convertAndWait: (id: string, target: ConversionTarget, o: WaitOptions = {}): APIPromise<Video> =>
      APIPromise.from(
        conversions.create(id, target, { ...o, timeoutMs: undefined }).then(({ video_id }) => wait(video_id, o)),
      ),
    /**
     * Tells the relay (`relayUrl`) about a video this process created some other way (`client.api`,
     * curl), so that it watches it at once; `generate` and `convert` do it themselves. Resolves true when
     * the relay stored it, false when it could not be told (it then finds the video by listing); rejects
     * only when the client has no `relayUrl`.
     */
    announce: async (videoId: string, o: AnnounceOptions & { sourceVideoId?: string } = {}): Promise<boolean> => {
      checkPathParameter('video_id', videoId);
      if (!announce) throw new TypeError(`No relay to announce to: pass relayUrl or set ${RELAY_URL_VARIABLE}`);
      return announce(
        { video_id: videoId, ...(o.sourceVideoId && { source_video_id: o.sourceVideoId }) },
        { traceContext: o.traceContext, signal: o.signal },
      );
    },
    /**
     * The account's pacing schedule as it stands (no request is sent, no place taken): requests in
     * flight and the server's waits per rate class, the videos holding running slots, and, with
     * `pacingUrl`, what every process of the account shares (`scope: 'shared'`). Rejects when pacing
     * is off, or when the shared schedule's Redis does not answer.
     */
    schedule: async (): Promise<ScheduleSnapshot> => {
      if (!pacer) throw new TypeError('pacing is off for this client (pacing: false): it keeps no schedule');
      return pacer.inner.inspect();
    },
    /** Streams a completed video to a file; the download host never gets the key. */
    download: (id: string, path: string, o: DownloadOptions = {}) =>
      APIPromise.from(
        inFlowSpan('download', o.traceContext, (traceContext, span) => {
          span?.setAttribute('videogen.video_id', id);
          return download((i, ro) => videos.get(i, ro), send, id, path, {
            maxBytes: options.maxDownloadBytes ?? BODY_LIMITS.maxDownloadBytes,
            ...o,
            traceContext,
          });
        }),
      ),
  };
  return client;
}
export type VideoClient = ReturnType<typeof createClient>;
