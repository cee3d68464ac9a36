import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, scheduleName } from '../src/index.js';

describe('how an account is named without its key', () => {
  it('is key: and the first 12 hex digits of the SHA-256, never the key', () => {
    const key = 'sandbox-key-acme';
    const name = keyFingerprint(createHash('sha256').update(key).digest('hex'));
    expect(name).toMatch(/^key:[0-9a-f]{12}$/);
    expect(name).not.toContain(key);
    expect(name).toBe(`key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`);
  });

  it('names a shared schedule by the base URL and the account, so two services never share one', () => {
    expect(scheduleName('https://a.example/v1', 'key:0123456789ab')).not.toBe(
      scheduleName('https://b.example/v1', 'key:0123456789ab'),
    );
  });
});
