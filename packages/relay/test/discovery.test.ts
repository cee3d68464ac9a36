// Videos nobody announced, found by listing whatever the list's order (the interface does not say, 4.2):
// newest first (the sandbox's default personality), oldest first (its alternative), and an order no page
// can tell (a proxy here shuffles each page), with more than a page of videos. What each listing costs is
// read from the relay's own "listed pages" lines: where the order allows, the pages that hold new
// videos; where it does not, at most maxListPages.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Clock } from '@videogen/client';
import { sleep } from '@videogen/openapi/rules';
import { FIXTURES, type RunningSandbox, SANDBOX_KEYS } from '@videogen/sandbox';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createRelay, orderOf, type RelayLogRecord } from '../src/index.js';
import { fastSandbox, payloadOf, type Receiver, SECRET, startReceiver, tempDir, until } from './helpers.js';

const key = SANDBOX_KEYS.acme;
const text = FIXTURES.acme.settings.text;
const dir = tempDir('discovery');

/**
 * A clock `scale` times faster than real time, for a sandbox that does not say its time scale (the
 * alternative personality sends no RateLimit-Policy): the relay's pacer then spaces at the sandbox's pace.
 */
const scaled = (scale: number): Clock => {
  const start = Date.now();
  return {
    now: () => start + (Date.now() - start) * scale,
    sleep: (ms, signal) => sleep(ms / scale, signal),
  };
};

