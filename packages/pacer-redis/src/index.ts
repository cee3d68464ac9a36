// @videogen/pacer-redis: the per-account pacer schedule of @videogen/client (and of the contract suite
// and the pacing proxy) on Redis, shared by every process and machine that paces one account.
export {
  createRedisPacerStore,
  RedisPacerStore,
  type RedisPacerStoreOptions,
  type PacingLog,
} from './redis-store.js';
// How the store reaches Redis, for anything else that shares it: one URL for a single server, a cluster
// (any node) or Sentinels; its problems said before connecting; printed redacted; errors in words.
export {
  connectRedis,
  describeRedisError,
  isCluster,
  PACING_URL_VARIABLE,
  redactRedisUrl,
  redisUrlProblem,
  type ConnectRedisOptions,
  type RedisConnection,
} from './connection.js';
/** @deprecated the same as redisUrlProblem (its messages name VIDEO_API_PACING_URL by default). */
export { redisUrlProblem as pacingUrlProblem, redactRedisUrl as redactPacingUrl } from './connection.js';
