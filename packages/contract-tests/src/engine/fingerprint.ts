// How the suite and the pacing proxy name a key without showing it: the rules' keyFingerprint of its
// SHA-256, as the client names it, so that a shared schedule (VIDEO_API_PACING_URL) is one account for all three.
import { createHash } from 'node:crypto';
import { keyFingerprint } from '@videogen/openapi/rules';

export function fingerprint(secret: string): string {
  return keyFingerprint(createHash('sha256').update(secret).digest('hex'));
}
