// The relay's options, as the library takes them and the command line gives them (`videogen relay`),
// with their defaults and the checks that refuse a relay that could not work, each with the fix.
import { type ClientOptions, WEBHOOK_SECRET_VARIABLE, webhookSecrets } from '@videogen/client';
import { Webhook } from 'standardwebhooks';
import { isLoopbackHostname } from '@videogen/openapi/rules';
import { DEFAULTS } from './defaults.js';

export { DEFAULTS };

/** Where the relay's own HTTP endpoint listens (announces from the client, health, status). */
export interface ListenOptions {
  port: number;
  /** Default 127.0.0.1; `0.0.0.0` to be reached from other machines. */
  host?: string;
}

export interface RelayLogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

export interface RelayOptions {
  /** The receiver's URL: every event is POSTed there. */
  forwardTo: string;
  /**
   * The signing secrets, `whsec_…` (Standard Webhooks): one, or several during a rotation (an array, or one
   * string with spaces or commas between them). Default: VIDEO_WEBHOOK_SECRET. Each delivery is signed with all.
   */
  secret?: string | readonly string[];
  /** The account's API key (default VIDEO_API_KEY), base URL (VIDEO_API_BASE_URL), shared pacing (VIDEO_API_PACING_URL). */
  apiKey?: string;
  baseUrl?: string;
  pacingUrl?: string;
  /**
   * Where several relays share the work: a `redis://` or `rediss://` URL. Default: the pacing URL (the
   * Redis the account's processes already share). Without either, the relay keeps its state in `stateFile`.
   */
  redisUrl?: string;
  /** The state of a relay without Redis (default `videogen-relay.json` in the working directory). */
  stateFile?: string;
  /** Listen for announces (`POST /announce`), `GET /healthz` and `GET /status`: a port, `host:port`, or both given. */
  listen?: number | string | ListenOptions;
  /** Between two status reads of a running video (default 10 s, x-polling: what each process would poll at). */
  pollIntervalMs?: number;
  /** Between two listings of the account's videos, which find the videos nobody announced (default 20 s). */
  listIntervalMs?: number;
  /** The most list pages one listing reads when the order of the list cannot say where the new videos are (default 3). */
  maxListPages?: number;
  /** Waits before each attempt of a delivery, the first included (default: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h). */
  retryScheduleMs?: readonly number[];
  /** How long a receiver has to answer (default 15 s). */
  deliveryTimeoutMs?: number;
  /** How long a relay holds a video it works on without renewing (default 30 s): a dead relay's videos move on after it. */
  leaseMs?: number;
  /** Videos worked on at once by this relay: deliveries in parallel (polls are paced anyway); default 8. */
  concurrency?: number;
  /**
   * On the very first start (no state yet), videos listed that were created less than this long ago are
   * watched too (default 10 min: a video started just before the relay); older ones are not.
   */
  backfillMs?: number;
  /** A video still running after this long is no longer polled (default 24 h), with a warning. */
  maxWatchMs?: number;
  /**
   * Read each completed video again this often until it is `expired`, to send `video.expired` (default:
   * off; one status read per completed video per period). Without it `video.expired` is sent for the
   * videos the relay reads expired (an announced or listed video found so, a retry that finds it so).
   */
  watchExpiryMs?: number;
  /** Where log records go (default: stderr, one JSON line each). `logLevel`: from which level (default info). */
  logger?: (record: RelayLogRecord) => void;
  logLevel?: RelayLogRecord['level'] | 'off';
  /** More options for the relay's client (fetch, logger, timeouts…): never the key or URLs, given above. */
  client?: Omit<ClientOptions, 'apiKey' | 'baseUrl' | 'pacingUrl' | 'relayUrl'>;
  /** The key prefix on Redis (default `videogen:relay`). */
  redisPrefix?: string;
}

export interface Resolved {
  forwardTo: string;
  secrets: string[];
  redisUrl?: string;
  stateFile: string;
  listen?: ListenOptions;
  pollIntervalMs: number;
  listIntervalMs: number;
  maxListPages: number;
  retryScheduleMs: readonly number[];
  deliveryTimeoutMs: number;
  leaseMs: number;
  concurrency: number;
  backfillMs: number;
  maxWatchMs: number;
  watchExpiryMs?: number;
  /** The forward-to URL is plain HTTP to another machine: said once at start. */
  plainHttp: boolean;
}

