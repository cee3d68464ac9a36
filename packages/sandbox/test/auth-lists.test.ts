// Keys and accounts, 401s, per-account isolation, video settings, lists and paging.
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, form, sandbox } from './helpers.js';
import type { RunningSandbox } from '../src/index.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ rateLimits: false });
});

describe('authentication', () => {
  it('accepts every seeded key', async () => {
    for (const key of Object.values(SANDBOX_KEYS)) {
      const a = await call(sb, 'GET', '/video-settings/', { key });
      expect(a.status, key).toBe(200);
    }
  });
  it.each([
    ['missing', undefined],
    ['unknown', 'Bearer sandbox-key-nobody'],
    ['not Bearer', 'Basic c2FuZGJveA=='],
    ['empty bearer', 'Bearer '],
    ['key without scheme', SANDBOX_KEYS.acme],
    ['two tokens', `Bearer ${SANDBOX_KEYS.acme} extra`],
  ])('answers 401 UNAUTHORIZED with the envelope for a %s key', async (_name, header) => {
    for (const [method, path] of [
      ['GET', '/videos/'],
      ['GET', `/videos/${FIXTURES.acme.videos.convertible}/`],
      ['GET', '/video-settings/'],
      ['POST', `/videos/${FIXTURES.acme.videos.convertible}/conversions/`],
      ['POST', '/videos/generate/'],
    ]) {
      const a = await call(sb, method, path, { headers: header ? { authorization: header } : {} });
      expectError(a, 401, 'UNAUTHORIZED');
      expect(a.headers.get('ratelimit-limit')).toBeNull();
    }
  });
  it('accepts the scheme case-insensitively', async () => {
    const a = await call(sb, 'GET', '/videos/', { headers: { authorization: `bearer ${SANDBOX_KEYS.globex}` } });
    expect(a.status).toBe(200);
  });
});

describe('video settings', () => {
  it('lists the 7 seeded settings of the account with their request_fields', async () => {
    const a = await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.globex });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ has_next: false, total_count: 7, page: 1, items_per_page: 50 });
    const byId = Object.fromEntries(a.body.results.map((s: any) => [s.video_setting_id, s.request_fields]));
    expect(byId).toEqual({
      [FIXTURES.globex.settings.text]: ['text'],
      [FIXTURES.globex.settings.pdf]: ['pdf_file'],
      [FIXTURES.globex.settings.pptx]: ['pptx_file'],
      [FIXTURES.globex.settings.textPdf]: ['text', 'pdf_file'],
      [FIXTURES.globex.settings.audio]: ['audio_file'],
      [FIXTURES.globex.settings.video]: ['video_file'],
      [FIXTURES.globex.settings.textImages]: ['text', 'image_files'],
    });
    expect(FIXTURES.globex.settings.audio).toBe('5e77b000-0000-4000-8000-000000000005');
  });
  it('pages settings like every list', async () => {
    expect((await call(sb, 'GET', '/video-settings/?page=2', { key: SANDBOX_KEYS.acme })).body).toMatchObject({
      results: [],
      page: 2,
      total_count: 7,
    });
    expectError(await call(sb, 'GET', '/video-settings/?page=0', { key: SANDBOX_KEYS.acme }), 400, 'INVALID_REQUEST');
  });
});

describe('videos of an account', () => {
  it('lists the seeded videos, newest first, with fixed ids', async () => {
    const a = await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.initech });
    expect(a.status).toBe(200);
    expect(a.body.results.map((v: any) => v.video_id)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => `71de0c00-0000-4000-8000-00000000000${n}`),
    );
    for (const v of a.body.results) expect(v.created_at.startsWith('2026-01-')).toBe(true);
  });
  it('keys of one account see the same videos; other accounts see none of them', async () => {
    const created = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.acme2,
      form: form({ video_setting_id: FIXTURES.acme.settings.text, text: 'shared between the keys of acme' }),
    });
    expect(created.status).toBe(200);
    const id = created.body.video_id;
    expect((await call(sb, 'GET', `/videos/${id}/`, { key: SANDBOX_KEYS.acme })).status).toBe(200);
    expectError(await call(sb, 'GET', `/videos/${id}/`, { key: SANDBOX_KEYS.globex }), 404, 'NOT_FOUND');
    expectError(await call(sb, 'GET', `/videos/${id}/conversions/`, { key: SANDBOX_KEYS.globex }), 404, 'NOT_FOUND');
    const acmeList = await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.acme });
    expect(acmeList.body.results[0]).toMatchObject({ video_id: id, prompt: 'shared between the keys of acme' });
    const globexList = await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex });
    expect(globexList.body.results.map((v: any) => v.video_id)).not.toContain(id);
    expectError(
      await call(sb, 'GET', `/videos/${FIXTURES.globex.videos.convertible}/`, { key: SANDBOX_KEYS.acme }),
      404,
      'NOT_FOUND',
    );
  });
  it('uses the file name as the prompt of a file-only video', async () => {
    const created = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.globex,
      form: form({ video_setting_id: FIXTURES.globex.settings.pdf }, [['pdf_file', 'Quarterly deck.pdf', 'pdf bytes']]),
    });
    expect(created.status).toBe(200);
    const list = await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex });
    expect(list.body.results[0]).toMatchObject({ video_id: created.body.video_id, prompt: 'Quarterly deck.pdf' });
  });
  it('answers 404 NOT_FOUND for an unknown video id', async () => {
    expectError(
      await call(sb, 'GET', '/videos/00000000-0000-4000-8000-000000000000/', { key: SANDBOX_KEYS.acme }),
      404,
      'NOT_FOUND',
    );
  });
  it('accepts an upper-case id of an existing video', async () => {
    const a = await call(sb, 'GET', `/videos/${FIXTURES.acme.videos.failed.toUpperCase()}/`, {
      key: SANDBOX_KEYS.acme,
    });
    expect(a.body).toEqual({
      video_id: FIXTURES.acme.videos.failed,
      status: 'failed',
      download_url: '',
      copyright: [],
    });
  });
});

