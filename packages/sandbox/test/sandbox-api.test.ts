// The /_sandbox/ API over real HTTP: the clock moves an account's generations, URLs and windows
// forward with no wait; reset; each injected behaviour; the response counters.
import { readFileSync } from 'node:fs';
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
