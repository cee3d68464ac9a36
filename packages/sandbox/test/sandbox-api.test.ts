// The /_sandbox/ API over real HTTP: the clock moves an account's generations, URLs and windows
// forward with no wait; reset; each injected behaviour; the response counters.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { checkResponse, createAjv } from '@videogen/openapi';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, form, sandbox } from './helpers.js';

// The separate sandbox document: every /_sandbox/ answer below is checked against it.
const requireFromSpec = createRequire(createRequire(import.meta.url).resolve('@videogen/openapi/package.json'));
const doc = requireFromSpec('yaml').parse(readFileSync(new URL('../sandbox-api.yaml', import.meta.url), 'utf8'));
const ajv = createAjv(doc);
const docProblems: string[] = [];
let checked = 0;
afterAll(() => {
  expect(checked).toBeGreaterThan(20);
  expect(docProblems).toEqual([]);
});

const A = FIXTURES.acme;
const key = SANDBOX_KEYS.acme;
async function api(sb: any, method: string, path: string, json?: unknown, k: string = key) {
  const a = await call(sb, method, `${sb.origin}/_sandbox${path}`, { key: k, json });
  const operation = doc.paths[`/_sandbox${path}`]?.[method.toLowerCase()];
  if (!operation) docProblems.push(`${method} /_sandbox${path} is not in sandbox-api.yaml`);
  else
    docProblems.push(
      ...checkResponse(ajv, doc, operation, {
        status: a.status,
        contentType: a.headers.get('content-type') ?? '',
        body: a.body,
      }).map((f) => f.message),
    );
  checked++;
  return a;
}

describe('the clock', async () => {
  // Real time, real documented durations: only the clock API can move things along.
  const sb = await sandbox({ rateLimiter: 'even' });
  it('advances a generation to completed and its download URL to 403, with no wait', async () => {
    const g = await call(sb, 'POST', '/videos/generate/', {
      key,
      form: form({ video_setting_id: A.settings.text, text: 'clock' }),
    });
    expect(g.status).toBe(200);
    const before = (await api(sb, 'GET', '/clock')).body;
    expect(before).toMatchObject({ account: 'acme', advanced_seconds: 0, time_scale: 1 });
    // class B is one request per 2 s: advancing 2 s frees the next slot too.
    await api(sb, 'POST', '/clock/advance', { seconds: 2 });
    expect((await call(sb, 'GET', `/videos/${g.body.video_id}/`, { key })).body.status).toBe('running');
    const after = (await api(sb, 'POST', '/clock/advance', { seconds: 30 })).body;
    expect(after.advanced_seconds).toBe(32);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(32_000);
    const done = await call(sb, 'GET', `/videos/${g.body.video_id}/`, { key });
    expect(done.body.status).toBe('completed');
    const url = done.body.download_url;
    expect((await fetch(url)).status).toBe(200);
    await api(sb, 'POST', '/clock/advance', { seconds: 3600 });
    const expired = await call(sb, 'GET', url);
    expectError(expired, 403, 'FORBIDDEN');
    // A day later the video itself has expired.
    await api(sb, 'POST', '/clock/advance', { seconds: 86400 });
    expect((await call(sb, 'GET', `/videos/${g.body.video_id}/`, { key })).body.status).toBe('expired');
  });
  it('resets the rate windows of the account, and only of that account', async () => {
    expect((await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.globex })).status).toBe(200);
    expectError(await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.globex }), 429, 'RATE_LIMIT_EXCEEDED');
    await api(sb, 'POST', '/clock/advance', { seconds: 10 }, SANDBOX_KEYS.globex);
    expect((await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.globex })).status).toBe(200);
    expect((await api(sb, 'GET', '/clock', undefined, SANDBOX_KEYS.initech)).body.advanced_seconds).toBe(0);
  });
  it('resets an account to its seed', async () => {
    await api(sb, 'POST', '/clock/advance', { seconds: 10 });
    expect((await call(sb, 'GET', '/videos/', { key })).body.total_count).toBe(8);
    const r = await api(sb, 'POST', '/reset');
    expect(r.body).toMatchObject({ account: 'acme', reset: true, credits: 10000, advanced_seconds: 0 });
    const list = await call(sb, 'GET', '/videos/', { key });
    expect(list.body.total_count).toBe(7);
    expect((await api(sb, 'GET', '/stats')).body.responses).toEqual({ '200': 1 });
  });
  it('needs the account key, and answers bad bodies with the envelope', async () => {
    expectError(await api(sb, 'GET', '/clock', undefined, 'nobody'), 401, 'UNAUTHORIZED');
    expectError(await call(sb, 'GET', `${sb.origin}/_sandbox/clock`), 401, 'UNAUTHORIZED');
    for (const body of [{}, { seconds: -1 }, { seconds: 'x' }])
      expectError(await api(sb, 'POST', '/clock/advance', body), 400, 'INVALID_REQUEST');
    expectError(
      await call(sb, 'POST', `${sb.origin}/_sandbox/clock/advance`, {
        key,
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_REQUEST',
    );
    for (const body of [
      { kind: 'teapot' },
      { kind: 'latency' },
      { kind: '429', count: 0 },
      { kind: '500', retry_after_seconds: 1 },
    ]) {
      expectError(await api(sb, 'POST', '/faults', body), 400, 'INVALID_REQUEST');
    }
  });
});

