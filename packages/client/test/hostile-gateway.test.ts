// At most once for every POST, against a real gateway this test starts
// in front of a real sandbox: the gateway passes a create to the sandbox, which makes the video, and then
// answers 502 (or drops the connection) instead of the sandbox's answer. The count of videos is read from
// the sandbox itself, not through the client. Every Response the client hands out is one a server sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURES, type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';

const KEY = SANDBOX_KEYS.acme;
const SETTING = FIXTURES.acme.settings.text;
const SOURCE = FIXTURES.acme.videos.convertible;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Trick = '502-after-work' | 'drop-after-work';

/**
 * A gateway in front of `upstream`: every request is forwarded; the first POST that `hit` selects is
 * forwarded too (the service does the work), but the caller gets the trick instead of the answer.
 */
async function gateway(upstream: string, trick: Trick, hit: (path: string) => boolean) {
  let tricked = 0;
  const posts: string[] = [];
  const hop = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !hop.includes(k))) as Record<
      string,
      string
    >;
    const up = await fetch(upstream + req.url, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    const body = Buffer.from(await up.arrayBuffer());
    if (req.method === 'POST') posts.push(`${req.url} → ${up.status}`);
    if (req.method === 'POST' && up.ok && hit(req.url ?? '') && tricked++ === 0) {
      if (trick === 'drop-after-work') return void req.socket.destroy();
      res.writeHead(502, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error_code: 'BAD_GATEWAY', error: 'The upstream did not answer in time.' }));
    }
    res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.unshift(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, posts };
}

async function setup(trick: Trick, hit: (path: string) => boolean) {
  // No rate limits: this test reads the sandbox's list directly, unpaced, between the client's requests.
  const sb: RunningSandbox = await startSandbox({
    port: 0,
    timeScale: 100,
    validateResponses: true,
    rateLimits: false,
  });
  closers.push(() => sb.close());
  const gw = await gateway(sb.origin, trick, hit);
  const client = createClient({ apiKey: KEY, baseUrl: gw.baseUrl, clock: sb.clock, account: `gw-${Math.random()}` });
  /** The sandbox's own list of the account's videos, read directly (not through the gateway or the client). */
  const videos = async () => {
    const res = await fetch(`${sb.baseUrl}/videos/?page=1`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as { total_count: number; results: Array<{ video_id: string; prompt: string }> };
  };
  return { sb, gw, client, videos };
}

const isConversion = (path: string) => /\/conversions\/$/.test(path);
const isGenerate = (path: string) => path.endsWith('/videos/generate/');

describe('client.api behind a gateway that answers 502 after the service converted the video', () => {
  it('POST /videos/{video_id}/conversions/ creates 1 video, not 2, and hands over the gateway’s own 502', async () => {
    const { client, videos, gw } = await setup('502-after-work', isConversion);
    const before = (await videos()).total_count;
    const { data, error, response } = await client.api.POST('/videos/{video_id}/conversions/', {
      params: { path: { video_id: SOURCE } },
      body: { aspect_ratio: '9:16' },
    });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ error_code: 'BAD_GATEWAY' });
    // The response is the one the gateway sent, untouched: no header of the client's own.
    expect(response.status).toBe(502);
    expect([...response.headers.keys()].filter((k) => k.startsWith('x-videogen'))).toEqual([]);
    expect((await videos()).total_count).toBe(before + 1);
    expect(gw.posts).toHaveLength(1);
  });

  it('client.convert in the same place: 1 video, and a typed error that says it was not re-sent', async () => {
    const { client, videos } = await setup('502-after-work', isConversion);
    const before = (await videos()).total_count;
    const e = await client.convert(SOURCE, { aspect_ratio: '9:16' }).catch((x) => x);
    expect(e).toMatchObject({ kind: 'server', status: 502, notResent: true });
    expect(e.message).toMatch(/not re-sent/);
    expect(e.headers.get('x-videogen-not-resent')).toBeNull();
    expect((await videos()).total_count).toBe(before + 1);
  });
});

describe('client.videos.generate behind the same gateway: the video found instead of a second one', () => {
  for (const trick of ['502-after-work', 'drop-after-work'] as const) {
    it(`${trick}: the generation is recovered from the list; withResponse() gives the list page that showed it`, async () => {
      const { client, videos, gw } = await setup(trick, isGenerate);
      const text = `hostile gateway ${trick} ${Math.random()}`;
      const { data, response, recovered } = await client.videos
        .generate({ video_setting_id: SETTING, text }, { setting: { request_fields: ['text'] } })
        .withResponse();
      const mine = (await videos()).results.filter((v) => v.prompt === text);
      expect(mine).toHaveLength(1);
      expect(data).toEqual({ video_id: mine[0].video_id });
      expect(recovered).toEqual({
        created: { video_id: mine[0].video_id },
        after: trick === '502-after-work' ? { status: 502 } : { failure: 'dropped' },
      });
      // A response the service sent (the list page), never one made up by the client.
      expect(response.status).toBe(200);
      expect(new URL(response.url).pathname).toBe('/v1/videos/');
      expect([...response.headers.keys()].filter((k) => k.startsWith('x-videogen'))).toEqual([]);
      expect(gw.posts).toHaveLength(1);
    });
  }
});
