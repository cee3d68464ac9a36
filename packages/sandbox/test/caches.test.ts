// The hot path's caches (bench/README.md) never answer what the state no longer is: the store's decoded
// videos follow creates and resets (a read racing a reset included), the answered status view follows
// the clock (status, download URL, expiry) and the personality, and the response self-check's memory
// tells apart answers that differ in any part. Each test fails if its cache keeps a stale entry.
import { describe, expect, it } from 'vitest';
import { Accounts } from '../src/accounts.js';
import { BoundedMap } from '../src/bounded-map.js';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { responseChecker } from '../src/response-check.js';
import { specModel } from '../src/spec.js';
import { Store } from '../src/store.js';
import { call, form, manualClock, sandbox } from './helpers.js';

const A = FIXTURES.acme;
const key = SANDBOX_KEYS.acme;

describe('the store keeps decoded videos only while they exist', () => {
  const accounts = new Accounts();
  const record = (id: string) => ({
    video_id: id,
    account: 'acme',
    created_at: Date.now(),
    prompt: 'cached',
    finishes_at: Date.now() + 1000,
    outcome: 'completed' as const,
    expires_at: null,
    language: 'en',
    aspect_ratio: '16:9',
    voices: 'all' as const,
    has_video_data: true,
    real_avatar: false,
    copyright: [],
  });

  it('forgets a video removed by a reset, even one read again while the reset commits', async () => {
    const store = new Store(accounts, {});
    try {
      const id = '0d0d0d0d-0000-4000-8000-000000000001';
      await store.create(record(id));
      expect(store.find(id)?.prompt).toBe('cached'); // now cached
      const reset = store.resetAccount('acme', 10);
      expect(store.find(id)).toBeDefined(); // a read while the transaction commits (re-caches it)
      await reset;
      expect(store.find(id)).toBeUndefined();
      expect(store.get('acme', A.videos.convertible)).toBeDefined(); // the seeds stay
    } finally {
      await store.close();
    }
  });

  it('shares a cached record frozen, so that no reader can change it for the others', async () => {
    const store = new Store(accounts, {});
    try {
      const v = store.find(A.videos.convertible)!;
      expect(store.find(A.videos.convertible)).toBe(v);
      expect(() => {
        (v as { prompt: string }).prompt = 'changed';
      }).toThrow(TypeError);
    } finally {
      await store.close();
    }
  });

  it('a bounded map forgets its oldest entry past its limit', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 3).set('c', 4);
    expect([...m]).toEqual([
      ['b', 2],
      ['c', 4],
    ]); // (a key set again keeps its place)
  });
});

describe('over HTTP', async () => {
  const clock = manualClock();
  const sb = await sandbox({ now: clock.now, rateLimits: false });
  const get = async (id: string) => (await call(sb, 'GET', `/videos/${id}/`, { key })).body;

  it('a reset makes a cached generated video 404', async () => {
    const g = await call(sb, 'POST', '/videos/generate/', {
      key,
      form: form({ video_setting_id: A.settings.text, text: 'cache me' }),
    });
    expect((await get(g.body.video_id)).video_id).toBe(g.body.video_id);
    expect((await call(sb, 'POST', `${sb.origin}/_sandbox/reset`, { key })).status).toBe(200);
    expect((await call(sb, 'GET', `/videos/${g.body.video_id}/`, { key })).status).toBe(404);
  });

  it('the answered view follows the clock: running, completed with a URL, a new URL, expired', async () => {
    const g = await call(sb, 'POST', '/videos/generate/', {
      key,
      form: form({ video_setting_id: A.settings.text, text: 'watch me' }),
    });
    const id = g.body.video_id;
    expect(await get(id)).toMatchObject({ status: 'running', download_url: '' });
    expect(await get(id)).toMatchObject({ status: 'running', download_url: '' }); // the cached view
    clock.advance(30_000);
    const done = await get(id);
    expect(done.status).toBe('completed');
    expect(done.download_url).toMatch(/^http/);
    expect((await get(id)).download_url).toBe(done.download_url); // reused within its step
    clock.advance(60_000); // one step of the URL's lifetime (an hour / 60)
    const later = await get(id);
    expect(later.download_url).not.toBe(done.download_url);
    expect((await call(sb, 'GET', later.download_url)).status).toBe(200);
    clock.advance(86_400_000);
    expect(await get(id)).toMatchObject({ status: 'expired', download_url: '' });
  });
});

describe('the alternative personality still decorates a cached view', async () => {
  const sb = await sandbox({ personality: 'alternative', rateLimits: false });
  it('every answer of a polled video carries its `object`', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call(sb, 'GET', `/videos/${A.videos.convertible}/`, { key })).body).toMatchObject({
        object: 'video',
        status: 'completed',
      });
    }
  });
});

describe('the response self-check remembers verdicts only for identical answers', () => {
  const model = specModel();
  const op = model.operations.find((o) => o.operationId === 'getVideo')!;
  const json = 'application/json; charset=utf-8';
  const running = JSON.stringify({
    video_id: '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10',
    status: 'running',
    download_url: '',
    copyright: [],
  });
  const headers = {
    'content-type': json,
    'ratelimit-limit': '1',
    'ratelimit-remaining': '0',
    'ratelimit-reset': '2',
    'ratelimit-policy': '1;w=2',
  };

  it('judges a changed body, status, content type or header afresh', () => {
    const check = responseChecker(model);
    expect(check(op, 200, json, running, headers)).toEqual([]);
    expect(check(op, 200, json, running, headers)).toEqual([]); // remembered
    expect(check(op, 200, json, running.replace('"running"', '"done"'), headers).length).toBeGreaterThan(0);
    expect(check(op, 418, json, running, headers).length).toBeGreaterThan(0);
    expect(check(op, 200, 'text/plain', running, headers).length).toBeGreaterThan(0);
    expect(check(op, 200, json, running, { ...headers, 'ratelimit-remaining': 'many' }).length).toBeGreaterThan(0);
    expect(check(op, 200, json, running, headers)).toEqual([]);
  });
});
