// How the suite and the pacing proxy name a key without showing it, as the client names it (the rules'
// accounts.ts), so that a shared schedule (VIDEO_API_PACING_URL) is one account for all three: its
// identity, the whole SHA-256, for schedules and key tables; its fingerprint, 12 hex digits, for display.
import { createHash } from 'node:crypto';
import { keyFingerprint, keyIdentity } from '@videogen/openapi/rules';

const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** `sha256:` and the whole digest: what a schedule or a key table is keyed by. */
export const identity = (secret: string): string => keyIdentity(sha256(secret));

/** `key:` and 12 hex digits: printable, for display only (two keys may share one). */
export const fingerprint = (secret: string): string => keyFingerprint(sha256(secret));

/** Both names of a key from one digest. */
export function keyNames(secret: string): { identity: string; fingerprint: string } {
  const digest = sha256(secret);
  return { identity: keyIdentity(digest), fingerprint: keyFingerprint(digest) };
}
