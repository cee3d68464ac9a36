// Presigned download URLs: HMAC-SHA256 over "video_id.expires" with the sandbox's secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class UrlSigner {
  constructor(private readonly secret: string) {}

  private mac(videoId: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${videoId}.${expires}`).digest('hex');
  }

  /** `expires` is epoch milliseconds (sub-second lifetimes happen under large time scales). */
  sign(origin: string, videoId: string, expires: number): string {
    const e = String(Math.floor(expires));
    return `${origin}/downloads/${videoId}.mp4?expires=${e}&signature=${this.mac(videoId, e)}`;
  }

  verify(videoId: string, expires: unknown, signature: unknown, now: number): 'ok' | 'invalid' | 'expired' {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,16}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
    const good = Buffer.from(this.mac(videoId, expires), 'hex');
    if (!timingSafeEqual(good, Buffer.from(signature, 'hex'))) return 'invalid';
    return Number(expires) <= now ? 'expired' : 'ok';
  }
}
