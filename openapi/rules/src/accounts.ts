// How every package names an account without showing its key (5.5: limits are per account, and a
// request names its account only through its key). Two names from one SHA-256 of the key:
//  - the identity, `sha256:` and the whole digest (64 hex digits): what schedules, shared stores and the
//    pacing proxy's key table are keyed by. Two keys share it only if SHA-256 collides.
//  - the fingerprint, `key:` and its first 12 hex digits: for display only (logs, `--same-account`,
//    a redacted Authorization). 48 bits: a birthday search finds two keys with one fingerprint in about a
//    minute on one core (issue 35), so it never decides whose schedule a request joins.
// Why a plain SHA-256 and not an HMAC with a per-deployment secret: every process of an account (client,
// CLI, contract suite, pacing proxy, on any machine) must derive the same identity with no setting of
// its own, or a forgotten secret silently splits one account's schedule in two; an API key is a random
// secret, not a password, so its digest cannot be reversed by guessing; and the identity never leaves
// the process as is (a shared store hashes the schedule's name again before it reaches Redis).
// The client, the contract suite and the pacing proxy name a shared schedule alike, the service's base
// URL and the identity, so that one Redis schedule (VIDEO_API_PACING_URL) is one account for all three.
// Pure: the caller hashes (node:crypto, or a pure SHA-256 where there is none).

const SHA256_HEX = /^[0-9a-f]{64}$/;

function digest(sha256Hex: string): string {
  const hex = sha256Hex.toLowerCase();
  if (!SHA256_HEX.test(hex))
    throw new TypeError('an account is named from the whole SHA-256 of its key (64 hex digits)');
  return hex;
}

/** The account of a key, as schedules and key tables hold it: `sha256:` and the whole digest. */
export const keyIdentity = (sha256Hex: string): string => `sha256:${digest(sha256Hex)}`;

/** A key as a person may read it: `key:` and the first 12 hex digits of its SHA-256. Display only, never an identity. */
export const keyFingerprint = (sha256Hex: string): string => `key:${digest(sha256Hex).slice(0, 12)}`;

/** The name of an account's schedule in a store shared by every process: base URL, then account. */
export const scheduleName = (baseUrl: string, account: string): string => `${baseUrl} ${account}`;