/** Makes `n` videos nobody announces, as curl would (a 429 or a 503 sent again a moment later). */
async function make(baseUrl: string, n: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < n) {
    const form = new FormData();
    form.set('video_setting_id', text);
    form.set('text', `${label} ${ids.length}`);
    const res = await fetch(`${baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const body = (await res.json()) as { video_id?: string };
    if (res.ok && body.video_id) ids.push(body.video_id);
    else if (res.status === 429 || res.status === 503) await sleep(3);
    else throw new Error(`generate: ${res.status} ${JSON.stringify(body)}`);
  }
  return ids;
}

/** A relay that lists often; `lines` collects its "listed pages" records. */
async function relay(name: string, baseUrl: string, receiver: Receiver, lines: RelayLogRecord[], clock?: Clock) {
  const r = await createRelay({
    ...(clock && { client: { clock } }),
    forwardTo: `${receiver.url}/${name}`,
    secret: SECRET,
    apiKey: key,
    baseUrl,
    stateFile: join(dir, `${name}.json`),
    pollIntervalMs: 50,
    listIntervalMs: 150,
    backfillMs: 0,
    logLevel: 'debug',
    logger: (l) => {
      if (l.msg.startsWith('listed pages')) lines.push(l);
    },
  });
  // Stopped when its test ends: the next test's relays do not compete with it.
  onTestFinished(() => r.stop());
  return r;
}

async function setup(options: Parameters<typeof fastSandbox>[0] = {}) {
  // 1000× faster, 1-second generations: class A one per 5 ms, a video done in 1 ms.
  const sb = await fastSandbox({ timeScale: 1000, generationSeconds: 1, ...options });
  const receiver = await startReceiver();
  onTestFinished(async () => {
    await receiver.close();
    await sb.close();
  });
  return { sb, receiver };
}

const delivered = (receiver: Receiver, name: string) =>
  new Set(receiver.deliveries.filter((d) => d.path === `/${name}`).map((d) => payloadOf(d).data.video_id));

describe('discovery by listing', () => {
  it('reads the order from created_at, and says when a page cannot tell', () => {
    const at = (...minutes: number[]) =>
      minutes.map((m, i) => ({
        video_id: `v${i}`,
        prompt: '',
        created_at: new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString(),
      }));
    expect(orderOf(at(3, 2, 2, 1))).toBe('newest-first');
    expect(orderOf(at(1, 2, 2, 3))).toBe('oldest-first');
    expect(orderOf(at(1, 3, 2))).toBe('unknown');
    expect(orderOf(at(1, 1))).toBeUndefined();
    expect(orderOf([])).toBeUndefined();
  });

  it('newest first: page 1 while it holds the new videos, the next pages when they fill it', async () => {
    const { sb, receiver } = await setup();
    await make(sb.baseUrl, 52, 'before');
    const lines: RelayLogRecord[] = [];
    const r = await relay('newest', sb.baseUrl, receiver, lines);
    await until(() => lines.length > 0, 'a first listing');
    const few = await make(sb.baseUrl, 3, 'few');
    await until(() => few.every((id) => delivered(receiver, 'newest').has(id)), 'the three new videos');
    // 52 older videos on two pages: no listing read past page 1.
    expect(new Set(lines.flatMap((l) => l.pages as number[]))).toEqual(new Set([1]));
    expect(lines.every((l) => l.order === 'newest-first')).toBe(true);
    // More new videos than a page holds, made while the relay was stopped: it reads on to find them all.
    await r.stop();
    const many = await make(sb.baseUrl, 53, 'many');
    lines.length = 0;
    const again = await relay('newest', sb.baseUrl, receiver, lines);
    await until(() => lines.length > 0, 'the listing after the restart');
    // Its first listing read both pages and took every one of the 53 into its watch.
    expect(lines[0]?.pages).toEqual([1, 2]);
    expect(lines[0]?.found).toBe(53);
    const { store } = await again.status();
    expect(store.records + store.done).toBeGreaterThanOrEqual(53);
  });

  it('oldest first: page 1 and the last pages, where the new videos are', async () => {
    const { sb, receiver } = await setup({ personality: 'alternative' });
    const clock = scaled(1000);
    await make(sb.baseUrl, 100, 'before');
    // This personality's created_at is given to the second: the relay's epoch a second later tells them apart.
    await sleep(1_000);
    const lines: RelayLogRecord[] = [];
    await relay('oldest', sb.baseUrl, receiver, lines, clock);
    await until(() => lines.length > 0, 'a first listing');
    const few = await make(sb.baseUrl, 3, 'few');
    await until(() => few.every((id) => delivered(receiver, 'oldest').has(id)), 'the three new videos');
    // 107 videos (100, the 7 seeded, then 3): pages 1 and 3 (the last); never page 2, between them.
    expect(lines.every((l) => l.order === 'oldest-first')).toBe(true);
    const pages = new Set(lines.flatMap((l) => l.pages as number[]));
    expect(pages.has(2)).toBe(false);
    expect(pages.has(3)).toBe(true);
    expect(delivered(receiver, 'oldest').size).toBe(3);
  });

  it('an order no page tells: a sweep of at most maxListPages pages a listing finds the new videos', async () => {
    const { sb, receiver } = await setup();
    // A proxy that shuffles every list page (the same items, in an order that is neither).
    const proxy: Server = createServer(async (req, res) => {
      const upstream = await fetch(`${sb.origin}${req.url}`, {
        method: req.method,
        headers: { authorization: req.headers.authorization ?? '' },
      });
      let body = Buffer.from(await upstream.arrayBuffer());
      if (req.method === 'GET' && /^\/v1\/videos\/(\?|$)/.test(req.url ?? '') && upstream.ok) {
        const page = JSON.parse(body.toString()) as { results: unknown[] };
        const r = page.results;
        for (let i = 0; i + 2 < r.length; i += 3) [r[i], r[i + 2]] = [r[i + 2], r[i]];
        body = Buffer.from(JSON.stringify(page));
      }
      const headers: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding') headers[k] = v;
      });
      res.writeHead(upstream.status, headers).end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    onTestFinished(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const address = proxy.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
    // The videos are made on the sandbox itself; the relay lists them through the proxy.
    await make(sb.baseUrl, 150, 'before');
    const lines: RelayLogRecord[] = [];
    await relay('shuffled', baseUrl, receiver, lines);
    await until(() => lines.some((l) => l.order === 'unknown'), 'a listing that cannot tell the order');
    const few = await make(sb.baseUrl, 3, 'few');
    await until(() => few.every((id) => delivered(receiver, 'shuffled').has(id)), 'the three new videos', 60_000);
    expect(lines.every((l) => (l.pages as number[]).length <= 3)).toBe(true);
    expect(delivered(receiver, 'shuffled').size).toBe(3);
  });
});
