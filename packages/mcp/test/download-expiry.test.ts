// The expiry a download address states, in the forms the common presigners write it.
import { describe, expect, it } from 'vitest';
import { expiryOf } from '../src/index.js';

describe('expiryOf', () => {
  it('reads S3 SigV4 and Google Cloud Storage: the signing date plus the lifetime', () => {
    expect(
      expiryOf(
        'https://b.s3.amazonaws.com/v.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260119T090000Z&X-Amz-Expires=3600&X-Amz-Signature=ab',
      ),
    ).toBe(Date.UTC(2026, 0, 19, 10));
    expect(
      expiryOf(
        'https://storage.googleapis.com/b/v.mp4?X-Goog-Date=20260119T090000Z&X-Goog-Expires=600&X-Goog-Signature=ab',
      ),
    ).toBe(Date.UTC(2026, 0, 19, 9, 10));
  });

  it('reads epoch seconds (S3 SigV2, CloudFront), epoch ms (the sandbox) and an Azure SAS end', () => {
    expect(expiryOf('https://d.cloudfront.net/v.mp4?Expires=1795000000&Signature=x&Key-Pair-Id=K')).toBe(
      1795000000_000,
    );
    expect(expiryOf('http://127.0.0.1:4010/downloads/v.mp4?expires=1795000000123&signature=ab')).toBe(1795000000123);
    expect(expiryOf('https://a.blob.core.windows.net/c/v.mp4?sv=2022-11-02&se=2026-01-19T10%3A00%3A00Z&sig=x')).toBe(
      Date.UTC(2026, 0, 19, 10),
    );
  });

  it('says nothing when the address states nothing it can read', () => {
    expect(expiryOf('https://cdn.example/v.mp4?token=abc')).toBeUndefined();
    expect(expiryOf('https://cdn.example/v.mp4?expires=soon')).toBeUndefined();
    expect(expiryOf('')).toBeUndefined();
  });
});
