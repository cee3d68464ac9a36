// @module-tag node-versions
// The pacing proxy in front of a target whose answer bodies never end, and in front of
// many keys. Before, one such body held its key's pacing slot forever: every later request of the key
// waited until --max-wait and was answered PROXY_WAIT_CEILING_EXCEEDED without being sent, even after
// the first caller had left; and every key ever seen stayed in memory, each one making the redaction of
// every later text slower. The target is a real node:http server this test starts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROXY_HEADER, startPacingProxy } from '../src/proxy/index.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const VIDEO = '7f1e0000-0000-4000-8000-000000000001';
const STATUS = `/videos/${VIDEO}/`;

/**
 * A target whose status view of VIDEO (`drip`) or list (`dripList`) sends headers and then a byte a
 * second for as long as the connection lasts; every other answer is a small JSON echoing the caller's
 * Authorization header (a target that leaks the key into its body). Counts requests and drips closed.
 */
async function hostileTarget(o: { drip?: boolean; dripList?: boolean } = {}) {
  const seen: string[] = [];
  let dripsClosed = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    seen.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '').replace(/^\/v1/, '').split('?')[0];
    if ((o.drip && path === STATUS) || (o.dripList && path === '/videos/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"video_id": ');
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => {
        clearInterval(timer);
        dripsClosed++;
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        results: [],
        has_next: false,
        total_count: 0,
        page: 1,
        items_per_page: 50,
        echo: req.headers.authorization,
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    dripsClosed: () => dripsClosed,
  };
}

async function proxyTo(base: string, options: Partial<Parameters<typeof startPacingProxy>[0]> = {}) {
  // Pacing intervals of a target 100 times faster than real time: the key's queue, not the pacing, is what is tested.
  const p = await startPacingProxy({ target: base, timeScale: 100, maxWaitMs: 20_000, ...options });
  closers.unshift(() => p.close());
  return p;
}

const KEY = { authorization: 'Bearer hostile-target-key-0001' };

describe('an answer body that never ends', () => {
  it('times out (--body-timeout) and frees the key’s queue: a later request of the key is sent and answered', async () => {
    const t = await hostileTarget({ drip: true });
    const p = await proxyTo(t.base, { bodyTimeoutMs: 1000 });
    const stalled = fetch(`${p.url}${STATUS}`, { headers: KEY }).then(async (r) => ({
      status: r.status,
      own: r.headers.get(PROXY_HEADER),
      body: (await r.json()) as { error: string },
    }));
    // Sent once the first attempt is at the target: it waits for the key's slot, then goes.
    while (!t.seen.length) await new Promise((r) => setTimeout(r, 20));
    const later = await fetch(`${p.url}/videos/`, { headers: KEY });
    expect(later.status).toBe(200);
    expect(later.headers.get(PROXY_HEADER)).toBeNull();
    expect(t.seen).toContain('GET /v1/videos/');
    const first = await stalled;
    // A GET whose body stalled is sent again (x-retry-policy), then answered by the proxy.
    expect(first).toMatchObject({ status: 504, own: 'PROXY_TARGET_TIMEOUT' });
    expect(first.body.error).toMatch(/did not arrive whole .*stalled: less than 1024 bytes in 1 s/);
    expect(t.seen.filter((s) => s === `GET /v1${STATUS}`).length).toBe(4);
    expect(p.stats().upstream.failed).toBe(4);
  });

  it('a caller that leaves frees its place at once: the target’s answer is dropped, the next request goes', async () => {
    const t = await hostileTarget({ drip: true });
    // The default body deadlines (30 s, 60 s): only the caller leaving can end this attempt early.
    const p = await proxyTo(t.base);
    const ac = new AbortController();
    const gone = fetch(`${p.url}${STATUS}`, { headers: KEY, signal: ac.signal }).catch((e) => e);
    while (!t.seen.length) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    await gone;
    const later = await fetch(`${p.url}/videos/`, { headers: KEY });
    expect(later.status).toBe(200);
    expect(later.headers.get(PROXY_HEADER)).toBeNull();
    expect(t.seen).toEqual([`GET /v1${STATUS}`, 'GET /v1/videos/']);
    expect(t.dripsClosed()).toBe(1);
    expect(p.stats()).toMatchObject({ left: 1, abandoned: 0 });
  });

  it('a passed-through body that stalls is cut off: the caller’s read ends instead of hanging', async () => {
    const t = await hostileTarget({ dripList: true });
    const p = await proxyTo(t.base, { bodyTimeoutMs: 1000 });
    const res = await fetch(`${p.url}/videos/`, { headers: KEY });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    // The proxy closed its connection to the target too (seen by the target a moment later).
    while (t.dripsClosed() < 1) await new Promise((r) => setTimeout(r, 20));
    const again = await fetch(`${p.url}${STATUS}`, { headers: KEY });
    expect(again.status).toBe(200);
  });
});

describe('per-key state is bounded', () => {
  it('beyond maxKeys the least recently seen idle keys are forgotten, their schedules too; every key stays redacted', async () => {
    const t = await hostileTarget();
    const har = `${process.env.TMPDIR ?? '/tmp'}/proxy-keys-${process.pid}-${Date.now()}.har`;
    const lines: string[] = [];
    const p = await proxyTo(t.base, { maxKeys: 20, harFile: har, log: (l) => lines.push(l), timeScale: 1000 });
    const keys = Array.from({ length: 120 }, (_, i) => `sk-made-up-key-${String(i).padStart(4, '0')}-x`);
    for (let i = 0; i < keys.length; i += 4)
      await Promise.all(
        keys.slice(i, i + 4).map(async (key) => {
          const r = await fetch(`${p.url}/videos/`, { headers: { authorization: `Bearer ${key}` } });
          expect(r.status).toBe(200);
          await r.arrayBuffer();
        }),
      );
    const { keys: held } = p.stats();
    expect(held.held).toBeLessThanOrEqual(20);
    expect(held.forgotten).toBeGreaterThanOrEqual(100);
    expect(held.pacedAccounts).toBeLessThanOrEqual(20 + 4);
    expect(p.fingerprints().length).toBe(held.held);
    // The target echoed each key in its body: none reached the HAR or the log.
    const text = JSON.stringify(p.har()) + lines.join('\n');
    expect(p.har()!.log.entries).toHaveLength(120);
    for (const key of keys) expect(text).not.toContain(key);
  });

  it('a key not seen for keyIdleMs is forgotten at the next request', async () => {
    const t = await hostileTarget();
    // Idle long enough that three requests in a row all count as seen on a loaded machine (at 300 ms, the
    // first key was forgotten before the third was sent at load 24).
    const p = await proxyTo(t.base, { keyIdleMs: 2000 });
    for (const n of [1, 2, 3])
      await (await fetch(`${p.url}/videos/`, { headers: { authorization: `Bearer idle-key-${n}-abcdef` } })).text();
    expect(p.stats().keys.held).toBe(3);
    await new Promise((r) => setTimeout(r, 2100));
    await (await fetch(`${p.url}/videos/`, { headers: { authorization: 'Bearer fresh-key-abcdef' } })).text();
    expect(p.stats().keys).toMatchObject({ held: 1, forgotten: 3 });
  });
});
