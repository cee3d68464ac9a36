// Whose limits a request counts against. The interface puts the limits on the user account (5.5,
// 8.1, 8.2), and a request names its account only through its key: by default each key is its own
// account, `--same-account` groups the keys of one account (by fingerprint, so no key is ever typed
// on a command line), and `--one-account` puts every key in one (the safe choice when unsure).
// Keys are held in memory only, to redact them from everything the proxy writes (the toolkit's one
// redaction, @videogen/openapi/rules' Redactor).
import { fingerprint } from '../engine/fingerprint.ts';
import { Redactor } from '@videogen/openapi/rules';

export interface Caller {
  /** The pacer's account name: the group's first fingerprint, or the key's own. */
  account: string;
  /** `key:` and the first 12 hex digits of the key's SHA-256: printable, not the key. */
  fingerprint: string;
  /** The Authorization header as the caller sent it (for the proxy's own status reads). Never logged. */
  authorization: string;
}

/** The secret of an Authorization header: the token of `Bearer <token>`, else the whole value. */
function secretOf(header: string): string {
  const m = /^Bearer\s+(.+?)\s*$/i.exec(header);
  return m ? m[1] : header.trim();
}

export class Accounts {
  private readonly groups = new Map<string, string>();
  private readonly secrets = new Redactor();
  private readonly seen = new Set<string>();
  private readonly oneAccount: boolean;

  constructor(
    options: { sameAccount?: string[][]; oneAccount?: boolean } = {},
    private readonly onNew: (fingerprint: string, account: string) => void = () => {},
  ) {
    this.oneAccount = options.oneAccount ?? false;
    for (const group of options.sameAccount ?? []) {
      const fps = group.map((f) => (f.startsWith('key:') ? f : `key:${f}`).toLowerCase());
      for (const fp of fps) this.groups.set(fp, fps[0]);
    }
  }

  /** The caller of a request, or undefined without an Authorization header (not paced: no account). */
  of(authorization: string | string[] | undefined): Caller | undefined {
    const header = Array.isArray(authorization) ? authorization[0] : authorization;
    if (!header?.trim()) return undefined;
    const secret = secretOf(header);
    this.secrets.add(secret);
    const fp = fingerprint(secret);
    const account = this.oneAccount ? 'all keys' : (this.groups.get(fp) ?? fp);
    if (!this.seen.has(fp)) {
      this.seen.add(fp);
      this.onNew(fp, account);
    }
    return { account, fingerprint: fp, authorization: header };
  }

  /** Fingerprints seen so far. */
  fingerprints(): string[] {
    return [...this.seen];
  }

  /** `text` with every key seen redacted: as sent, JSON-escaped and URL-encoded. */
  scrub(text: string): string {
    return this.secrets.text(text);
  }
}
