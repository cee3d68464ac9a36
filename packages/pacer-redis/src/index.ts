// @videogen/pacer-redis: the per-account pacer schedule of @videogen/client (and of the contract suite
// and the pacing proxy) on Redis, shared by every process and machine that paces one account.
export {
  createRedisPacerStore,
  RedisPacerStore,
  type RedisPacerStoreOptions,
  type PacingLog,
} from './redis-store.js';
export { PACING_URL_VARIABLE, pacingUrlProblem, redactPacingUrl } from './url.js';
