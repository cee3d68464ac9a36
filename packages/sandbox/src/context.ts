// What every route handler needs, built once per sandbox.
import type { Account, Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { RateLimiter } from './rate-limit.js';
import type { UrlSigner } from './signing.js';
import type { SpecModel } from './spec.js';
import type { Store } from './store.js';
import type { Operation } from '@videogen/openapi';

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
  signer: UrlSigner;
  durations: Durations;
  /** Set once the server listens; download URLs point at it. */
  origin: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}
