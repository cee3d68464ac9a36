// Answers Node would give on its own (empty bodies, silent closes) come with the envelope; header and
// URL forms that must not pass (two Host, two Authorization, urn:uuid ids, altered signed URLs) are refused.
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, sandbox } from './helpers.js';
import { converse, lastAnswer } from './raw-socket.js';

const key = SANDBOX_KEYS.acme;
const id = FIXTURES.acme.videos.convertible;

describe('protocol answers with the envelope', async () => {
  const sb = await sandbox({ rateLimits: false });
  const ask = async (bytes: string) =>
    lastAnswer((await converse(sb.port, bytes, { boundMs: 3000, untilAnswer: true })).text);
  const expectEnvelope = (a: ReturnType<typeof lastAnswer>, status: number, code = 'INVALID_REQUEST') => {
    expect({ status: a.status, code: a.body?.error_code }).toEqual({ status, code });
    expect(a.head.toLowerCase()).toContain('content-type: application/json');
  };

  it('no Host → 400', async () => {
    expectEnvelope(await ask(`GET /v1/videos/ HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`), 400);
  });
  it('two Host headers → 400', async () => {
    expectEnvelope(
      await ask(`GET /v1/videos/ HTTP/1.1\r\nHost: a\r\nHost: b\r\nAuthorization: Bearer ${key}\r\n\r\n`),
      400,
    );
  });
  it('two Authorization headers → 400, not the first one silently', async () => {
    const a = await ask(
      `GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${SANDBOX_KEYS.globex}\r\n\r\n`,
    );
    expectEnvelope(a, 400);
    expect(a.body.error).not.toContain(key);
  });
  it('Expect: foo → 417', async () => {
    expectEnvelope(
      await ask(`GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nAuthorization: Bearer ${key}\r\n\r\n`),
      417,
    );
  });
  it('Expect: 100-continue → 100 only after authentication', async () => {
    const body = '{"language":"en"}';
    const head = (auth: string) =>
      `POST /v1/videos/${id}/conversions/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`;
    const refused = await converse(sb.port, head('wrong-key'), { boundMs: 3000, untilAnswer: true });
    expect(refused.text).not.toContain('100 Continue');
    expectEnvelope(lastAnswer(refused.text), 401, 'UNAUTHORIZED');
    const ok = await converse(sb.port, head(key), { boundMs: 1500 });
    expect(ok.text).toMatch(/^HTTP\/1\.1 100 Continue/);
    const sent = await converse(sb.port, head(key), { boundMs: 3000, more: [body], everyMs: 200, untilAnswer: true });
    expect(lastAnswer(sent.text).status).toBe(200);
  });
  it('CONNECT → 400, not a silent close', async () => {
    expectEnvelope(await ask('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 400);
  });
  it('urn:uuid:<id> is not a UUID', async () => {
    expectError(await call(sb, 'GET', `/videos/urn:uuid:${id}/`, { key }), 400, 'INVALID_REQUEST');
  });
  it('a malformed URL → 400 without echoing the URL or its query', async () => {
    const a = await ask(
      `GET /v1/videos/%E0%A4%A/?signature=${'ab'.repeat(32)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    expectEnvelope(a, 400);
    expect(a.body.error).not.toContain('abab');
    expect(a.body.error).not.toContain('%E0');
  });

  describe('signed download URLs', () => {
    const signed = async () => new URL((await call(sb, 'GET', `/videos/${id}/`, { key })).body.download_url);
    it('the URL as issued → 200', async () => {
      const u = await signed();
      expect((await fetch(u)).status).toBe(200);
    });
    it('the id in another case → 403, not 404', async () => {
      const u = await signed();
      u.pathname = u.pathname.toUpperCase().replace('/DOWNLOADS/', '/downloads/').replace('.MP4', '.mp4');
      expectError(await call(sb, 'GET', u.toString()), 403, 'FORBIDDEN');
    });
    it('an extra query parameter → 403', async () => {
      const u = await signed();
      u.searchParams.set('extra', '1');
      expectError(await call(sb, 'GET', u.toString()), 403, 'FORBIDDEN');
    });
  });
});
