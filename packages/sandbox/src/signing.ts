// Presigned download URLs: an HMAC-SHA256 with the sandbox's secret over the video id and the expiry
// parameters, in the twin's form (`download.query`): the parameter names, the expiry as epoch
// milliseconds, epoch seconds, or a lifetime in seconds from a signing instant (S3's X-Amz-Date and
// X-Amz-Expires), and constant parameters. The default form is `?expires={epoch ms}&signature={hex}`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PresignedQuery } from '@videogen/openapi/twin';

export type Verdict = 'ok' | 'invalid' | 'expired';

/** `2026-11-02T12:00:00.000Z` → `20261102T120000Z` (ISO 8601 basic, as S3 and GCS sign). */
const basicInstant = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
const BASIC_INSTANT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const fromBasic = (s: string) => {
  const m = BASIC_INSTANT.exec(s);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : Number.NaN;
};

export class UrlSigner {
  /** Last URL issued per video: polls within one step get the same URL instead of a new HMAC. */
  private readonly issued = new Map<string, { expires: number; url: string }>();
  private readonly names: string[];

  constructor(
    private readonly secret: string,
    private readonly query: PresignedQuery,
  ) {
    const { expires, signature, fixed = {} } = query;
    this.names = [...Object.keys(fixed), ...(expires.issued ? [expires.issued] : []), expires.name, signature.name];
  }

  /**
   * A URL that expires at most `ttlMs` from `now`: the expiry is rounded down to a step of 1/60 of
   * the lifetime (a minute of the default hour), so repeated polls reuse one URL, as a real
   * presigner's cache would, and no URL outlives the documented lifetime.
   */
  issue(origin: string, videoId: string, now: number, ttlMs: number): string {
    const step = Math.max(1, ttlMs / 60);
    const expires = Math.floor((now + ttlMs) / step) * step;
    const last = this.issued.get(videoId);
    if (last && last.expires === expires) return last.url;
    const url = this.sign(origin, videoId, expires, ttlMs);
    this.issued.set(videoId, { expires, url });
    return url;
  }

  private mac(videoId: string, signed: string): string {
    return createHmac('sha256', this.secret).update(`${videoId}.${signed}`).digest('hex');
  }

  /** The values of the expiry parameters for an expiry (epoch ms), and the text they sign. */
  private expiryValues(expires: number, ttlMs: number): { values: Record<string, string>; signed: string } {
    const e = this.query.expires;
    if (e.form === 'epoch_ms')
      return { values: { [e.name]: String(Math.floor(expires)) }, signed: String(Math.floor(expires)) };
    if (e.form === 'epoch_seconds') {
      const s = String(Math.floor(expires / 1000));
      return { values: { [e.name]: s }, signed: s };
    }
    // A lifetime in whole seconds from a signing instant in whole seconds, ending at the expiry.
    const ttl = String(Math.max(1, Math.floor(ttlMs / 1000)));
    const issued = basicInstant(Math.floor(expires / 1000) * 1000 - Number(ttl) * 1000);
    return { values: { [e.issued ?? 'issued']: issued, [e.name]: ttl }, signed: `${issued}.${ttl}` };
  }

  /** `expires` is epoch milliseconds (sub-second lifetimes happen under large time scales). */
  sign(origin: string, videoId: string, expires: number, ttlMs: number): string {
    const { values, signed } = this.expiryValues(expires, ttlMs);
    const params = new URLSearchParams({ ...this.query.fixed, ...values });
    params.set(this.query.signature.name, this.mac(videoId, signed));
    const ordered = new URLSearchParams(this.names.map((n): [string, string] => [n, params.get(n) ?? '']));
    return `${origin}/downloads/${videoId}.mp4?${ordered}`;
  }

  /**
   * A signed URL's query as issued (exactly its parameters, the constant ones with their values, a valid
   * signature), and whether it has expired at `now`.
   */
  verify(videoId: string, query: Record<string, unknown>, now: number): Verdict {
    const names = Object.keys(query);
    if (names.length !== this.names.length || !this.names.every((n) => typeof query[n] === 'string')) return 'invalid';
    for (const [name, v] of Object.entries(this.query.fixed ?? {})) if (query[name] !== v) return 'invalid';
    const { expires: e, signature } = this.query;
    const sig = query[signature.name] as string;
    const raw = query[e.name] as string;
    if (!/^\d{1,16}$/.test(raw) || !/^[0-9a-f]{64}$/.test(sig)) return 'invalid';
    let signed = raw;
    let expiresAt = e.form === 'epoch_ms' ? Number(raw) : Number(raw) * 1000;
    if (e.form === 'ttl_seconds') {
      const issued = query[e.issued ?? 'issued'] as string;
      const at = fromBasic(issued);
      if (Number.isNaN(at)) return 'invalid';
      signed = `${issued}.${raw}`;
      expiresAt = at + Number(raw) * 1000;
    }
    const good = Buffer.from(this.mac(videoId, signed), 'hex');
    if (!timingSafeEqual(good, Buffer.from(sig, 'hex'))) return 'invalid';
    return expiresAt <= now ? 'expired' : 'ok';
  }
}
