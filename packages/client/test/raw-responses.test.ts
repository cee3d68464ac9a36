// Raw responses: the promise every method returns has .withResponse() (the data and
// the raw Response, headers readable) and .asResponse() (the Response, body unread); errors keep
// status, headers and retryAfter.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { APIPromise, createClient, RateLimitError } from '../src/index.js';
import { err, fakeClock, faultServer, json, video, VIDEO_ID, type Seen, mp4Bytes } from './helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const withId = (n: number) => ({ 'x-request-id': `req-${n}`, 'ratelimit-remaining': '4' });
const page = (n: number) => ({
  results: [{ video_id: VIDEO_ID, created_at: '2026-01-01T00:00:00Z', prompt: 'p' }],
  has_next: false,
  total_count: 1,
  page: n,
  items_per_page: 50,
});

async function api() {
  let n = 0;
  const srv = await faultServer((s: Seen) => {
    n++;
    if (s.url.startsWith('/v1/videos/?'))
      return json(200, page(Number(new URL(s.url, 'http://x').searchParams.get('page'))), withId(n));
    if (s.url.endsWith('/conversions/') && s.method === 'GET')
      return json(
        200,
        {
          is_convertible: true,
          current_language: 'ja',
          available_languages: ['en'],
          current_aspect_ratio: '16:9',
          available_aspect_ratios: [],
        },
        withId(n),
      );
    if (s.method === 'POST') return json(200, { video_id: VIDEO_ID }, withId(n));
    if (s.url === '/file.mp4')
      return (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4', etag: '"v1"' }).end(mp4Bytes(8));
    return json(200, video('completed', { download_url: `${srv.origin}/file.mp4` }), withId(n));
  });
  close = srv.close;
  return srv;
}

describe('.withResponse() and .asResponse()', () => {
  it('every method returns an APIPromise whose response headers are readable', async () => {
    const srv = await api();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const get = client.videos.get(VIDEO_ID);
    expect(get).toBeInstanceOf(APIPromise);
    expect(get).toBeInstanceOf(Promise);
    const { data, response } = await get.withResponse();
    expect(data.status).toBe('completed');
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req-\d+$/);
    expect(response.headers.get('ratelimit-remaining')).toBe('4');
    // Awaiting again gives the same data (parsed once).
    expect(await get).toBe(data);

    const calls = {
      conversionsGet: client.conversions.get(VIDEO_ID),
      convert: client.convert(VIDEO_ID, { language: 'en' }),
      generate: client.videos.generate(
        { video_setting_id: VIDEO_ID, text: 'x' },
        { setting: { request_fields: ['text'] } },
      ),
      waitForVideo: client.waitForVideo(VIDEO_ID),
      generateAndWait: client.generateAndWait(
        { video_setting_id: VIDEO_ID, text: 'x' },
        { setting: { request_fields: ['text'] } },
      ),
      convertAndWait: client.convertAndWait(VIDEO_ID, { language: 'en' }),
    };
    for (const [name, p] of Object.entries(calls)) {
      expect(p, name).toBeInstanceOf(APIPromise);
      const { data, response } = await p.withResponse();
      expect(data, name).toBeTypeOf('object');
      expect(response.headers.get('x-request-id'), name).toMatch(/^req-\d+$/);
    }
    const dl = await client.download(VIDEO_ID, `${mkdtempSync('/tmp/vg-raw-')}/v.mp4`).withResponse();
    expect(dl.data.bytes).toBe(8);
    expect(dl.response.headers.get('etag')).toBe('"v1"'); // the download host's answer
  });

  it('a list: awaited (or withResponse) gives one page and its response; iterating still pages lazily', async () => {
    const srv = await api();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const first = await client.videos.list();
    expect(first).toMatchObject({ page: 1, total_count: 1 });
    const { data, response } = await client.videos.list({ page: 3 }).withResponse();
    expect(data.page).toBe(3);
    expect(response.url).toMatch(/page=3$/);
    expect(response.headers.get('x-request-id')).toMatch(/^req-/);
    const items = [];
    for await (const v of client.videos.list()) items.push(v);
    expect(items).toHaveLength(1);
  });

  it('.asResponse() gives the Response with its body unread', async () => {
    const srv = await api();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const res = await client.videos.get(VIDEO_ID).asResponse();
    expect(res.bodyUsed).toBe(false);
    expect((await res.json()).video_id).toBe(VIDEO_ID);
  });

  it('the Response handed out behaves as fetch’s: read once by any body method, its stream, a clone, its URL (its body was read within the attempt)', async () => {
    const srv = await api();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const get = () => client.videos.get(VIDEO_ID).asResponse();
    const res = await get();
    expect(res).toBeInstanceOf(Response);
    expect(res.url).toBe(`${srv.baseUrl}/videos/${VIDEO_ID}/`);
    const copy = res.clone();
    expect(JSON.parse(await res.text()).video_id).toBe(VIDEO_ID);
    expect(res.bodyUsed).toBe(true);
    await expect(res.json()).rejects.toThrow(TypeError);
    expect(() => res.clone()).toThrow(TypeError);
    expect((await copy.json()).video_id).toBe(VIDEO_ID);
    const streamed = await get();
    expect(JSON.parse(await new Response(streamed.body).text()).video_id).toBe(VIDEO_ID);
    expect(streamed.bodyUsed).toBe(true);
    const bytes = new Uint8Array(await (await get()).arrayBuffer());
    expect(JSON.parse(new TextDecoder().decode(bytes)).video_id).toBe(VIDEO_ID);
    expect((await (await get()).blob()).type).toMatch(/json/);
  });

  it('an error keeps status, headers and retryAfter (withResponse and asResponse reject with it)', async () => {
    const srv = await faultServer([err(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '7', 'x-request-id': 'req-e' })]);
    close = srv.close;
    const client = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      pacing: false,
      maxRetries: 0,
      clock: fakeClock(),
    });
    for (const p of [
      client.videos.get(VIDEO_ID).withResponse(),
      client.videos.get(VIDEO_ID).asResponse(),
      client.videos.list().withResponse(),
    ]) {
      const e = await p.catch((x) => x);
      expect(e).toBeInstanceOf(RateLimitError);
      expect(e).toMatchObject({ status: 429, retryAfter: '7', retryAfterMs: 7000 });
      expect(e.headers.get('x-request-id')).toBe('req-e');
    }
  });
});
