// How the suite and the pacing proxy name a key without showing it: `key:` and the first 12 hex digits
// of its SHA-256. The client names a key the same way, so that a shared schedule (VIDEO_API_PACING_URL)
// is one account for all three.
import { createHash } from 'node:crypto';

export function fingerprint(secret: string): string {
  return `key:${createHash('sha256').update(secret).digest('hex').slice(0, 12)}`;
}