/**
 * A control request as a browser sends it: its own Host (fetch cannot set one: DNS rebinding needs it), and
 * the Origin / Sec-Fetch-Site it adds. The answer is checked against sandbox-api.yaml like `api`'s.
 */
function fromBrowser(
  sb: { port: number },
  method: string,
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: sb.port,
        method,
        path: `/_sandbox${path}`,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const parsed = text ? JSON.parse(text) : undefined;
          const operation = doc.paths[`/_sandbox${path}`]?.[method.toLowerCase()];
          if (operation && method !== 'OPTIONS') {
            docProblems.push(
              ...checkResponse(ajv, doc, operation, {
                status: res.statusCode!,
                contentType: String(res.headers['content-type'] ?? ''),
                body: parsed,
              }).map((f) => f.message),
            );
            checked++;
          }
          resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('closed to web pages of other origins', async () => {
  const sb = await sandbox({ rateLimits: false, timeScale: 10 });
  const own = `127.0.0.1:${sb.port}`;
  const generated = async () => (await call(sb, 'GET', '/videos/', { key })).body.total_count as number;
  const controls: Array<[string, string, unknown?]> = [
    ['POST', '/reset'],
    ['POST', '/clock/advance', { seconds: 30 }],
    ['POST', '/faults', { kind: 'drop', count: 10000 }],
    ['DELETE', '/faults'],
    ['GET', '/clock'],
    ['GET', '/faults'],
    ['GET', '/stats'],
  ];
  const hostile: Array<[string, Record<string, string>]> = [
    ['a page of another site', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }],
    [
      'a "simple" cross-site POST (text/plain, no preflight)',
      { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' },
    ],
    [
      'a dev server on another port of this machine',
      { origin: 'http://127.0.0.1:5173', 'sec-fetch-site': 'same-site' },
    ],
    ['an Origin alone (a browser without Sec-Fetch-*)', { origin: 'http://evil.example' }],
    ['an opaque origin (a sandboxed iframe, a file: page)', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    [
      "DNS rebinding: same-origin for the browser, under the page's own name",
      { host: `evil.test:${sb.port}`, origin: `http://evil.test:${sb.port}`, 'sec-fetch-site': 'same-origin' },
    ],
    ['DNS rebinding, a GET (no Origin)', { host: `evil.test:${sb.port}`, 'sec-fetch-site': 'same-origin' }],
  ];

  it('refuses every control to a web page of another origin with 403 FORBIDDEN and no CORS header; nothing changes', async () => {
    await call(sb, 'POST', '/videos/generate/', {
      key,
      form: form({ video_setting_id: A.settings.text, text: 'kept' }),
    });
    const count = await generated();
    for (const [who, headers] of hostile)
      for (const [method, path, json] of controls) {
        const a = await fromBrowser(sb, method, path, headers, json);
        expect({ who, method, path, status: a.status, code: a.body?.error_code }).toEqual({
          who,
          method,
          path,
          status: 403,
          code: 'FORBIDDEN',
        });
        expect(a.headers['access-control-allow-origin']).toBeUndefined();
      }
    // The reset, the advance and the faults were refused: the video, the time and the next request are as they were.
    expect(await generated()).toBe(count);
    expect(sb.clock.read(key).advanced_seconds).toBe(0);
    expect(sb.faults.list(key)).toEqual([]);
  });

  it('answers a cross-origin preflight with no CORS, so a browser never sends the request', async () => {
    for (const path of ['/reset', '/clock/advance', '/faults']) {
      const pre = await fromBrowser(sb, 'OPTIONS', path, {
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      });
      expect(pre.status).toBe(403);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      expect(pre.headers['access-control-allow-headers']).toBeUndefined();
    }
    // Percent-encoded, the path reaches the same routes: the same refusal.
    const encoded = await fetch(`${sb.origin}/%5Fsandbox/reset`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(encoded.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("serves the sandbox's own pages (same origin, by 127.0.0.1 or localhost), tests, scripts and curl", async () => {
    const allowed: Array<[string, Record<string, string>]> = [
      ['curl, a test, the client (no browser headers)', {}],
      ['the docs page at /docs', { origin: `http://${own}`, 'sec-fetch-site': 'same-origin' }],
      [
        'the docs page at localhost',
        { host: `localhost:${sb.port}`, origin: `http://localhost:${sb.port}`, 'sec-fetch-site': 'same-origin' },
      ],
      ['a GET of the docs page (no Origin)', { 'sec-fetch-site': 'same-origin' }],
      ['a URL typed in the address bar', { 'sec-fetch-site': 'none' }],
    ];
    for (const [who, headers] of allowed) {
      const a = await fromBrowser(sb, 'POST', '/clock/advance', headers, { seconds: 1 });
      expect({ who, status: a.status }).toEqual({ who, status: 200 });
      expect(a.headers['access-control-allow-origin']).toBeUndefined();
    }
    const reset = await fromBrowser(sb, 'POST', '/reset', { origin: `http://${own}`, 'sec-fetch-site': 'same-origin' });
    expect(reset.body).toMatchObject({ reset: true, advanced_seconds: 0 });
  });

  it('keeps CORS for every origin on the API and its downloads (browser apps call them)', async () => {
    const get = await fetch(`${sb.baseUrl}/videos/${A.videos.convertible}/`, {
      headers: { origin: 'http://evil.example', authorization: `Bearer ${key}` },
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    const video = (await get.json()) as { download_url: string };
    const file = await fetch(video.download_url, { headers: { origin: 'http://evil.example' } });
    expect(file.status).toBe(200);
    expect(file.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await fetch(`${sb.baseUrl}/videos/generate/`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('in-process (sb.fetch) the controls answer as before', async () => {
    const { createSandbox } = await import('../src/index.js');
    await using inProcess = await createSandbox();
    const res = await inProcess.fetch(`${inProcess.origin}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 5 }),
    });
    expect(res.status).toBe(200);
    expect(inProcess.clock.read(key).advanced_seconds).toBe(5);
  });
});

describe('injected behaviour for the next K requests', async () => {
  const sb = await sandbox({ rateLimits: false, timeScale: 10 });
  const get = () => call(sb, 'GET', `/videos/${A.videos.convertible}/`, { key });
  it('a 429, K times, then normal again', async () => {
    await api(sb, 'POST', '/faults', { kind: '429', count: 2, retry_after_seconds: 4 });
    expect((await api(sb, 'GET', '/faults')).body.faults).toEqual([
      { kind: '429', remaining: 2, retry_after_seconds: 4 },
    ]);
    for (let i = 0; i < 2; i++) {
      const a = await get();
      expectError(a, 429, 'RATE_LIMIT_EXCEEDED');
      expect(a.headers.get('retry-after')).toBe('0.4');
    }
    expect((await get()).status).toBe(200);
    // another account is not affected
    await api(sb, 'POST', '/faults', { kind: '429' });
    expect((await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex })).status).toBe(200);
    await api(sb, 'DELETE', '/faults');
    expect((await get()).status).toBe(200);
  });
  it('a 503 and a 500, with the envelope', async () => {
    await api(sb, 'POST', '/faults', { kind: '503' });
    await api(sb, 'POST', '/faults', { kind: '503', error_code: 'SIMULTANEOUS_GENERATE_LIMIT' });
    await api(sb, 'POST', '/faults', { kind: '500' });
    const a = await get();
    expectError(a, 503, 'SERVICE_UNAVAILABLE');
    expect(a.headers.get('retry-after')).toBe('3');
    expectError(await get(), 503, 'SIMULTANEOUS_GENERATE_LIMIT');
    expectError(await get(), 500, 'UNKNOWN_ERROR');
    expect((await get()).status).toBe(200);
  });
  it('a latency', async () => {
    await api(sb, 'POST', '/faults', { kind: 'latency', latency_ms: 300 });
    const t = Date.now();
    expect((await get()).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
  });
  it('a dropped connection', async () => {
    await api(sb, 'POST', '/faults', { kind: 'drop' });
    await expect(fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } })).rejects.toThrow();
    expect((await get()).status).toBe(200);
  });
  it('counts the statuses answered, per account and in total', async () => {
    const stats = (await api(sb, 'GET', '/stats')).body.responses;
    expect(stats).toMatchObject({ '429': 2, '503': 2, '500': 1 });
    expect(sb.stats()['429']).toBe(2);
  });
});
