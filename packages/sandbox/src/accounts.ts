// Accounts, their plans, credits and API keys. Limits and credits belong to the account, never the key.
import { createHash } from 'node:crypto';
import type { Plan } from './spec.js';
import { BoundedMap } from './bounded-map.js';

export interface AccountConfig {
  /** Account name; shown in logs instead of the key. */
  name: string;
  plan: Plan;
  /** Starting credit balance (a generation or a conversion costs 1). Default 10000. */
  credits?: number;
  /** API keys of the account (`Authorization: Bearer <key>`). */
  keys: string[];
  /** Default true; false: a fresh account, with the 7 settings but none of the scenario videos. */
  seedVideos?: boolean;
}

/** An `Authorization` header of the form the interface gives (5.1): `Bearer <key>`. */
export const BEARER = /^Bearer +(\S+) *$/i;

export const SANDBOX_KEYS = {
  acme: 'sandbox-key-acme',
  acme2: 'sandbox-key-acme-2',
  globex: 'sandbox-key-globex',
  initech: 'sandbox-key-initech',
  umbrella: 'sandbox-key-umbrella',
} as const;

export const DEFAULT_ACCOUNTS: AccountConfig[] = [
  { name: 'acme', plan: 'business', credits: 10000, keys: [SANDBOX_KEYS.acme, SANDBOX_KEYS.acme2] },
  { name: 'globex', plan: 'personal', credits: 10000, keys: [SANDBOX_KEYS.globex] },
  { name: 'initech', plan: 'free', credits: 10000, keys: [SANDBOX_KEYS.initech] },
  { name: 'umbrella', plan: 'business', credits: 0, keys: [SANDBOX_KEYS.umbrella] },
];

export interface Account {
  name: string;
  plan: Plan;
  /** The 8-hex-digit prefix of the account's fixture ids (settings `xxxxxxxx-0000-4000-8000-…`). */
  settingPrefix: string;
  videoPrefix: string;
  /** Whether the scenario videos are seeded (AccountConfig.seedVideos). */
  seedVideos: boolean;
  /** The credits of the seed (and of a reset). */
  initialCredits: number;
}

const PREFIXES: Record<string, [string, string]> = {
  acme: ['5e77a000', '71de0a00'],
  globex: ['5e77b000', '71de0b00'],
  initech: ['5e77c000', '71de0c00'],
  umbrella: ['5e77d000', '71de0d00'],
};

/** Fixed prefixes for the default accounts; a stable hash of the name for configured ones. */
function prefixesOf(name: string): [string, string] {
  if (PREFIXES[name]) return PREFIXES[name];
  const h = createHash('sha256').update(name).digest('hex');
  return [h.slice(0, 8), h.slice(8, 16)];
}

export class Accounts {
  private byKey = new Map<string, Account>();
  /** Authorization headers already read (bounded: a stream of made-up keys cannot grow it). */
  private readonly seen = new BoundedMap<string, Account | undefined>(1_000);
  readonly all = new Map<string, Account>();

  constructor(extra: AccountConfig[] = []) {
    // Configured accounts are added to the default seed; one with a default name replaces it.
    const merged = new Map<string, AccountConfig>();
    for (const a of [...DEFAULT_ACCOUNTS, ...extra]) merged.set(a.name, a);
    for (const cfg of merged.values()) {
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(cfg.name)) throw new Error(`invalid account name ${JSON.stringify(cfg.name)}`);
      const [settingPrefix, videoPrefix] = prefixesOf(cfg.name);
      const account: Account = {
        name: cfg.name,
        plan: cfg.plan,
        settingPrefix,
        videoPrefix,
        seedVideos: cfg.seedVideos !== false,
        initialCredits: cfg.credits ?? 10000,
      };
      this.all.set(cfg.name, account);
      for (const key of cfg.keys) {
        const owner = this.byKey.get(key);
        if (owner && owner.name !== cfg.name)
          throw new Error(`API key configured twice (accounts ${owner.name} and ${cfg.name})`);
        this.byKey.set(key, account);
      }
    }
    // A replaced default account must not keep its old keys.
    for (const [key, account] of this.byKey) if (this.all.get(account.name) !== account) this.byKey.delete(key);
  }

  /** The API keys of an account (the docs' console offers them to choose from). */
  keysOf(name: string): string[] {
    return [...this.byKey].filter(([, account]) => account.name === name).map(([key]) => key);
  }

  /** The account of an `Authorization` header, or undefined when missing, malformed or unknown. */
  authenticate(header: string | undefined): Account | undefined {
    if (typeof header !== 'string') return undefined;
    // Every request of a client sends the same header: read each one once.
    if (this.seen.has(header)) return this.seen.get(header);
    const m = BEARER.exec(header);
    const account = m ? this.byKey.get(m[1]) : undefined;
    this.seen.set(header, account);
    return account;
  }

  keysTable(): Array<{ key: string; account: string; plan: Plan }> {
    return [...this.byKey].map(([key, a]) => ({ key, account: a.name, plan: a.plan }));
  }
}
