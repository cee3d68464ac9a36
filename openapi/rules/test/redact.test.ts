// The one redaction of the toolkit: what the client, the CLI, the contract suite and the pacing proxy
// each did before (raw, JSON-escaped, URL-encoded keys; longest first; parsed bodies; Authorization
// values; presigned URLs; any bearer token in a person's message), now one module with one marker.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactAuthorization, Redactor, redactUrlQuery } from '../src/index.js';

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

describe('redactUrlQuery', () => {
  it('a presigned URL keeps its origin and path, not its query', () => {
    expect(redactUrlQuery('https://cdn.example/v/1.mp4?X-Sig=abc&exp=1')).toBe(
      `https://cdn.example/v/1.mp4?${REDACTED}`,
    );
    expect(redactUrlQuery('https://cdn.example/v/1.mp4')).toBe('https://cdn.example/v/1.mp4');
  });
});
