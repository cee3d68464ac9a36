// The one redaction of the toolkit: API keys never reach a log, an error, a report, a HAR or a snapshot.
// The client, the CLI, the contract suite and the pacing proxy each hold a Redactor with the keys they
// know and pass every text, parsed body, header set and URL they emit through it. One marker stands
// where a secret was: REDACTED.

/** What stands where a secret was. A label saying which secret goes inside: `[redacted key:0123456789ab]`. */
export const REDACTED = '[redacted]';

/** `[redacted]`, or `[redacted LABEL]` when the label says which secret it was (never the secret). */
export const redactedAs = (label?: string) => (label ? `[redacted ${label}]` : REDACTED);

/** Secrets shorter than this are not redacted: they would blank ordinary words. */
const MIN_SECRET = 4;
const ANY_BEARER = /Bearer\s+\S+/gi;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface RedactorOptions {
  /**
   * Also redact every `Bearer <token>` in a text, whatever the token: for messages shown to a person
   * (the CLI), where an unknown token is as much a secret. Off where a deliberately invalid token must
   * stay readable (the contract suite records the malformed keys it sends, to replay them).
   */
  bearerTokens?: boolean;
}

export class Redactor {
  readonly #secrets = new Set<string>();
  #pattern: RegExp | undefined;
  readonly #bearer: boolean;

  constructor(secrets: Iterable<string | undefined | null> = [], options: RedactorOptions = {}) {
    this.#bearer = options.bearerTokens ?? false;
    for (const s of secrets) this.add(s);
  }

  /** Adds a secret (an API key). Too short or empty: ignored. */
  add(secret: string | undefined | null): void {
    if (!secret || secret.length < MIN_SECRET || this.#secrets.has(secret)) return;
    this.#secrets.add(secret);
    this.#pattern = undefined;
  }

  get size(): number {
    return this.#secrets.size;
  }

  /**
   * A text with every secret replaced: as sent, as it appears inside JSON text (a key holding `"` or `\`
   * is escaped there) and URL-encoded. Longest first, so that a key containing another goes whole.
   */
  text(text: string): string {
    let out = text;
    const pattern = this.#compiled();
    if (pattern) out = out.replace(pattern, REDACTED);
    if (this.#bearer) out = out.replace(ANY_BEARER, `Bearer ${REDACTED}`);
    return out;
  }

  /** A parsed value (a JSON body, a log record) with every string redacted, property names included. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.value(v)])) as T;
    return value;
  }

  /** Headers as pairs: an Authorization value keeps its scheme and loses its credential; every other value is redacted as text. */
  headers(pairs: Iterable<[string, string]>, label?: string): Array<[string, string]> {
    return [...pairs].map(([name, value]) => [
      name,
      name.toLowerCase() === 'authorization' ? redactAuthorization(value, label) : this.text(value),
    ]);
  }

  #compiled(): RegExp | undefined {
    if (this.#secrets.size === 0) return undefined;
    if (!this.#pattern) {
      const forms = new Set<string>();
      for (const s of this.#secrets) {
        forms.add(s);
        forms.add(JSON.stringify(s).slice(1, -1));
        forms.add(encodeURIComponent(s));
      }
      const sorted = [...forms].sort((a, b) => b.length - a.length);
      this.#pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    }
    return this.#pattern;
  }
}

/** An Authorization value without its credential: `Bearer [redacted]`, or `Bearer [redacted LABEL]`. */
export function redactAuthorization(value: string, label?: string): string {
  const scheme = /^(\S+)\s/.exec(value)?.[1] ?? 'Bearer';
  return `${scheme} ${redactedAs(label)}`;
}

/**
 * A URL whose query is a credential (a presigned download address): the query replaced by the marker,
 * the origin and path kept (they say which video, not how to fetch it).
 */
export function redactUrlQuery(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q)}?${REDACTED}`;
}
