import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { realClock } from '../src/clock.js';
import { err, fakeClock, faultServer, json, video, VIDEO_ID, type Seen, type Step } from './helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});
let n = 0;
const account = () => `pacer-test-${n++}`;
const ids = Array.from({ length: 9 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);

/** A server that enforces a sliding window on the fake clock, like the service: 429 beyond the limit. */
function limited(
  clock: { now(): number },
  limit: number,
  windowMs: number,
  headers: (left: number) => Record<string, string> = () => ({}),
  // The status view of the video asked for (GET /v1/videos/{id}/).
  answer: (s: Seen) => Step = (s) => json(200, video('running', { video_id: s.url.split('/')[3] })),
) {
  const log: number[] = [];
  const times: number[] = [];
  return {
    times,
    step: (s: Seen): Step => {
      const now = clock.now();
      while (log.length && log[0] + windowMs <= now) log.shift();
      if (log.length >= limit) return err(429, 'RATE_LIMIT_EXCEEDED');
      log.push(now);
      times.push(now);
      const h = headers(limit - log.length);
      const a = answer(s);
      return (req, res, seen) => {
        for (const [k, v] of Object.entries(h)) res.setHeader(k, v);
        a(req, res, seen);
      };
    },
  };
}

describe('per-account pacing', () => {
  it('keeps class B under 5 per 10 s with no header to go by: zero 429', async () => {
    const clock = fakeClock();
    const lim = limited(clock, 5, 10_000);
    const srv = await faultServer((s) => lim.step(s));
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    await Promise.all(Array.from({ length: 12 }, () => client.videos.get(ids[1])));
    expect(srv.seen).toHaveLength(12); // no 429 was met, so nothing was re-sent
    expect(lim.times.length).toBe(12);
    for (let i = 5; i < 12; i++) expect(lim.times[i] - lim.times[i - 5]).toBeGreaterThanOrEqual(10_000);
  });

  it('follows RateLimit-Policy (a scaled window) and RateLimit-Remaining/Reset', async () => {
    const clock = fakeClock();
    const lim = limited(clock, 5, 100, (left) => ({
      'ratelimit-policy': '5;w=0.1',
      'ratelimit-remaining': String(left),
      'ratelimit-reset': left ? '0' : '0.1',
    }));
    const srv = await faultServer((s) => lim.step(s));
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    for (let i = 0; i < 11; i++) await client.videos.get(ids[1]);
    expect(srv.seen).toHaveLength(11);
    // Paced at the server's 100 ms window, not the spec's 10 s.
    expect(lim.times[10] - lim.times[0]).toBeLessThan(1_000);
    expect(lim.times[10] - lim.times[0]).toBeGreaterThanOrEqual(200);
  });

  it('blocks the class until RateLimit-Reset when the server says none remain (other processes)', async () => {
    const clock = fakeClock();
    const srv = await faultServer([
      json(200, video('running'), { 'ratelimit-remaining': '0', 'ratelimit-reset': '3' }),
      json(200, video('running')),
    ]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    await client.videos.get(VIDEO_ID);
    await client.videos.get(VIDEO_ID);
    expect(clock.sleeps).toEqual([3000]);
  });

  it('a 429 INSUFFICIENT_CREDIT (no Retry-After) does not pause class A; a rate-limit 429 does (DECISIONS 27)', async () => {
    const clock = fakeClock();
    const srv = await faultServer([
      err(429, 'INSUFFICIENT_CREDIT'),
      err(429, 'INSUFFICIENT_CREDIT'),
      err(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '7' }),
      json(200, { video_id: ids[1] }),
    ]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    const gen = () =>
      client.videos.generate({ video_setting_id: ids[0], text: 'x' }, { setting: { request_fields: ['text'] } });
    await expect(gen()).rejects.toMatchObject({ kind: 'insufficient_credit' });
    await expect(gen()).rejects.toMatchObject({ kind: 'insufficient_credit' });
    // Only the even spacing of class A (one per 5 s, plus the margin) separated them: no pause.
    expect(clock.sleeps).toEqual([5051]);
    clock.t += 10_000;
    clock.sleeps.length = 0;
    // The rate-limit 429 makes the class wait at least its Retry-After before the retry (and widens
    // the class's spacing for the rest of the run: 1.5 × 5051 here, longer than the 7 s).
    await expect(gen()).resolves.toEqual({ video_id: ids[1] });
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(7000);
  });

  it('class A: 2 per 10 s, and at most 2 running videos until the status shows them finished', async () => {
    const clock = fakeClock();
    let created = 0;
    const done = new Set<string>();
    const srv = await faultServer((s) => {
      if (s.method === 'POST') {
        const id = ids[++created];
        return json(200, { video_id: id });
      }
      const id = s.url.split('/')[3];
      // A video is seen finished the second time its status is read.
      const finished = done.has(id);
      done.add(id);
      return json(200, video(finished ? 'completed' : 'running', { video_id: id }));
    });
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    const gen = () =>
      client.videos.generate({ video_setting_id: ids[0], text: 'x' }, { setting: { request_fields: ['text'] } });
    await gen();
    await gen();
    await gen(); // the pacer reads the oldest video's status until it is no longer running
    const order = srv.seen.map((s) => (s.method === 'POST' ? 'POST' : `GET ${s.url.split('/')[3].slice(-1)}`));
    expect(order).toEqual(['POST', 'POST', 'GET 1', 'GET 1', 'POST']);
    // class A: the third generation also waited for the 10 s window
    expect(clock.t - 1_000_000).toBeGreaterThanOrEqual(10_000);
  });

  it('waitForVideo frees the slot of a finished video', async () => {
    const clock = fakeClock();
    let created = 0;
    const srv = await faultServer((s) =>
      s.method === 'POST'
        ? json(200, { video_id: ids[++created] })
        : json(200, video('completed', { video_id: s.url.split('/')[3] })),
    );
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    const o = { setting: { request_fields: ['text' as const] }, intervalMs: 1 };
    for (let i = 0; i < 4; i++) await client.generateAndWait({ video_setting_id: ids[0], text: 'x' }, o);
    expect(srv.seen.map((s) => s.method)).toEqual(['POST', 'GET', 'POST', 'GET', 'POST', 'GET', 'POST', 'GET']);
  });

  it('a 503 teaches the scheduler that the account is full', async () => {
    const clock = fakeClock();
    const srv = await faultServer([
      err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': '45' }),
      json(200, { video_id: ids[1] }),
    ]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, account: account() });
    await client.videos.generate({ video_setting_id: ids[0], text: 'x' }, { setting: { request_fields: ['text'] } });
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(45_000);
    expect(srv.seen).toHaveLength(2);
  });

  it('clients with the same key, or the same account option, share one scheduler', async () => {
    const clock = fakeClock();
    const lim = limited(clock, 5, 10_000);
    const srv = await faultServer((s) => lim.step(s));
    close = srv.close;
    const acct = account();
    const a = createClient({ apiKey: 'key-1', baseUrl: srv.baseUrl, clock, account: acct });
    const b = createClient({ apiKey: 'key-2', baseUrl: srv.baseUrl, clock, account: acct });
    const key = `same-key-${n++}`;
    const c = createClient({ apiKey: key, baseUrl: srv.baseUrl, clock });
    const d = createClient({ apiKey: key, baseUrl: srv.baseUrl, clock });
    await Promise.all([...[a, b, a, b, a, b, a].map((x) => x.videos.get(ids[1]))]);
    expect(srv.seen).toHaveLength(7);
    await Promise.all([c, d, c, d, c, d, c].map((x) => x.videos.get(ids[1])));
    expect(srv.seen).toHaveLength(14 + 0);
  });

  it('a client with another clock gets its own scheduler (a schedule is kept in one time line)', async () => {
    // Two sandboxes one after the other on a reused port: the same base URL and key, each its own clock.
    const srv = await faultServer(() => json(200, video('running')));
    close = srv.close;
    const key = `two-clocks-${n++}`;
    const first = fakeClock(1_000_000);
    const second = fakeClock(9_000_000);
    const a = createClient({ apiKey: key, baseUrl: srv.baseUrl, clock: first });
    for (let i = 0; i < 5; i++) await a.videos.get(VIDEO_ID);
    const waitedBefore = first.sleeps.length;
    const b = createClient({ apiKey: key, baseUrl: srv.baseUrl, clock: second });
    await b.videos.get(VIDEO_ID);
    expect(second.sleeps).toEqual([]);
    expect(first.sleeps).toHaveLength(waitedBefore);
    expect(srv.seen).toHaveLength(6);
  });

  it('pacing: false sends at once (and meets the 429s)', async () => {
    const clock = fakeClock();
    const lim = limited(clock, 5, 10_000);
    const srv = await faultServer((s) => lim.step(s));
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, pacing: false });
    await Promise.all(Array.from({ length: 7 }, () => client.videos.get(ids[1])));
    expect(srv.seen.length).toBeGreaterThan(7);
  });
});

