// The relay's one Redis connection, made in one place: the URL checked and shown the way
// @videogen/pacer-redis checks and shows VIDEO_API_PACING_URL (the same variable, by default), so that
// a change of how the toolkit connects to Redis (a cluster, a sentinel) is made here once.
import { pacingUrlProblem, redactPacingUrl } from '@videogen/pacer-redis';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConnection {
  redis: Redis;
  /** The URL as it may be printed: user and password replaced. */
  where: string;
}

/**
 * A connection for the relay's state. Unlike the pacer's (which gives up on Redis in 500 ms and paces
 * alone), the relay waits for Redis: its commands queue while it reconnects, each bounded by
 * `commandTimeoutMs`, and it reconnects for as long as the process runs.
 */
export function connectRedis(url: string, options: RedisOptions = {}, commandTimeoutMs = 5_000): RedisConnection {
  const problem = pacingUrlProblem(url);
  if (problem) throw new TypeError(problem.replace(/VIDEO_API_PACING_URL/g, "The relay's Redis URL"));
  const redis = new Redis(url, {
    lazyConnect: true,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(200 * times, 2_000),
    ...options,
  });
  return { redis, where: redactPacingUrl(url) };
}
