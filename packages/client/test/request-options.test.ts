// Per-request options: { signal, timeoutMs, maxRetries, headers } as the last
// argument of every method, the same names everywhere, checked on the wire of a real server.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createClient, TimeoutError, ServerError } from '../src/index.js';
import { err, fakeClock, faultServer, hang, json, video, VIDEO_ID, type Seen, mp4Bytes } from './helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const page = (results: unknown[] = []) => ({
  results,
  has_next: false,
  total_count: results.length,
  page: 1,
  items_per_page: 50,
});
const OPTIONS = {
  is_convertible: true,
  current_language: 'ja',
  available_languages: ['en'],
  current_aspect_ratio: '16:9',
  available_aspect_ratios: ['9:16'],
};

/** Answers each operation as the spec says; the download host is the same server. */
async function api() {
  const srv = await faultServer((s: Seen) => {
    if (s.url.startsWith('/v1/video-settings/'))
      return json(
        200,
        page([
          {
            video_setting_id: VIDEO_ID,
            title: 't',
            request_fields: ['text'],
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
          },
        ]),
      );
    if (s.url.startsWith('/v1/videos/?')) return json(200, page());
    if (s.url.endsWith('/conversions/'))
      return s.method === 'GET' ? json(200, OPTIONS) : json(200, { video_id: VIDEO_ID });
    if (s.url === '/v1/videos/generate/') return json(200, { video_id: VIDEO_ID });
    if (s.url === '/file.mp4')
      return (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4Bytes(8));
    return json(200, video('completed', { download_url: `${origin}/file.mp4` }));
  });
  const origin = srv.origin;
  close = srv.close;
  return srv;
}

describe("headers: every method sends the call's headers to the API (never to the download host)", () => {
  it('on each method', async () => {
    const srv = await api();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const h = (name: string) => ({ headers: { 'x-call': name } });
    await client.videos.get(VIDEO_ID, h('videos.get'));
    for await (const _ of client.videos.list(h('videos.list')));
    await client.conversions.get(VIDEO_ID, h('conversions.get'));
    await client.convert(VIDEO_ID, { language: 'en' }, h('convert'));
    await client.conversions.create(VIDEO_ID, { language: 'en' }, h('conversions.create'));
    await client.videos.generate({ video_setting_id: VIDEO_ID, text: 'x' }, h('videos.generate')); // looks the setting up
    for await (const _ of client.settings.list(h('settings.list')));
    await client.waitForVideo(VIDEO_ID, h('waitForVideo'));
    await client.generateAndWait({ video_setting_id: VIDEO_ID, text: 'x' }, h('generateAndWait'));
    await client.convertAndWait(VIDEO_ID, { aspect_ratio: '9:16' }, h('convertAndWait'));
    await client.download(VIDEO_ID, `${mkdtempSync('/tmp/vg-ro-')}/v.mp4`, h('download'));
    const by = (name: string) =>
      srv.seen.filter((s) => s.headers['x-call'] === name).map((s) => `${s.method} ${s.url.split('?')[0]}`);
    expect(by('videos.get')).toEqual([`GET /v1/videos/${VIDEO_ID}/`]);
    expect(by('videos.list')).toEqual(['GET /v1/videos/']);
    expect(by('settings.list')).toEqual(['GET /v1/video-settings/']);
    expect(by('conversions.get')).toEqual([`GET /v1/videos/${VIDEO_ID}/conversions/`]);
    expect(by('convert')).toEqual([
      `GET /v1/videos/${VIDEO_ID}/conversions/`,
      `POST /v1/videos/${VIDEO_ID}/conversions/`,
    ]);
    expect(by('conversions.create')).toEqual([
      `GET /v1/videos/${VIDEO_ID}/conversions/`,
      `POST /v1/videos/${VIDEO_ID}/conversions/`,
    ]);
    expect(by('videos.generate')).toEqual(['GET /v1/video-settings/', 'POST /v1/videos/generate/']);
    expect(by('waitForVideo')).toEqual([`GET /v1/videos/${VIDEO_ID}/`]);
    expect(by('generateAndWait')).toEqual(['POST /v1/videos/generate/', `GET /v1/videos/${VIDEO_ID}/`]);
    expect(by('convertAndWait')).toEqual([
      `GET /v1/videos/${VIDEO_ID}/conversions/`,
      `POST /v1/videos/${VIDEO_ID}/conversions/`,
      `GET /v1/videos/${VIDEO_ID}/`,
    ]);
    expect(by('download')).toEqual([`GET /v1/videos/${VIDEO_ID}/`]); // the file request carries no call headers
    expect(srv.seen.find((s) => s.url === '/file.mp4')!.headers['x-call']).toBeUndefined();
    // The client's own headers stay: the key on every API call.
    expect(srv.seen.filter((s) => s.url.startsWith('/v1/')).every((s) => s.headers.authorization === 'Bearer k')).toBe(
      true,
    );
  });
});

describe('maxRetries, timeoutMs and signal per call', () => {
  it('maxRetries: 0 sends once; the client default (3) stays for other calls', async () => {
    const srv = await faultServer([err(500, 'UNKNOWN_ERROR')]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false, clock: fakeClock() });
    await expect(client.videos.get(VIDEO_ID, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(srv.seen).toHaveLength(1);
    await expect(client.conversions.get(VIDEO_ID, { maxRetries: 1 })).rejects.toBeInstanceOf(ServerError);
    expect(srv.seen).toHaveLength(3);
    await expect(client.videos.get(VIDEO_ID)).rejects.toBeInstanceOf(ServerError);
    expect(srv.seen).toHaveLength(7);
  });

  it('timeoutMs bounds each attempt of this call only', async () => {
    const srv = await faultServer([hang]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false, maxRetries: 0 });
    const e = await client.videos.get(VIDEO_ID, { timeoutMs: 50 }).catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ deadline: 'headers' });
    expect(e.message).toBe(`GET ${srv.baseUrl}/videos/${VIDEO_ID}/: no response headers within 50 ms (timeoutMs)`);
    const e2 = await client.settings.list({ timeoutMs: 30 }).catch((x) => x);
    expect(e2).toBeInstanceOf(TimeoutError);
  });

  it('signal cancels a list, a conversion read and a wait', async () => {
    const srv = await faultServer([hang]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    for (const call of [
      (signal: AbortSignal) => client.videos.list({ signal }),
      (signal: AbortSignal) => client.conversions.get(VIDEO_ID, { signal }),
      (signal: AbortSignal) => client.waitForVideo(VIDEO_ID, { signal }),
    ]) {
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('stop')), 20);
      await expect(Promise.resolve(call(ac.signal))).rejects.toThrow('stop');
    }
  });
});
