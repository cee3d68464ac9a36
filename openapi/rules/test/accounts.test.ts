import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, keyIdentity, scheduleName } from '../src/index.js';
import { COLLIDING_KEYS } from './fixtures/colliding-keys.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('how an account is named without its key', () => {
  it('its identity is the whole SHA-256, its fingerprint (display only) the first 12 hex digits, never the key', () => {
    const key = 'sandbox-key-acme';
    expect(keyIdentity(sha256(key))).toBe(`sha256:${sha256(key)}`);
    expect(keyFingerprint(sha256(key))).toBe(`key:${sha256(key).slice(0, 12)}`);
    for (const name of [keyIdentity(sha256(key)), keyFingerprint(sha256(key))]) expect(name).not.toContain(key);
  });

  it('two keys whose fingerprints collide (a birthday search finds such a pair in a minute) are two identities', () => {
    const [a, b] = COLLIDING_KEYS;
    expect(a).not.toBe(b);
    expect(keyFingerprint(sha256(a))).toBe(keyFingerprint(sha256(b)));
    expect(keyIdentity(sha256(a))).not.toBe(keyIdentity(sha256(b)));
  });

  it('refuses anything but a whole digest: a prefix cannot become an identity by mistake', () => {
    expect(() => keyIdentity(sha256('k').slice(0, 24))).toThrow(TypeError);
    expect(() => keyFingerprint('0123456789ab')).toThrow(TypeError);
    expect(keyIdentity(sha256('k').toUpperCase())).toBe(keyIdentity(sha256('k')));
  });

  it('names a shared schedule by the base URL and the account, so two services never share one', () => {
    const id = keyIdentity(sha256('k'));
    expect(scheduleName('https://a.example/v1', id)).not.toBe(scheduleName('https://b.example/v1', id));
  });
});
