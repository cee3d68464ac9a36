// No request holds a connection forever: idle and trickled bodies are cut (408 with the envelope while
// nothing was answered), requests answered before their body (no key, unknown path, 405, downloads,
// docs) do not wait for it, slow headers and idle keep-alive connections are closed. Raw sockets, a
// real server with short limits so the test is quick; the defaults are checked to be finite.
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { defaultHttpLimits } from '../src/http-server.js';
import { sandbox } from './helpers.js';
import { converse, lastAnswer } from './raw-socket.js';

const limits = { headersMs: 600, idleMs: 1200, requestMs: 2500, keepAliveMs: 500, lingerMs: 400 };
const key = SANDBOX_KEYS.acme;
const chunkedHead = (method: string, path: string, auth?: string, type = 'application/json') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth ? `Authorization: Bearer ${auth}\r\n` : ''}Content-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`;

describe('connection time limits', async () => {
  const sb = await sandbox({ rateLimits: false, httpLimits: limits });
  const conv = `/v1/videos/${FIXTURES.acme.videos.convertible}/conversions/`;

  it('defaults are finite and documented', () => {
    const d = defaultHttpLimits();
    for (const v of Object.values(d)) expect(Number.isFinite(v) && v > 0).toBe(true);
    expect(d.requestMs).toBeLessThanOrEqual(300_000);
  });

  it('a body that stops (authenticated conversion) → 408 REQUEST_TIMEOUT with the envelope, then closed', async () => {
    const r = await converse(sb.port, chunkedHead('POST', conv, key), { boundMs: 5000 });
    expect(r.closed).toBe(true);
    const a = lastAnswer(r.text);
    expect(a.status).toBe(408);
    expect(a.body.error_code).toBe('REQUEST_TIMEOUT');
    expect(a.head.toLowerCase()).toContain('connection: close');
  });

  it('a generation whose multipart body stops → 408 and closed', async () => {
    const boundary = 'b0undary';
    const head = `POST /v1/videos/generate/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nhel`;
    const r = await converse(sb.port, head, { boundMs: 5000 });
    expect(r.closed).toBe(true);
    expect(lastAnswer(r.text).status).toBe(408);
  });

  it('a body trickled a byte at a time, never idle, is cut by the whole-request limit', async () => {
    const r = await converse(sb.port, chunkedHead('POST', conv, key), { boundMs: 8000, more: Array.from({ length: 200 }, () => '1\r\n \r\n'), everyMs: 100 });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeGreaterThanOrEqual(limits.requestMs - 100);
    expect(lastAnswer(r.text).status).toBe(408);
  });

  it('no key, unknown path, 405, downloads, docs: answered at once without waiting for the body, then closed', async () => {
    const cases: Array<[string, number]> = [
      [chunkedHead('POST', '/v1/videos/generate/'), 401],
      [chunkedHead('POST', conv, 'wrong-key'), 401],
      [chunkedHead('POST', '/nope'), 404],
      [chunkedHead('POST', '/v1/nope/', key), 404],
      [chunkedHead('PUT', conv, key), 405],
      [chunkedHead('POST', '/docs'), 404],
      [chunkedHead('POST', `/downloads/${FIXTURES.acme.videos.convertible}.mp4?expires=1&signature=00`), 404],
    ];
    const results = await Promise.all(cases.map(([bytes]) => converse(sb.port, bytes, { boundMs: 5000 })));
    results.forEach((r, i) => {
      expect({ i, status: lastAnswer(r.text).status, closed: r.closed }).toEqual({ i, status: cases[i][1], closed: true });
      expect(lastAnswer(r.text).body.error_code).toEqual(expect.any(String));
      // closed by the linger bound, far sooner than the idle or request limits would
      expect(r.ms).toBeLessThan(limits.lingerMs + 500);
    });
  });

  it('headers that never end → 408 with the envelope', async () => {
    const r = await converse(sb.port, 'GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nX-Slow: ', { boundMs: 5000 });
    expect(r.closed).toBe(true);
    expect(lastAnswer(r.text).status).toBe(408);
  });

  it('a connection that sends nothing is closed', async () => {
    const r = await converse(sb.port, '', { boundMs: 5000 });
    expect(r.closed).toBe(true);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const r = await converse(sb.port, `GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`, { boundMs: 5000 });
    expect(lastAnswer(r.text).status).toBe(200);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(limits.keepAliveMs + 1500);
  });

  it('still answers', async () => {
    const res = await fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});

describe('connection cap', async () => {
  const sb = await sandbox({ rateLimits: false, httpLimits: { maxConnections: 3 } });
  it('connections past the cap are closed at once; the ones inside it are served', async () => {
    const inside = [0, 1, 2].map(() => converse(sb.port, '', { boundMs: 1500 }));
    await new Promise((r) => setTimeout(r, 300));
    const over = await converse(sb.port, `GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`, { boundMs: 1000 });
    expect({ closed: over.closed, text: over.text }).toEqual({ closed: true, text: '' });
    expect((await Promise.all(inside)).map((r) => r.closed)).toEqual([false, false, false]);
    await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});
