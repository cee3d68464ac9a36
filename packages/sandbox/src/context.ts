// What every route handler needs, built once per sandbox.
import type { Account, Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { RateLimiter } from './rate-limit.js';
import type { TwinBehaviour } from './twin-behaviour.js';
import type { Faults, ResponseStats } from './faults.js';
import type { UrlSigner } from './signing.js';
import type { SpecModel } from './spec.js';
import type { Store } from './store.js';
import type { Operation } from '@videogen/openapi';
import type { BoundedMap } from './bounded-map.js';
import type { Json } from './json-body.js';
import type { StatusView } from './videos.js';

export interface Context {
  model: SpecModel;
  accounts: Accounts;
  store: Store;
  clock: Clock;
  limiter: RateLimiter;
  /** How to answer where the interface is silent: the twin (twin-behaviour.ts). */
  twin: TwinBehaviour;
  /** Behaviour injected for an account's next requests (/_sandbox/faults). */
  faults: Faults;
  /** Statuses answered per account on /v1 (/_sandbox/stats, RunningSandbox.stats()). */
  stats: ResponseStats;
  signer: UrlSigner;
  /** Set once the server listens; the API's origin. */
  origin: string;
  /** The origin of download URLs: the API's, or another one when the twin's downloads live elsewhere. */
  downloadOrigin: string;
  /** The last status view answered per video (videos.ts statusJson). */
  views: BoundedMap<string, Json<StatusView>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
    /** Answered in a form of the twin's that our document has no counterpart for (the self-check leaves it). */
    twinAnswer?: boolean;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}
