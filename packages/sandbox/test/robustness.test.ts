// Bad input never crashes the server or gets a 5xx: every failure is a 4xx with the envelope.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '../src/index.js';
import { call, expectError, sandbox, WAIT_MS } from './helpers.js';

/** Send raw bytes over TCP and read the whole answer (the server closes or the deadline passes). */
export function raw(port: number, bytes: string | Buffer, timeoutMs = WAIT_MS): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(out);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (d) => {
      out += d.toString('latin1');
      // one complete answer is enough
      const m = /\r\ncontent-length: (\d+)\r\n/i.exec(out);
      const end = out.indexOf('\r\n\r\n');
      if (m && end >= 0 && out.length >= end + 4 + Number(m[1])) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes);
  });
}

const parse = (answer: string) => {
  const [head, ...rest] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(rest.join('\r\n\r\n')) };
};

describe('bad input', async () => {
  const sb = await sandbox({ rateLimits: false });
  const key = SANDBOX_KEYS.acme;
  const conv = `/videos/${FIXTURES.acme.videos.convertible}/conversions/`;

  it('a bad UUID → 400 INVALID_REQUEST', async () => {
    for (const id of ['abc', '71de0a00-0000-4000-8000-00000000000g', `${'a'.repeat(500)}`, '%20', 'null']) {
      expectError(await call(sb, 'GET', `/videos/${id}/`, { key }), 400, 'INVALID_REQUEST');
      expectError(
        await call(sb, 'POST', `/videos/${id}/conversions/`, { key, json: { language: 'en' } }),
        400,
        'INVALID_REQUEST',
      );
    }
  });
  it('a malformed percent-encoding → 400 INVALID_REQUEST', async () => {
    expect(
      parse(await raw(sb.port, `GET /v1/videos/%E0%A4%A/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`))
        .status,
    ).toBe(400);
  });
  it('unknown paths → 404 NOT_FOUND, unknown methods → 405 METHOD_NOT_ALLOWED with Allow', async () => {
    expectError(await call(sb, 'GET', '/v1/nothing/', { key }), 404, 'NOT_FOUND');
    expectError(await call(sb, 'GET', '/v1/videos', { key }), 404, 'NOT_FOUND');
    expectError(await call(sb, 'GET', '/v2/videos/', { key }), 404, 'NOT_FOUND');
    expectError(await call(sb, 'GET', '/', { key }), 404, 'NOT_FOUND');
    const del = await call(sb, 'DELETE', `/videos/${FIXTURES.acme.videos.convertible}/`, { key });
    expectError(del, 405, 'METHOD_NOT_ALLOWED');
    expect(del.headers.get('allow')).toBe('GET');
    const put = await call(sb, 'PUT', conv, { key, json: {} });
    expectError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.get('allow')).toBe('GET, POST');
    expectError(await call(sb, 'GET', '/videos/generate/', { key }), 400, 'INVALID_REQUEST'); // a GET there is getVideo with a bad id
  });
  it('a huge JSON body → 413 with the envelope', async () => {
    const a = await call(sb, 'POST', conv, {
      key,
      body: JSON.stringify({ language: 'en', pad: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expectError(a, 413, 'PAYLOAD_TOO_LARGE');
  });
  it('huge headers → 431 with the envelope', async () => {
    const answer = parse(
      await raw(sb.port, `GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`),
    );
    expect(answer.status).toBe(431);
    expect(answer.body.error_code).toBe('INVALID_REQUEST');
  });
  it('garbage bytes → 400 with the envelope', async () => {
    const answer = parse(await raw(sb.port, 'THIS IS NOT HTTP\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body).toHaveProperty('error_code');
  });
  it('a body with a wrong content length is answered or closed, never crashes', async () => {
    // (Whatever comes within 300 ms, or nothing: what counts is that the server still answers after it.)
    await raw(
      sb.port,
      `POST /v1${conv} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"lang`,
      300,
    );
    expect((await call(sb, 'GET', '/videos/', { key })).status).toBe(200);
  });
  it('JSON with a prototype-polluting key is just an object', async () => {
    const a = await call(sb, 'POST', conv, {
      key,
      body: '{"__proto__":{"language":"en"}}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(a, 400, 'CONVERT_TARGET_REQUIRED');
  });
  it('/docs answers the built docs or a 404 envelope with a hint', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await fetch(sb.origin + path);
      if (res.status === 200) {
        expect(res.headers.get('content-type')).toContain('text/html');
      } else {
        expect(res.status).toBe(404);
        const body = (await res.json()) as { error_code: string; error: string };
        expect(body.error_code).toBe('NOT_FOUND');
        expect(body.error).toContain('npm run build');
      }
    }
  });
  it("GET / leads to /docs/; the site's pages carry the sandbox's description; nothing outside the site is served", async () => {
    const root = await fetch(`${sb.origin}/`, { redirect: 'manual' });
    const built = (await fetch(`${sb.origin}/docs/`)).status === 200;
    if (!built) {
      expect(root.status).toBe(404);
      return;
    }
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs/');
    for (const page of ['/docs', '/docs/', '/docs/flow.html']) {
      const html = await (await fetch(sb.origin + page)).text();
      const m = /<script type="application\/json" id="vg-sandbox">([^<]*)<\/script>/.exec(html);
      expect(m, page).not.toBeNull();
      const described = JSON.parse(m![1]!);
      expect(described.time_scale).toBeGreaterThan(0);
      const acme = described.accounts.find((a: any) => a.name === 'acme');
      expect(acme).toMatchObject({ plan: 'business', keys: ['sandbox-key-acme', 'sandbox-key-acme-2'] });
      expect(acme.settings).toHaveLength(7);
      expect(acme.videos[0].video_id).toBe('71de0a00-0000-4000-8000-000000000001');
    }
    const llms = await fetch(`${sb.origin}/docs/llms.txt`);
    expect(llms.headers.get('content-type')).toContain('text/plain');
    expect(await llms.text()).toMatch(/^# /);
    for (const path of [
      '/docs/..%2Fpackage.json',
      '/docs/%2E%2E%2Fdist%2Findex.js',
      '/docs/.hidden.txt',
      '/docs/nope.html',
    ]) {
      const res = await fetch(sb.origin + path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error_code: string }).error_code).toBe('NOT_FOUND');
    }
  });
  it('is still alive', async () => {
    expect((await call(sb, 'GET', '/videos/', { key })).status).toBe(200);
  });
});

describe('CORS, for browser apps on a local dev server', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, timeScale: 100, validateResponses: true });
  });
  afterAll(() => sb.close());
  it('answers a preflight and exposes the pacing headers on the real request', async () => {
    const url = `${sb.baseUrl}/videos/${FIXTURES.acme.videos.convertible}/conversions/`;
    const pre = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const get = await fetch(`${sb.baseUrl}/videos/`, {
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${SANDBOX_KEYS.acme}` },
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    expect(sb.violations).toEqual([]);
  });
});
