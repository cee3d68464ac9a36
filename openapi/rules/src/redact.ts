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

export interface RedactorOptions {
  /**
   * Also redact every `Bearer <token>` in a text, whatever the token: for messages shown to a person
   * (the CLI), where an unknown token is as much a secret. Off where a deliberately invalid token must
   * stay readable (the contract suite records the malformed keys it sends, to replay them).
   */
  bearerTokens?: boolean;
}

/**
 * The secrets of a redactor, indexed so that a text is read once whatever their number: every form of
 * every secret (as sent, JSON-escaped, URL-encoded) filed under a hash of its last MIN_SECRET characters.
 * Each position of a text looks up the forms that could end there and compares only those, so the
 * 3,000th key a pacing proxy meets costs what the 1st did (a regular expression of every key grew with
 * each one and was compiled again for each new key).
 */
class SecretIndex {
  /** tail hash → forms ending with such a tail, longest first. */
  readonly #byTail = new Map<number, string[]>();
  /** form → how many secrets have it. */
  readonly #forms = new Map<string, number>();

  get empty(): boolean {
    return this.#forms.size === 0;
  }

  add(form: string): void {
    const n = this.#forms.get(form) ?? 0;
    this.#forms.set(form, n + 1);
    if (n > 0) return;
    const tail = tailHash(form, form.length);
    const bucket = this.#byTail.get(tail) ?? [];
    bucket.push(form);
    bucket.sort((a, b) => b.length - a.length);
    this.#byTail.set(tail, bucket);
  }

  remove(form: string): void {
    const n = this.#forms.get(form);
    if (n === undefined) return;
    if (n > 1) return void this.#forms.set(form, n - 1);
    this.#forms.delete(form);
    const tail = tailHash(form, form.length);
    const bucket = this.#byTail.get(tail)?.filter((f) => f !== form) ?? [];
    if (bucket.length) this.#byTail.set(tail, bucket);
    else this.#byTail.delete(tail);
  }

  /**
   * `text` with every occurrence of every form replaced by `marker`; overlapping occurrences (a key
   * holding another) are one span, so no part of either stays.
   */
  replace(text: string, marker: string): string {
    const starts: number[] = [];
    const ends: number[] = [];
    for (let end = MIN_SECRET; end <= text.length; end++) {
      const bucket = this.#byTail.get(tailHash(text, end));
      if (!bucket) continue;
      for (const form of bucket) {
        let start = end - form.length;
        if (start < 0 || !text.startsWith(form, start)) continue;
        // Spans end in increasing order: the ones this one overlaps are the last ones.
        for (let last = ends.at(-1); last !== undefined && last > start; last = ends.at(-1)) {
          ends.pop();
          start = Math.min(start, starts.pop() ?? start);
        }
        starts.push(start);
        ends.push(end);
        break;
      }
    }
    if (!starts.length) return text;
    let out = '';
    let at = 0;
    starts.forEach((start, i) => {
      out += text.slice(at, start) + marker;
      at = ends[i] ?? at;
    });
    return out + text.slice(at);
  }
}

/** A hash of the MIN_SECRET characters of `s` before `end` (collisions are compared away). */
function tailHash(s: string, end: number): number {
  let h = 0;
  for (let i = end - MIN_SECRET; i < end; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export class Redactor {
  /** secret → its forms. */
  readonly #secrets = new Map<string, string[]>();
  readonly #index = new SecretIndex();
  readonly #bearer: boolean;

  constructor(secrets: Iterable<string | undefined | null> = [], options: RedactorOptions = {}) {
    this.#bearer = options.bearerTokens ?? false;
    for (const s of secrets) this.add(s);
  }

  /** Adds a secret (an API key). Too short or empty: ignored. */
  add(secret: string | undefined | null): void {
    if (!secret || secret.length < MIN_SECRET || this.#secrets.has(secret)) return;
    const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
    this.#secrets.set(secret, forms);
    for (const f of forms) this.#index.add(f);
  }

  /** Forgets a secret (a pacing proxy's key not seen for long): texts that hold it are no longer redacted. */
  remove(secret: string): void {
    const forms = this.#secrets.get(secret);
    if (!forms) return;
    this.#secrets.delete(secret);
    for (const f of forms) this.#index.remove(f);
  }

  get size(): number {
    return this.#secrets.size;
  }

  /**
   * A text with every secret replaced: as sent, as it appears inside JSON text (a key holding `"` or `\`
   * is escaped there) and URL-encoded. A key containing another goes whole.
   */
  text(text: string): string {
    let out = text;
    if (!this.#index.empty) out = this.#index.replace(out, REDACTED);
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
}

/** An Authorization value without its credential: `Bearer [redacted]`, or `Bearer [redacted LABEL]`. */
export function redactAuthorization(value: string, label?: string): string {
  const scheme = /^(\S+)\s/.exec(value)?.[1] ?? 'Bearer';
  return `${scheme} ${redactedAs(label)}`;
}

/**
 * A URL as it may be printed (a log line, an error, a report, a HAR's summary): the user and the password
 * of its authority, every query value and every `name=value` of its fragment replaced by the marker; the
 * scheme, host, port, path and the names of the query kept (they say where, not how to get in). One rule
 * for every URL the toolkit prints: a presigned download address, a base URL typed with `?token=`, a
 * Redis URL with `user:password@` or ioredis's `?password=`. Read by its shape, not parsed, so that text
 * no URL parser accepts (a typo in a variable, a Sentinel URL naming several hosts) is redacted the same
 * way; an `@` after the host redacts a little more than needed, never less.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? undefined : url.slice(hash + 1);
  const question = beforeHash.indexOf('?');
  const location = question < 0 ? beforeHash : beforeHash.slice(0, question);
  const query = question < 0 ? undefined : beforeHash.slice(question + 1);
  let out = redactUserInfo(location);
  if (query !== undefined) out += `?${redactPairs(query)}`;
  if (fragment !== undefined) out += `#${redactPairs(fragment)}`;
  return out;
}

/** `scheme://user:password@host/path` → `scheme://[redacted]:[redacted]@host/path` (each part only when present). */
function redactUserInfo(location: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(location)?.[0] ?? '';
  const rest = location.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  if (at < 0) return location;
  const userInfo = rest.slice(0, at);
  const colon = userInfo.indexOf(':');
  const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
  const shown = `${user ? REDACTED : ''}${colon < 0 ? '' : `:${colon === userInfo.length - 1 ? '' : REDACTED}`}`;
  return `${scheme}${shown}@${rest.slice(at + 1)}`;
}

/** `a=1&b&c=` → `a=[redacted]&b&c=`: a value replaced, a name kept. */
function redactPairs(text: string): string {
  return text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 || eq === pair.length - 1 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
    })
    .join('&');
}
