// The one redaction of the toolkit: what the client, the CLI, the contract suite and the pacing proxy
// each did before (raw, JSON-escaped, URL-encoded keys; longest first; parsed bodies; Authorization
// values; presigned URLs; any bearer token in a person's message), now one module with one marker.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactAuthorization, Redactor, redactUrl } from '../src/index.js';

describe('Redactor', () => {
  it('replaces a key as sent, JSON-escaped and URL-encoded, by the one marker', () => {
    const key = 'sk-"odd\\key/+=';
    const r = new Redactor([key]);
    const text = `raw ${key} json ${JSON.stringify(key)} url ${encodeURIComponent(key)}`;
    const out = r.text(text);
    expect(out).not.toContain('odd');
    expect(out).toBe(`raw ${REDACTED} json "${REDACTED}" url ${REDACTED}`);
  });
  it('replaces the longest key first, so that a key containing another goes whole', () => {
    const r = new Redactor(['abcd', 'abcdefgh']);
    expect(r.text('x abcdefgh y abcd')).toBe(`x ${REDACTED} y ${REDACTED}`);
  });
  it('two keys that overlap in a text go as one span: no part of either stays', () => {
    const r = new Redactor(['abcdef', 'defghi']);
    expect(r.text('x abcdefghi y')).toBe(`x ${REDACTED} y`);
    expect(r.text('abcdefabcdef')).toBe(`${REDACTED}${REDACTED}`);
  });
  it('forgets a key it is told to (a pacing proxy’s key not seen for long); a key sharing its forms stays', () => {
    const r = new Redactor(['key-one', 'key-two']);
    r.remove('key-one');
    expect(r.size).toBe(1);
    expect(r.text('key-one key-two')).toBe(`key-one ${REDACTED}`);
    r.remove('key-two');
    expect(r.text('key-two')).toBe('key-two');
  });
  it('3,000 keys: every one found in any text, as a regular expression of all of them would', () => {
    const keys = Array.from({ length: 3000 }, (_, i) => `sk-${i.toString(36)}-${(i * 7919).toString(36)}x"/+`);
    const r = new Redactor(keys);
    const pattern = new RegExp(
      [...new Set(keys.flatMap((k) => [k, JSON.stringify(k).slice(1, -1), encodeURIComponent(k)]))]
        .sort((a, b) => b.length - a.length)
        .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    );
    for (let i = 0; i < 200; i++) {
      const k = keys[(i * 37) % keys.length]!;
      const text = `GET /v1/videos/?key=${encodeURIComponent(k)} {"error":"bad ${JSON.stringify(k).slice(1, -1)}"} Bearer ${k} sk-${i}`;
      const out = r.text(text);
      expect(out).toBe(text.replace(pattern, REDACTED));
      expect(out).not.toContain(k);
    }
  });
  it('ignores secrets too short to be keys, and empty ones', () => {
    const r = new Redactor(['k', '', undefined, null]);
    expect(r.size).toBe(0);
    expect(r.text('k is a letter')).toBe('k is a letter');
  });
  it('learns keys as they come (the suite and the proxy meet them one by one)', () => {
    const r = new Redactor();
    expect(r.text('key-one')).toBe('key-one');
    r.add('key-one');
    expect(r.text('key-one')).toBe(REDACTED);
  });
  it('redacts every string of a parsed value, property names included', () => {
    const key = 'secret-key-1';
    const r = new Redactor([key]);
    expect(r.value({ error: `bad key ${key}`, [key]: [key, 1, null, { n: key }] })).toEqual({
      error: `bad key ${REDACTED}`,
      [REDACTED]: [REDACTED, 1, null, { n: REDACTED }],
    });
  });
  it('headers: an Authorization value keeps its scheme; other values are redacted as text', () => {
    const r = new Redactor(['secret-key-1']);
    expect(
      r.headers(
        [
          ['Authorization', 'Bearer secret-key-1'],
          ['x-echo', 'secret-key-1'],
        ],
        'key:0123456789ab',
      ),
    ).toEqual([
      ['Authorization', 'Bearer [redacted key:0123456789ab]'],
      ['x-echo', REDACTED],
    ]);
    expect(redactAuthorization('Bearer whatever')).toBe(`Bearer ${REDACTED}`);
  });
  it('any bearer token, known or not, when asked (messages a person reads)', () => {
    const r = new Redactor(['known-key'], { bearerTokens: true });
    expect(r.text('sent Authorization: Bearer unknown-token-123 and known-key')).toBe(
      `sent Authorization: Bearer ${REDACTED} and ${REDACTED}`,
    );
    expect(new Redactor().text('Bearer unknown-token-123')).toBe('Bearer unknown-token-123');
  });
});

describe('redactUrl: the one redaction of a printed URL', () => {
  it('a presigned URL keeps its origin, path and query names, not its values', () => {
    expect(redactUrl('https://cdn.example/v/1.mp4?X-Sig=abc&exp=1')).toBe(
      `https://cdn.example/v/1.mp4?X-Sig=${REDACTED}&exp=${REDACTED}`,
    );
    expect(redactUrl('https://cdn.example/v/1.mp4')).toBe('https://cdn.example/v/1.mp4');
  });
  it('user and password, each only when present', () => {
    expect(redactUrl('rediss://default:s3cret@h:6380/2')).toBe(`rediss://${REDACTED}:${REDACTED}@h:6380/2`);
    expect(redactUrl('redis://:s3cret@h:6379')).toBe(`redis://:${REDACTED}@h:6379`);
    expect(redactUrl('redis://alice@h:6379')).toBe(`redis://${REDACTED}@h:6379`);
    expect(redactUrl('redis://alice:@h')).toBe(`redis://${REDACTED}:@h`);
  });
  it("every query value, ioredis's ?password= included; a name alone or an empty value stays", () => {
    const printed = redactUrl('redis://h:6379/0?password=s3cret&username=alice&tls&db=');
    expect(printed).toBe(`redis://h:6379/0?password=${REDACTED}&username=${REDACTED}&tls&db=`);
    expect(printed).not.toContain('s3cret');
  });
  it('a fragment: name=value pairs redacted, a plain name (a Sentinel master) kept', () => {
    expect(redactUrl('redis-sentinel://h1:26379,h2:26379/0#mymaster')).toBe(
      'redis-sentinel://h1:26379,h2:26379/0#mymaster',
    );
    expect(redactUrl('https://app.example/cb#access_token=abc&state=x')).toBe(
      `https://app.example/cb#access_token=${REDACTED}&state=${REDACTED}`,
    );
  });
  it('text no parser accepts is redacted by its shape: several hosts, no scheme, a password with a slash', () => {
    expect(redactUrl('redis-sentinel://u:pw@h1:26379,h2:26379/0?sentinelPassword=sp#m')).toBe(
      `redis-sentinel://${REDACTED}:${REDACTED}@h1:26379,h2:26379/0?sentinelPassword=${REDACTED}#m`,
    );
    expect(redactUrl('u:pw@host:6379')).toBe(`${REDACTED}:${REDACTED}@host:6379`);
    // An unencoded "/" in a password: everything before the last "@" goes, never a part of the password.
    expect(redactUrl('redis://u:pa/ss@h:6379')).toBe(`redis://${REDACTED}:${REDACTED}@h:6379`);
    expect(redactUrl('not a url')).toBe('not a url');
  });
});