/** The options checked and completed; a TypeError naming the fix for anything that cannot work. */
export function resolveOptions(o: RelayOptions, env: Record<string, string | undefined> = process.env): Resolved {
  if (!o.forwardTo) throw new TypeError('No receiver: pass forwardTo (--forward-to URL), where every event is POSTed');
  let target: URL;
  try {
    target = new URL(o.forwardTo);
  } catch {
    throw new TypeError(
      `forwardTo (--forward-to) must be a URL such as https://app.example/webhooks, got ${JSON.stringify(o.forwardTo)}`,
    );
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new TypeError(`forwardTo (--forward-to) must be an https:// (or http://) URL, got ${target.protocol}//`);
  if (target.username || target.password)
    throw new TypeError(
      'forwardTo (--forward-to) takes no user or password: deliveries are authenticated by their signature',
    );
  const secretText = o.secret ?? env[WEBHOOK_SECRET_VARIABLE];
  if (!secretText || (typeof secretText === 'string' && !secretText.trim()))
    throw new TypeError(
      `No signing secret: set ${WEBHOOK_SECRET_VARIABLE}=whsec_… (or pass secret); generate one with: node -e "console.log('whsec_'+require('crypto').randomBytes(32).toString('base64'))"`,
    );
  const secrets = webhookSecrets(secretText);
  for (const s of secrets) {
    try {
      if (!s.startsWith('whsec_')) throw new Error('it does not start with whsec_');
      new Webhook(s);
    } catch (e) {
      throw new TypeError(
        `A signing secret is not a Standard Webhooks secret (whsec_ and base64): ${(e as Error).message}`,
      );
    }
  }
  const positive = (name: keyof RelayOptions, v: number | undefined, d: number, min = 1) => {
    if (v === undefined) return d;
    if (!Number.isFinite(v) || v < min) throw new TypeError(`${name} must be a number of at least ${min}, got ${v}`);
    return v;
  };
  const schedule = o.retryScheduleMs ?? DEFAULTS.retryScheduleMs;
  if (schedule.length === 0 || schedule.some((ms) => !Number.isFinite(ms) || ms < 0))
    throw new TypeError('retryScheduleMs must list at least one wait (ms, 0 or more): one per attempt');
  const redisUrl = o.redisUrl ?? o.pacingUrl ?? (env.VIDEO_API_PACING_URL || undefined);
  return {
    forwardTo: target.href,
    secrets,
    ...(redisUrl && { redisUrl }),
    stateFile: o.stateFile ?? DEFAULTS.stateFile,
    ...(o.listen !== undefined && { listen: listenOf(o.listen) }),
    pollIntervalMs: positive('pollIntervalMs', o.pollIntervalMs, DEFAULTS.pollIntervalMs),
    listIntervalMs: positive('listIntervalMs', o.listIntervalMs, DEFAULTS.listIntervalMs),
    maxListPages: positive('maxListPages', o.maxListPages, DEFAULTS.maxListPages),
    retryScheduleMs: schedule,
    deliveryTimeoutMs: positive('deliveryTimeoutMs', o.deliveryTimeoutMs, DEFAULTS.deliveryTimeoutMs),
    leaseMs: positive('leaseMs', o.leaseMs, DEFAULTS.leaseMs, 100),
    concurrency: Math.floor(positive('concurrency', o.concurrency, DEFAULTS.concurrency)),
    backfillMs: positive('backfillMs', o.backfillMs, DEFAULTS.backfillMs, 0),
    maxWatchMs: positive('maxWatchMs', o.maxWatchMs, DEFAULTS.maxWatchMs),
    ...(o.watchExpiryMs !== undefined && { watchExpiryMs: positive('watchExpiryMs', o.watchExpiryMs, 0) }),
    plainHttp: target.protocol === 'http:' && !isLoopbackHostname(target.hostname),
  };
}

/** `8787`, `"8787"`, `"0.0.0.0:8787"`, `"[::1]:8787"` or `{ port, host }`. */
export function listenOf(v: number | string | ListenOptions): ListenOptions {
  if (typeof v === 'object') return v;
  const text = String(v).trim();
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port > 65535)
    throw new TypeError(`listen must be a port or host:port (8787, 0.0.0.0:8787), got ${JSON.stringify(text)}`);
  return { port, ...(m[1] && { host: m[1].replace(/^\[|\]$/g, '') }) };
}
