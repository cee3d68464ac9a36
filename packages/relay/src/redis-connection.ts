// The relay's Redis connection, made through @videogen/pacer-redis's connectRedis: the same URLs as the
// pacer's VIDEO_API_PACING_URL (the relay's default), checked and shown the same way, to a single server,
// a Redis Cluster named by any node, or the primary its Sentinels name (redis-sentinel://).
import { connectRedis, redactRedisUrl, redisUrlProblem, type RedisConnection } from '@videogen/pacer-redis';

/** How the relay's URL is named in its messages. */
const NAME = "The relay's Redis URL";

export interface RelayRedis {
  /** The URL as it may be printed: user, password and query values replaced. */
  where: string;
  /** The connected client: connects on first use, and again on the next use after a first connection failed. */
  client(): Promise<RedisConnection>;
  close(): void;
}

/**
 * A connection for the relay's state. Unlike the pacer's (which gives up on Redis in 500 ms and paces
 * alone), the relay waits for Redis: once connected, its commands queue while it reconnects, each bounded
 * by `commandTimeoutMs`, and it reconnects for as long as the relay runs. A URL it cannot use throws here
 * (TypeError), before any connection.
 */
export function relayRedis(
  url: string,
  /** Runs once on each new connected client, before any caller gets it (the store defines its scripts). */
  ready: (redis: RedisConnection) => void,
  commandTimeoutMs = 5_000,
): RelayRedis {
  const problem = redisUrlProblem(url, NAME);
  if (problem) throw new TypeError(problem);
  let connecting: Promise<RedisConnection> | undefined;
  let closed = false;
  return {
    where: redactRedisUrl(url),
    client() {
      if (closed) return Promise.reject(new Error('the relay closed its Redis connection'));
      connecting ??= connectRedis(url, { name: NAME, timeoutMs: commandTimeoutMs, reconnect: true }).then(
        (redis) => {
          // Failed commands say what went wrong; ioredis reconnects by itself.
          redis.on('error', () => {});
          if (closed) redis.disconnect();
          else ready(redis);
          return redis;
        },
        (err: unknown) => {
          // Redis was not there at the first use: the next use tries again.
          connecting = undefined;
          throw err;
        },
      );
      return connecting;
    },
    close() {
      closed = true;
      void connecting?.then((redis) => redis.disconnect()).catch(() => {});
    },
  };
}
