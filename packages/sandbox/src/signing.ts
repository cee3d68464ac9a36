// Presigned download URLs: HMAC-SHA256 over "video_id.expires" with the sandbox's secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class UrlSigner {
  /** Last URL issued per video: polls within one step get the same URL instead of a new HMAC. */
  private readonly issued = new Map<string, { expires: number; url: string }>();

  constructor(private readonly secret: string) {}

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
    const url = this.sign(origin, videoId, expires);
    this.issued.set(videoId, { expires, url });
    return url;
  }

  private mac(videoId: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${videoId}.${expires}`).digest('hex');
  }

  /** `expires` is epoch milliseconds (sub-second lifetimes happen under large time scales). */
  sign(origin: string, videoId: string, expires: number): string {
    const e = String(Math.floor(expires));
    return `${origin}/downloads/${videoId}.mp4?expires=${e}&signature=${this.mac(videoId, e)}`;
  }

  verify(videoId: string, expires: unknown, signature: unknown, now: number): 'ok' | 'invalid' | 'expired' {
    if (
      typeof expires !== 'string' ||
      typeof signature !== 'string' ||
      !/^\d{1,16}$/.test(expires) ||
      !/^[0-9a-f]{64}$/.test(signature)
    )
      return 'invalid';
    const good = Buffer.from(this.mac(videoId, expires), 'hex');
    if (!timingSafeEqual(good, Buffer.from(signature, 'hex'))) return 'invalid';
    return Number(expires) <= now ? 'expired' : 'ok';
  }
}
