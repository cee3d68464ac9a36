// Redis as operators run it, from one URL: a single server (redis://, rediss:// for TLS), a Redis
// Cluster named by any one of its nodes (a provider's configuration endpoint: ElastiCache cluster mode,
// Memorystore Cluster), or a primary found through its Sentinels (redis-sentinel://, rediss-sentinel://).
// The pacer's store connects through it, and so may anything else of the toolkit that shares Redis:
// connectRedis, redisUrlProblem, redactRedisUrl and describeRedisError are exported for that.
//
// Why a Sentinel URL of our own: ioredis documents Sentinel only as options (`sentinels`, `name`), no URL;
// the form here is Lettuce's (the Java client Spring Data Redis uses), the one URL for Sentinel a
// provider's documentation is most likely to show:
//   redis-sentinel://[[user]:password@]host[:port][,host[:port]…][/db][?sentinelPassword=…]#primaryName
// user and password are the primary's; the Sentinels' own password, when they have one, goes in
// `?sentinelPassword=` (ioredis's option, as every query item of a redis:// URL is one of its options).
import { createRequire } from 'node:module';
import type { Cluster, Redis, RedisOptions } from 'ioredis';
import { redactUrl } from '@videogen/openapi/rules';

/** What connectRedis returns: a client of one server (or of the primary behind Sentinels), or of a cluster. */
export type RedisConnection = Redis | Cluster;

// ioredis is loaded by the first connection, not on import: the suite, the CLI and the MCP server import
// this package at every start, and most of their runs pace in memory (ioredis costs about 0.2 s of CPU).
// It is CommonJS; required rather than imported, Node does not lex each module it re-exports (0.09 s more).
const require = createRequire(import.meta.url);
const ioredis = (): typeof import('ioredis') => require('ioredis');

/** Whether a connection is a cluster's (ioredis's own flag: the class is not loaded before a connection). */
export const isCluster = (c: RedisConnection): c is Cluster => c.isCluster;

export interface ConnectRedisOptions {
  /** The longest the connection, and then each command, may take (default 500 ms; the connection at least 1 s). */
  timeoutMs?: number;
  /** More ioredis options, over the defaults below (for example `tls: { ca }` for a private CA). */
  redis?: RedisOptions;
  /** The variable or option that named the URL, for messages (default VIDEO_API_PACING_URL). */
  name?: string;
  /**
   * Wait for Redis rather than fail at once (a relay's state, which has no local fallback): once
   * connected, commands queue while disconnected (each still bounded by `timeoutMs` and retried once) and
   * the client reconnects, to a server, the primary its Sentinels name, or the cluster, for as long as it
   * is open. The first connection fails at once as without it (so that the caller can say so and try
   * again), and is awaited, so that a cluster is recognised.
   */
  reconnect?: boolean;
}

/** The variable every tool of the toolkit reads for the shared pacer's Redis (client, CLI, contract suite, pacing proxy). */
export const PACING_URL_VARIABLE = 'VIDEO_API_PACING_URL';

const SCHEMES = ['redis:', 'rediss:', 'redis-sentinel:', 'rediss-sentinel:'];
const DEFAULT_NAME = PACING_URL_VARIABLE;
const EXAMPLES =
  'redis://localhost:6379/0, rediss://user:password@host:6380/0 or redis-sentinel://host:26379,host2:26379/0#mymaster';

/** The URL as it may be printed: the toolkit's one redaction of user, password and every query value. */
export const redactRedisUrl = (url: string): string => redactUrl(url);

interface SentinelTarget {
  sentinels: Array<{ host: string; port: number }>;
  name: string;
  db?: number;
  username?: string;
  password?: string;
  tls: boolean;
  query: Record<string, string>;
}

