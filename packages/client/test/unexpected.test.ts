// An answer that breaks what the client relies on is a typed error naming what was
// wrong, never a SyntaxError, a silent `{}`, a wrong kind, or a loop without end. Real sockets.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, UnexpectedResponseError, VideoApiError } from '../src/index.js';
import { faultServer, json, video, VIDEO_ID, type Step } from './helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});
const html: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>gateway</body></html>');
};
const start = async (steps: Step[] | ((s: any, i: number) => Step)) => {
  const srv = await faultServer(steps);
  close = srv.close;
  return { srv, client: createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false }) };
};
const setting = { setting: { request_fields: ['text' as const] } };

describe('answers the client cannot rely on', () => {
  it('a redirect answering an upload is an error after one POST: it is not followed, and the body is not held for it', async () => {
    const redirect: Step = (_req, res) => {
      res.writeHead(307, { location: '/elsewhere/' }).end();
    };
    const empty = json(200, { results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 });
    const { srv, client } = await start((s) => (s.method === 'POST' ? redirect : empty));
    const e = await client.videos.generate({ video_setting_id: VIDEO_ID, text: 'x' }, setting).catch((x) => x);
    expect(e).toBeInstanceOf(VideoApiError);
    expect(e.message).toMatch(/redirect/);
    expect(srv.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
    expect(srv.seen.some((s) => s.url.includes('elsewhere'))).toBe(false);
  });

  it('an HTML page on a 200 is an UnexpectedResponseError, not a SyntaxError', async () => {
    const { client } = await start([html]);
    const e = await client.videos.get(VIDEO_ID).catch((x) => x);
    expect(e).toBeInstanceOf(UnexpectedResponseError);
    expect(e).toBeInstanceOf(VideoApiError);
    expect(e).toMatchObject({ kind: 'unexpected_response' });
    expect(e.message).toMatch(/not JSON/);
  });

  it('a generate answered with {} (no video_id) is an error naming the missing video_id', async () => {
    const { client } = await start([json(200, {})]);
    const e = await client.videos.generate({ video_setting_id: VIDEO_ID, text: 'x' }, setting).catch((x) => x);
    expect(e).toMatchObject({ kind: 'unexpected_response' });
    expect(e.message).toMatch(/video_id/);
  });

  it('a status the interface does not list is not reported as expired', async () => {
    const { client } = await start([json(200, video('queued'))]);
    const e = await client.waitForVideo(VIDEO_ID, { intervalMs: 1 }).catch((x) => x);
    expect(e).toMatchObject({ kind: 'unexpected_response' });
    expect(e.message).toMatch(/unknown status "queued"/);
  });

  it('pagination with has_next forever (the same page again) stops with an error', async () => {
    const item = { video_id: VIDEO_ID, created_at: '2026-01-01T00:00:00Z', prompt: 'p' };
    const { client, srv } = await start(() =>
      json(200, { results: [item], has_next: true, total_count: 100, page: 1, items_per_page: 50 }),
    );
    const seen: unknown[] = [];
    const e = await (async () => {
      for await (const v of client.videos.list()) seen.push(v);
    })().catch((x) => x);
    expect(e).toMatchObject({ kind: 'unexpected_response' });
    expect(e.message).toMatch(/answered page 1/);
    expect(srv.seen.length).toBeLessThanOrEqual(2);
  });

  it('pagination whose pages advance but never end stops once total_count is reached', async () => {
    const { client, srv } = await start((_s, i) =>
      json(200, {
        results: [{ video_id: VIDEO_ID, created_at: '2026-01-01T00:00:00Z', prompt: `p${i}` }],
        has_next: true,
        total_count: 3,
        page: i + 1,
        items_per_page: 50,
      }),
    );
    const e = await (async () => {
      for await (const _ of client.videos.list());
    })().catch((x) => x);
    expect(e).toMatchObject({ kind: 'unexpected_response' });
    expect(e.message).toMatch(/total_count 3/);
    expect(srv.seen).toHaveLength(3);
  });

  it('a page that repeats the previous one stops with an error', async () => {
    const item = { video_id: VIDEO_ID, created_at: '2026-01-01T00:00:00Z', prompt: 'p' };
    const { client } = await start((_s, i) =>
      json(200, { results: [item], has_next: true, total_count: 1000, page: i + 1, items_per_page: 50 }),
    );
    const e = await (async () => {
      for await (const _ of client.videos.list());
    })().catch((x) => x);
    expect(e.message).toMatch(/repeats page 1/);
  });

  it('errors raised inside the client carry a human `error` too', async () => {
    const { client } = await start([json(200, {})]);
    const e = await client
      .convert(VIDEO_ID, {} as never, { conversionOptions: { is_convertible: true } as never })
      .catch((x) => x);
    expect(e).toBeInstanceOf(VideoApiError);
    expect(typeof e.error).toBe('string');
    expect(e.error.length).toBeGreaterThan(0);
  });
});
