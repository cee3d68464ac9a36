// What every route handler needs, built once per sandbox.
import type { Account, Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { RateLimiter } from './rate-limit.js';
import type { Personality } from './personality.js';
import type { Faults, ResponseStats } from './faults.js';
import type { UrlSigner } from './signing.js';
import type { SpecModel } from './spec.js';
import type { Store } from './store.js';
import type { Operation } from '@videogen/openapi';
import type { BoundedMap } from './bounded-map.js';
import type { Json } from './json-body.js';
import type { StatusView } from './videos.js';

export interface Durations {
  generationSeconds: number;
  expireAfterSeconds: number;
  downloadTtlSeconds: number;
}

export interface Context {
  model: SpecModel;
  accounts: Accounts;
  store: Store;
  clock: Clock;
  limiter: RateLimiter;
  /** How to answer where the interface is silent (personality.ts). */
  personality: Personality;
  /** Behaviour injected for an account's next requests (/_sandbox/faults). */
  faults: Faults;
  /** Statuses answered per account on /v1 (/_sandbox/stats, RunningSandbox.stats()). */
  stats: ResponseStats;
  signer: UrlSigner;
  durations: Durations;
  /** Set once the server listens; download URLs point at it. */
  origin: string;
  /** The last status view answered per video (videos.ts statusJson). */
  views: BoundedMap<string, Json<StatusView>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}