/** A redis-sentinel:// URL read by its parts (it names several hosts, which no URL parser accepts). */
function sentinelTarget(url: string, name: string): SentinelTarget | string {
  const m = /^(rediss?)-sentinel:\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?(?:#(.*))?$/i.exec(url);
  if (!m) return `${name} must be a URL such as ${EXAMPLES}`;
  const [, scheme, userInfo, hosts, path, query, primary] = m;
  const sentinels: SentinelTarget['sentinels'] = [];
  for (const part of (hosts ?? '').split(',')) {
    const hp = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(part.trim());
    if (!hp) return `${name} names a Sentinel as ${JSON.stringify(part)}: use host or host:port, separated by commas`;
    sentinels.push({ host: hp[1].replace(/^\[(.*)\]$/, '$1'), port: hp[2] ? Number(hp[2]) : 26379 });
  }
  const primaryName = decodeURIComponent(primary ?? '');
  if (!primaryName)
    return `${name} names no primary: end it with #NAME, the name the Sentinels know the primary by (redis-sentinel://host:26379#mymaster)`;
  const db = (path ?? '').replace(/^\//, '');
  if (db && !/^\d+$/.test(db)) return `${name}'s path is a database number (/0), got /${db}`;
  const target: SentinelTarget = { sentinels, name: primaryName, tls: scheme.toLowerCase() === 'rediss', query: {} };
  if (db) target.db = Number(db);
  if (userInfo) {
    const colon = userInfo.indexOf(':');
    const user = decodeURIComponent(colon < 0 ? userInfo : userInfo.slice(0, colon));
    if (user) target.username = user;
    if (colon >= 0) target.password = decodeURIComponent(userInfo.slice(colon + 1));
  }
  for (const [k, v] of new URLSearchParams(query ?? '')) target.query[k] = v;
  return target;
}

/**
 * What is wrong with a Redis URL, or undefined when connectRedis can use it: redis://, rediss://,
 * redis-sentinel:// or rediss-sentinel://, with a host and, in the path, a database number. Never
 * repeats the URL (it may hold a password).
 */
export function redisUrlProblem(url: string, name: string = DEFAULT_NAME): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'redis-sentinel:' || scheme === 'rediss-sentinel:') {
    const target = sentinelTarget(url, name);
    return typeof target === 'string' ? target : undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${name} must be a URL such as ${EXAMPLES}`;
  }
  if (!SCHEMES.includes(parsed.protocol))
    return `${name} must be a redis://, rediss:// (TLS) or redis-sentinel:// URL, got ${parsed.protocol}//`;
  if (!parsed.hostname) return `${name} names no host`;
  const db = parsed.pathname.replace(/^\//, '');
  if (db && !/^\d+$/.test(db)) return `${name}'s path is a database number (/0), got /${db}`;
  return undefined;
}

/**
 * When ioredis tries again (its retry strategies): never by default (a timer of its own would keep the
 * process alive; the caller reconnects); with `reconnect`, once the first connection was made, 200 ms more
 * each time, at most 2 s.
 */
function retries(reconnect: boolean) {
  let connectedOnce = false;
  return {
    strategy: (times: number): number | null => (reconnect && connectedOnce ? Math.min(200 * times, 2_000) : null),
    connected: () => {
      connectedOnce = true;
    },
  };
}

/**
 * The options every connection starts from: by default fail at once rather than queue or retry (the
 * caller decides); with `reconnect`, queue while disconnected and reconnect (see ConnectRedisOptions).
 */
function baseOptions(
  timeoutMs: number,
  reconnect: boolean,
  retryStrategy: (times: number) => number | null,
  extra: RedisOptions | undefined,
): RedisOptions {
  return {
    lazyConnect: true,
    // By default fail at once while disconnected instead of queueing: a caller that cannot wait decides alone.
    enableOfflineQueue: reconnect,
    maxRetriesPerRequest: reconnect ? 1 : 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1000),
    retryStrategy,
    ...extra,
  };
}

/**
 * A connected client for `url`: a single server, the cluster a node of it belongs to (its `INFO` says
 * `cluster_enabled:1`, so that the URL a provider gives for its cluster works as given), or the primary
 * its Sentinels name. Commands fail at once while disconnected and after `timeoutMs`; nothing reconnects
 * by itself (`connect()` again) unless `reconnect` is set; errors after the connection are only emitted
 * (listen to `error` to hear them). Rejects with a TypeError for a URL redisUrlProblem refuses, else with what went wrong
 * (describeRedisError says it in words).
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<RedisConnection> {
  const name = options.name ?? DEFAULT_NAME;
  const problem = redisUrlProblem(url, name);
  if (problem) throw new TypeError(problem);
  const timeoutMs = options.timeoutMs ?? 500;
  const reconnect = options.reconnect ?? false;
  const retry = retries(reconnect);
  const base = baseOptions(timeoutMs, reconnect, retry.strategy, options.redis);
  const { Cluster, Redis } = ioredis();
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme.endsWith('-sentinel')) {
    const t = sentinelTarget(url, name) as SentinelTarget;
    const redis = new Redis({
      ...t.query,
      ...base,
      sentinels: t.sentinels,
      name: t.name,
      ...(t.db !== undefined && { db: t.db }),
      ...(t.username && { username: t.username }),
      ...(t.password !== undefined && { password: t.password }),
      ...(t.tls && { tls: base.tls ?? {}, enableTLSForSentinelMode: true }),
      sentinelRetryStrategy: retry.strategy,
    });
    await connected(redis);
    retry.connected();
    return redis;
  }
  // One INFO tells a cluster node, in place of ioredis's ready check (a server still loading answers
  // LOADING to the first script, said in words): as many round trips as a plain connection.
  const single = new Redis(url, { enableReadyCheck: false, ...base });
  await connected(single);
  retry.connected();
  let info: string;
  try {
    info = await single.info();
  } catch (err) {
    // A server that refuses INFO (a restricted user) is used as a single server.
    if ((err as Error).name === 'ReplyError' && /NOPERM|^ERR unknown command/.test((err as Error).message))
      return single;
    single.disconnect();
    throw err;
  }
  if (!/^cluster_enabled:1/m.test(info)) return single;
  const o = single.options;
  single.disconnect();
  if (o.db) {
    throw new TypeError(
      `${name} names database ${o.db} of a Redis Cluster, which has only database 0: remove /${o.db} from the URL`,
    );
  }
  // Its own retries: the cluster's first connection fails at once too.
  const clusterRetry = retries(reconnect);
  const cluster = new Cluster([{ host: o.host, port: o.port }], {
    lazyConnect: true,
    enableOfflineQueue: reconnect,
    clusterRetryStrategy: clusterRetry.strategy,
    slotsRefreshTimeout: Math.max(timeoutMs, 1000),
    // The nodes' addresses as the cluster names them: with TLS the certificate names the host (AWS's advice for ElastiCache).
    ...(o.tls && { dnsLookup: (address: string, done: (err: null, a: string) => void) => done(null, address) }),
    redisOptions: {
      ...(o.username && { username: o.username }),
      ...(o.password && { password: o.password }),
      ...(o.tls && { tls: o.tls }),
      maxRetriesPerRequest: base.maxRetriesPerRequest,
      commandTimeout: timeoutMs,
      connectTimeout: base.connectTimeout,
    },
  });
  await connected(cluster);
  clusterRetry.connected();
  return cluster;
}

/**
 * Connects a lazy client; a failure disconnects it, so that no socket or timer is left behind, and
 * rejects with what went wrong (ECONNREFUSED, a TLS error, NOAUTH), not ioredis's "Connection is closed.".
 */
async function connected(client: RedisConnection): Promise<void> {
  let cause: Error | undefined;
  client.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw cause ?? err;
  }
}

