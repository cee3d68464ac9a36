// When a download address expires, as the address itself says. The interface states only that
// `download_url` is a temporary presigned URL that expires (2.1, 3); the common presigners write the
// expiry into the query: S3 (SigV4 X-Amz-Date + X-Amz-Expires; SigV2 and CloudFront Expires, in epoch
// seconds), Google Cloud Storage (X-Goog-Date + X-Goog-Expires), Azure SAS (se), and this toolkit's
// sandbox (expires, in epoch milliseconds, on the sandbox's own clock). Anything else: unknown.

/** `20260119T090000Z` (ISO 8601 basic, as SigV4 and GCS write it) in epoch ms. */
function basicDate(value: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : undefined;
}

/** Epoch seconds or milliseconds (13 digits and more: milliseconds). */
function epoch(value: string): number | undefined {
  if (!/^\d{9,16}$/.test(value)) return undefined;
  return value.length >= 13 ? Number(value) : Number(value) * 1000;
}

/** The expiry a download address states, in epoch ms, or undefined when it states none we can read. */
export function expiryOf(downloadUrl: string): number | undefined {
  let url: URL;
  try {
    url = new URL(downloadUrl);
  } catch {
    return undefined;
  }
  const q = url.searchParams;
  for (const prefix of ['X-Amz', 'X-Goog']) {
    const date = q.get(`${prefix}-Date`);
    const lifetime = q.get(`${prefix}-Expires`);
    const start = date ? basicDate(date) : undefined;
    if (start !== undefined && lifetime && /^\d+$/.test(lifetime)) return start + Number(lifetime) * 1000;
  }
  const se = q.get('se');
  if (se && q.get('sig')) {
    const at = Date.parse(se);
    if (Number.isFinite(at)) return at;
  }
  const expires = q.get('Expires') ?? q.get('expires');
  return expires ? epoch(expires) : undefined;
}
