// Whose limits a request counts against. The interface puts the limits on the user account (5.5,
// 8.1, 8.2), and a request names its account only through its key: by default each key is its own
// account, named by its identity (the whole SHA-256: two keys never share one by a short hash's
// collision, and each is registered for redaction), `--same-account` groups the keys of one account
// (by the fingerprints the proxy prints, or longer prefixes of the digest, so no key is ever typed on a
// command line), and `--one-account` puts every key in one (the safe choice when unsure).
// Keys are held in memory only, to redact them from everything the proxy writes (the toolkit's one
// redaction, @videogen/openapi/rules' Redactor).
//
// Bounded (issue 28, hole 7): a key with no request in flight is forgotten once it has not been seen for
// `keyIdleMs`, or, beyond `maxKeys` keys, the one seen least recently first; the pacer is told to drop
// its account's schedule when no key of the account is left. Nothing is lost by it: a forgotten key that
// comes back is met afresh, and by then its account's windows have passed.
import { keyNames } from '../engine/key-names.ts';
import { Redactor } from '@videogen/openapi/rules';

export interface Caller {
  /** The pacer's account name: the group's first fingerprint, or the key's identity. */
  account: string;
  /** `sha256:` and the key's whole SHA-256: what the proxy holds the key by. */
  identity: string;
  /** `key:` and the first 12 hex digits of the key's SHA-256: printable, not the key, for display only. */
  fingerprint: string;
  /** The Authorization header as the caller sent it (for the proxy's own status reads). Never logged. */
  authorization: string;
}

/** Keys held at most (the least recently seen idle key goes first). */
export const MAX_KEYS = 1000;
/** A key not seen for this long, with no request in flight, is forgotten. */
export const KEY_IDLE_MS = 60 * 60_000;

interface Held {
  secret: string;
  fingerprint: string;
  account: string;
  lastSeen: number;
  /** Requests of this key not finished yet. */
  active: number;
}

export interface AccountsOptions {
  sameAccount?: string[][];
  oneAccount?: boolean;
  maxKeys?: number;
  keyIdleMs?: number;
  now?: () => number;
}

/** The secret of an Authorization header: the token of `Bearer <token>`, else the whole value. */
function secretOf(header: string): string {
  const m = /^Bearer\s+(.+?)\s*$/i.exec(header);
  return m ? m[1] : header.trim();
}

export class Accounts {
  /** `--same-account`: digest prefixes (12 hex digits or more) → the group's account. */
  private readonly groups: Array<{ prefix: string; account: string }> = [];
  private readonly secrets = new Redactor();
  /** identity → its key; in the order last seen (a Map keeps insertion order: a use moves it last). */
  private readonly held = new Map<string, Held>();
  /** Keys held per account: its schedule goes when the last one does. */
  private readonly perAccount = new Map<string, number>();
  /** Accounts without a key whose schedule still held something (a running video): asked again later. */
  private readonly lingering = new Set<string>();
  private readonly oneAccount: boolean;
  private readonly maxKeys: number;
  private readonly keyIdleMs: number;
  private readonly now: () => number;
  /** Keys forgotten so far. */
  forgotten = 0;

  constructor(
    options: AccountsOptions = {},
    private readonly onNew: (fingerprint: string, account: string, identity: string) => void = () => {},
    /**
     * Told when the last key of an account is forgotten: the pacer drops its schedule, or says it
     * cannot yet (false: a video still running), and is asked again on later requests.
     */
    private readonly onForget: (account: string) => boolean = () => true,
  ) {
    this.oneAccount = options.oneAccount ?? false;
    this.maxKeys = options.maxKeys ?? MAX_KEYS;
    this.keyIdleMs = options.keyIdleMs ?? KEY_IDLE_MS;
    this.now = options.now ?? Date.now;
    for (const group of options.sameAccount ?? []) {
      const prefixes = group.map((f) => f.toLowerCase().replace(/^(key|sha256):/, ''));
      for (const prefix of prefixes) this.groups.push({ prefix, account: `key:${prefixes[0]}` });
    }
  }

  /** The account a key is paced as: its group's (a digest prefix given), else its own identity. */
  private accountOf(identity: string): string {
    if (this.oneAccount) return 'all keys';
    const digest = identity.slice('sha256:'.length);
    return this.groups.find((g) => digest.startsWith(g.prefix))?.account ?? identity;
  }

  /**
   * The caller of a request, or undefined without an Authorization header (not paced: no account).
   * The key is held until `done(caller)` is called as often as `of` returned it.
   */
  of(authorization: string | string[] | undefined): Caller | undefined {
    const header = Array.isArray(authorization) ? authorization[0] : authorization;
    if (!header?.trim()) return undefined;
    const secret = secretOf(header);
    const { identity, fingerprint } = keyNames(secret);
    const now = this.now();
    let held = this.held.get(identity);
    if (held) this.held.delete(identity);
    else {
      const account = this.accountOf(identity);
      held = { secret, fingerprint, account, lastSeen: now, active: 0 };
      this.secrets.add(secret);
      this.perAccount.set(account, (this.perAccount.get(account) ?? 0) + 1);
      this.onNew(fingerprint, account, identity);
    }
    held.lastSeen = now;
    held.active++;
    this.held.set(identity, held);
    this.sweep(now);
    return { account: held.account, identity, fingerprint, authorization: header };
  }

  /** The caller's request is over: its key may be forgotten once idle. */
  done(caller: Caller | undefined): void {
    const held = caller && this.held.get(caller.identity);
    if (held) held.active = Math.max(0, held.active - 1);
  }

  /** Fingerprints of the keys held now (at most maxKeys, besides keys in flight); two keys may show one. */
  fingerprints(): string[] {
    return [...this.held.values()].map((h) => h.fingerprint);
  }

  get size(): number {
    return this.held.size;
  }

  /** `text` with every key held redacted: as sent, JSON-escaped and URL-encoded. */
  scrub(text: string): string {
    return this.secrets.text(text);
  }

  /** Forgets keys idle too long, then the least recently seen idle ones beyond maxKeys. */
  private sweep(now: number): void {
    // A few accounts left behind are asked again each time (each is dropped within the polling limit).
    let asked = 0;
    for (const account of this.lingering) {
      if (asked++ >= 4) break;
      this.lingering.delete(account);
      if (!this.perAccount.has(account) && !this.onForget(account)) this.lingering.add(account);
    }
    let over = this.held.size - this.maxKeys;
    for (const [identity, held] of this.held) {
      const expired = now - held.lastSeen >= this.keyIdleMs;
      if (!expired && over <= 0) break;
      if (held.active > 0) continue;
      this.forget(identity, held);
      over--;
    }
  }

  private forget(identity: string, held: Held): void {
    this.held.delete(identity);
    this.secrets.remove(held.secret);
    this.forgotten++;
    const left = (this.perAccount.get(held.account) ?? 1) - 1;
    if (left > 0) return void this.perAccount.set(held.account, left);
    this.perAccount.delete(held.account);
    if (!this.onForget(held.account)) this.lingering.add(held.account);
  }
}