/** What the first word of a Redis error reply means here, and what to do about it. */
const ANSWERS: Record<string, string> = {
  NOAUTH: 'it needs a password: give it in the URL, redis://user:password@host',
  WRONGPASS: 'the user or password in the URL is refused',
  NOPERM: "the URL's user may not run what the store runs: EVALSHA, PUBLISH, SUBSCRIBE, PING, INFO",
  OOM: 'it is out of memory, past maxmemory, and refuses writes',
  READONLY: 'the URL names a replica: name the primary, or its Sentinels with redis-sentinel://host:26379#primary',
  MOVED: "the account's keys live on another node of a Redis Cluster that was not recognised as one",
  ASK: "the cluster is moving the account's slot to another node",
  CLUSTERDOWN: "the cluster cannot serve the account's slot",
  TRYAGAIN: "the cluster is resharding the account's slot",
  MASTERDOWN: 'the replica lost its primary',
  LOADING: 'it is loading its data after a restart',
  BUSY: 'a script is running too long',
  MISCONF: 'it cannot save to disk and refuses writes',
};
const ANSWER = new RegExp(`(?:^|: )(${Object.keys(ANSWERS).join('|')})\\b`);

/**
 * An error of ioredis in words, for a log line: `answered NOAUTH (it needs a password: …)` when Redis
 * answered with one of the errors above (an error reply, or a connection that failed on one),
 * `answered an error (…)` for another reply, `did not answer (connect ECONNREFUSED …)` when it did not.
 */
export function describeRedisError(err: unknown): string {
  const e = err as { name?: string; message?: string; lastNodeError?: unknown };
  // A cluster that failed as a whole carries the error of the last node it tried.
  if (e?.lastNodeError) return describeRedisError(e.lastNodeError);
  const message = String(e?.message ?? err);
  const word = ANSWER.exec(message)?.[1];
  if (word) return `answered ${word} (${ANSWERS[word]})`;
  return e?.name === 'ReplyError' ? `answered an error (${message})` : `did not answer (${message})`;
}