describe('waits beyond the ceiling fail instead of overflowing the timer', () => {
  it('with pacing: a 429 with Retry-After 3000000 s fails at once with a typed error carrying the Retry-After', async () => {
    const srv = await faultServer([
      err(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '3000000' }),
      json(200, video('running')),
    ]);
    close = srv.close;
    // Real time (the real clock's sleep, watched): an overflowing timer would fire after 1 ms and spin or re-send.
    const waits: number[] = [];
    const clock = {
      now: realClock.now,
      sleep: (ms: number, signal?: AbortSignal) => (waits.push(ms), realClock.sleep(ms, signal)),
    };
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, account: account(), clock });
    const e = await client.videos.get(ids[1]).catch((x) => x);
    expect(e).toMatchObject({ kind: 'rate_limit', status: 429, retryAfter: '3000000', retryAfterMs: 3_000_000_000 });
    expect(srv.seen).toHaveLength(1);
    // The next call does not wait days either: the pacer refuses the wait with the same Retry-After.
    const e2 = await client.videos.get(ids[1]).catch((x) => x);
    // The same header reports the same value on both errors (it was 3e9 ms, then the capped 3.6e6 ms).
    expect(e2).toMatchObject({ kind: 'rate_limit', retryAfter: '3000000', retryAfterMs: 3_000_000_000 });
    expect(srv.seen).toHaveLength(1);
    // Both failed at once: neither call began a wait.
    expect(waits).toEqual([]);
  });

  it('without pacing: a 503 with Retry-After 3000000 s is not re-sent (it was 4 POSTs in 9 ms)', async () => {
    const srv = await faultServer([
      err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': '3000000' }),
      json(200, { video_id: ids[1] }),
    ]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const e = await client.videos
      .generate({ video_setting_id: ids[0], text: 'x' }, { setting: { request_fields: ['text'] } })
      .catch((x) => x);
    expect(e).toMatchObject({ kind: 'concurrency', status: 503, retryAfter: '3000000', retryAfterMs: 3_000_000_000 });
    expect(e.headers.get('retry-after')).toBe('3000000');
    expect(srv.seen).toHaveLength(1);
  });

  it('a far-future HTTP date is refused the same way', async () => {
    const date = new Date(Date.now() + 40 * 86_400_000).toUTCString();
    const srv = await faultServer([
      err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': date }),
      json(200, { video_id: ids[1] }),
    ]);
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false });
    const e = await client.videos
      .generate({ video_setting_id: ids[0], text: 'x' }, { setting: { request_fields: ['text'] } })
      .catch((x) => x);
    expect(e).toMatchObject({ kind: 'concurrency', retryAfter: date });
    expect(e.retryAfterMs).toBeGreaterThan(2 ** 31);
    expect(srv.seen).toHaveLength(1);
  });
});
