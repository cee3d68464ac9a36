// A video id is checked as the document types it (format: uuid) before anything is
// sent, by every method that takes one and by client.api; and a status answer that is not the status
// view of the video asked for is an UnexpectedResponseError, not a status. Before, `videos.get('.')` sent
// GET /videos/./, which a URL parser turns into GET /videos/: the list came back as the video's status.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, UnexpectedResponseError, ValidationError, type VideoClient } from '../src/index.js';
import { faultServer, json, video, VIDEO_ID } from './helpers.js';

const NOT_IDS = ['.', '..', './', '', ' ', '%2e', '%2E%2E', 'a/b', '../video-settings', 'not-a-uuid', `${VIDEO_ID}/..`];

describe('a video id that is not a UUID is refused before anything is sent', () => {
  let sb: RunningSandbox;
  let client: VideoClient;
  const dir = mkdtempSync(join(tmpdir(), 'vg-path-'));
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, rateLimits: false, validateResponses: true });
    client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, pacing: false, maxRetries: 0 });
  });
  afterAll(() => sb.close());

  const calls: Array<[string, (c: VideoClient, id: string) => Promise<unknown>]> = [
    ['videos.get', (c, id) => c.videos.get(id)],
    ['conversions.get', (c, id) => c.conversions.get(id)],
    ['convert', (c, id) => c.convert(id, { language: 'en' })],
    [
      'convert with its options given',
      (c, id) =>
        c.convert(
          id,
          { language: 'en' },
          {
            conversionOptions: {
              is_convertible: true,
              current_language: 'ja',
              available_languages: ['en'],
              current_aspect_ratio: '16:9',
              available_aspect_ratios: ['1:1'],
            },
          },
        ),
    ],
    ['waitForVideo', (c, id) => c.waitForVideo(id, { intervalMs: 1 })],
    ['download', (c, id) => c.download(id, join(dir, 'out.mp4'))],
    ['convertAndWait', (c, id) => c.convertAndWait(id, { language: 'en' })],
    ['videos.get().withResponse()', (c, id) => c.videos.get(id).withResponse()],
    ['videos.get().asResponse()', (c, id) => c.videos.get(id).asResponse()],
  ];

  it('every resource method: a ValidationError naming video_id, and the sandbox saw no request', async () => {
    const before = sb.stats();
    for (const [name, call] of calls)
      for (const id of NOT_IDS) {
        const e = await call(client, id).then(
          (v) => v,
          (x) => x,
        );
        expect({ name, id, error: e?.name }).toEqual({ name, id, error: 'ValidationError' });
        expect(e).toBeInstanceOf(ValidationError);
        expect(e).toMatchObject({ field: 'video_id', error_code: 'INVALID_REQUEST', kind: 'validation' });
        expect(e.message).toContain('video_id must be a UUID');
        expect(e.message).toContain(JSON.stringify(id));
      }
    expect(sb.stats()).toEqual(before);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('client.api: a path parameter that is not a UUID rejects with a ValidationError, unsent', async () => {
    const before = sb.stats();
    for (const id of NOT_IDS) {
      for (const send of [
        () => client.api.GET('/videos/{video_id}/', { params: { path: { video_id: id } } }),
        () => client.api.GET('/videos/{video_id}/conversions/', { params: { path: { video_id: id } } }),
        () =>
          client.api.POST('/videos/{video_id}/conversions/', {
            params: { path: { video_id: id } },
            body: { language: 'en' },
          }),
      ]) {
        const e = await send().catch((x) => x);
        expect(e).toBeInstanceOf(ValidationError);
        expect(e.field).toBe('video_id');
      }
    }
    expect(sb.stats()).toEqual(before);
  });

  it('a real id goes through, in any case (the sandbox answers the same video)', async () => {
    const id = FIXTURES.acme.videos.convertible;
    expect((await client.videos.get(id)).video_id).toBe(id);
    expect((await client.videos.get(id.toUpperCase())).video_id).toBe(id);
    const { data } = await client.api.GET('/videos/{video_id}/', { params: { path: { video_id: id } } });
    expect(data?.status).toBe('completed');
    expect((await client.conversions.get(id)).is_convertible).toBe(true);
  });
});

describe('a status answer that is not the status view of the video asked for', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
  const start = async (body: unknown) => {
    const srv = await faultServer([json(200, body)]);
    close = srv.close;
    return createClient({ apiKey: 'key-that-must-not-leak-0123', baseUrl: srv.baseUrl, pacing: false });
  };
  const list = { results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 };

  it('is an UnexpectedResponseError, for get, waitForVideo and download (no file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vg-shape-'));
    for (const body of [
      list, // what GET /videos/ answers: a gateway routing the status elsewhere
      video('completed', { video_id: '11111111-2222-4333-8444-555555555555' }), // another video's status
      { video_id: VIDEO_ID, download_url: '' }, // no status
      { video_id: VIDEO_ID, status: 'completed' }, // no download_url
      video('completed', { download_url: 42 }),
      video('running', { copyright: 'not a list' }),
      [video('completed')],
    ]) {
      const client = await start(body);
      for (const call of [
        () => client.videos.get(VIDEO_ID),
        () => client.waitForVideo(VIDEO_ID, { intervalMs: 1 }),
        () => client.download(VIDEO_ID, join(dir, 'out.mp4')),
      ]) {
        const e = await call().catch((x) => x);
        expect({ body, name: e?.name }).toEqual({ body, name: 'UnexpectedResponseError' });
        expect(e).toBeInstanceOf(UnexpectedResponseError);
      }
      await close?.();
      close = undefined;
    }
    expect(existsSync(join(dir, 'out.mp4'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says what is wrong, and never shows the key a body echoed', async () => {
    const client = await start({ echo: 'Bearer key-that-must-not-leak-0123', ...list });
    const e = await client.videos.get(VIDEO_ID).catch((x) => x);
    expect(e.message).toMatch(/not its status view .*video_id is undefined.*no status.*no download_url/);
    expect(`${e.message} ${e.stack}`).not.toContain('key-that-must-not-leak-0123');
  });

  it('a status view with more fields, an upper-case id or an unknown status value is still one', async () => {
    for (const body of [
      video('completed', { object: 'video', request_id: 'r1' }),
      video('running', { video_id: VIDEO_ID.toUpperCase() }),
      video('queued'),
    ]) {
      const client = await start(body);
      expect((await client.videos.get(VIDEO_ID)).status).toBe(body.status);
      await close?.();
      close = undefined;
    }
  });
});
