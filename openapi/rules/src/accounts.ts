// How every package names an account without showing its key (5.5: limits are per account, and a
// request names its account only through its key): `key:` and the first 12 hex digits of the key's
// SHA-256. The client, the contract suite and the pacing proxy name a shared schedule alike, the
// service's base URL and that name, so that one Redis schedule (VIDEO_API_PACING_URL) is one account
// for all three. Pure: the caller hashes (node:crypto where it has one).
export const keyFingerprint = (sha256Hex: string): string => `key:${sha256Hex.slice(0, 12)}`;

/** The name of an account's schedule in a store shared by every process: base URL, then account. */
export const scheduleName = (baseUrl: string, account: string): string => `${baseUrl} ${account}`;