describe('paging', () => {
  it('pages 50 per page with consistent has_next, total_count and page', async () => {
    // A configured account, and generations that finish at once (the concurrency limit stays out of the way).
    const sb2 = await sandbox({
      rateLimits: false,
      accounts: [{ name: 'pager', plan: 'business', keys: ['key-pager'] }],
    });
    const ids: string[] = [];
    const sb3 = await sandbox({
      rateLimits: false,
      generationSeconds: 0,
      accounts: [{ name: 'pager', plan: 'business', keys: ['key-pager'] }],
    });
    const settings = await call(sb3, 'GET', '/video-settings/', { key: 'key-pager' });
    const textSetting = settings.body.results.find((s: any) => s.request_fields.join() === 'text').video_setting_id;
    for (let i = 0; i < 96; i++) {
      const a = await call(sb3, 'POST', '/videos/generate/', {
        key: 'key-pager',
        form: form({ video_setting_id: textSetting, text: `video ${i}` }),
      });
      expect(a.status).toBe(200);
      ids.push(a.body.video_id);
    }
    // 96 generated + 7 seeded = 103 → pages of 50, 50, 3.
    const p1 = await call(sb3, 'GET', '/videos/', { key: 'key-pager' });
    const p2 = await call(sb3, 'GET', '/videos/?page=2', { key: 'key-pager' });
    const p3 = await call(sb3, 'GET', '/videos/?page=3', { key: 'key-pager' });
    const p4 = await call(sb3, 'GET', '/videos/?page=4', { key: 'key-pager' });
    expect(
      [p1, p2, p3, p4].map((p) => [p.body.results.length, p.body.has_next, p.body.total_count, p.body.page]),
    ).toEqual([
      [50, true, 103, 1],
      [50, true, 103, 2],
      [3, false, 103, 3],
      [0, false, 103, 4],
    ]);
    const all = [...p1.body.results, ...p2.body.results, ...p3.body.results].map((v: any) => v.video_id);
    expect(all.slice(0, 96)).toEqual([...ids].reverse());
    expect(new Set(all).size).toBe(103);
    expect((await call(sb2, 'GET', '/videos/', { key: 'key-pager' })).body.total_count).toBe(7);
  });
  it('a configured account with seedVideos: false starts empty (a fresh account), with its settings', async () => {
    const sb4 = await sandbox({
      rateLimits: false,
      accounts: [{ name: 'fresh', plan: 'business', keys: ['key-fresh'], seedVideos: false }],
    });
    const videos = await call(sb4, 'GET', '/videos/', { key: 'key-fresh' });
    expect([videos.status, videos.body.total_count, videos.body.results]).toEqual([200, 0, []]);
    const settings = await call(sb4, 'GET', '/video-settings/', { key: 'key-fresh' });
    expect(settings.body.total_count).toBe(7);
    // The other accounts keep their seed.
    expect((await call(sb4, 'GET', '/videos/', { key: SANDBOX_KEYS.acme })).body.total_count).toBe(7);
  });
  it.each(['0', '-1', '1.5', 'abc', '', '1e0', '99999999999999999999'])(
    'rejects page=%s with 400 INVALID_REQUEST',
    async (page) => {
      expectError(await call(sb, 'GET', `/videos/?page=${page}`, { key: SANDBOX_KEYS.acme }), 400, 'INVALID_REQUEST');
    },
  );
  it('rejects a repeated page parameter', async () => {
    expectError(await call(sb, 'GET', '/videos/?page=1&page=2', { key: SANDBOX_KEYS.acme }), 400, 'INVALID_REQUEST');
  });
});
