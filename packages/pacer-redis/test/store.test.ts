// @module-tag full/tools
// The Redis store alone, two stores as two processes would hold them, against a real redis-server.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, MAX_RUNNING, Pacer, RATE_LIMITS, REDACTED } from '@videogen/openapi/rules';
import { createRedisPacerStore, redactRedisUrl, redisUrlProblem } from '../src/index.js';
import { startRedis } from './redis-server.mjs';

let redis: Awaited<ReturnType<typeof startRedis>>;
let raw: Redis;
beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.stop();
});

/** Two processes' pacers of one account at time scale 100 (class B: 20 ms apart). */
function twoPacers(prefix: string) {
  const stores = [0, 1].map(() => createRedisPacerStore({ url: redis.url, prefix }));
  const pacers = stores.map((store) => new Pacer({ store, timeScale: 100 }));
  return { stores, pacers, close: () => Promise.all(pacers.map((p) => p.close())) };
}

describe('RedisPacerStore', () => {
  it('refuses a URL that is not redis://, rediss:// or redis-sentinel://, and never prints a password', () => {
    expect(redisUrlProblem('http://localhost:6379')).toMatch(/redis:\/\/, rediss:\/\/ \(TLS\) or redis-sentinel:\/\//);
    expect(redisUrlProblem('redis://localhost:6379/x')).toMatch(/database number/);
    expect(redisUrlProblem('rediss://u:p@h:6380/2')).toBeUndefined();
    expect(redisUrlProblem('redis-sentinel://h1:26379,h2/0#mymaster')).toBeUndefined();
    expect(redisUrlProblem('redis-sentinel://h1:26379/0')).toMatch(/names no primary: end it with #NAME/);
    expect(redisUrlProblem('redis-sentinel://h1:x/0#m')).toMatch(/names a Sentinel as "h1:x"/);
    expect(redactRedisUrl('rediss://user:s3cret@h:6380/2')).toBe(`rediss://${REDACTED}:${REDACTED}@h:6380/2`);
    expect(() => createRedisPacerStore('https://h')).toThrow(TypeError);
  });

  it("a password in the URL's query (ioredis reads ?password=) is used, and never printed", async () => {
    const secret = 's3cret-in-query';
    const own = await startRedis({ args: ['--requirepass', secret] });
    const lines: string[] = [];
    const store = createRedisPacerStore({
      url: `redis://127.0.0.1:${own.port}/0?password=${secret}`,
      timeoutMs: 200,
      log: (l, m) => lines.push(`${l} ${m}`),
    });
    const pacer = new Pacer({ store, timeScale: 100 });
    // Connected and shared: Redis took the password from the query.
    for (let i = 0; i < 200 && !store.shared; i++) await new Promise((r) => setTimeout(r, 25));
    expect(store.shared).toBe(true);
    await (await pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    expect(store.stats).toMatchObject({ outages: 0, sharedDecisions: 1 });
    await own.kill();
    await (await pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    const refused = await pacer.inspect('acct').catch((e: Error) => e.message);
    const printed = [...lines, refused, store.url].join('\n');
    expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(printed).toContain(`?password=${REDACTED}`);
    expect(printed).not.toContain(secret);
    await pacer.close();
    await own.stop();
  });

  it("one answer's RateLimit-Policy cannot hold the account's other processes for a day, and lapses unsaid", async () => {
    const { pacers, close } = twoPacers('t7');
    // One answer says one class-B request per 100,000 s (before: the other process failed, "waiting 1000 s").
    await (await pacers[0].acquire({ rateClass: 'B', account: 'acct' })).settle({
      status: 200,
      headers: { 'ratelimit-policy': '1;w=100000' },
    });
    const seen = await pacers[1].inspect('acct');
    // Read as at most an hour, with the rate it stated.
    expect(seen.classes.B.learned?.windowMs).toBe(MAX_RETRY_AFTER_MS);
    // Followed up to 4 times the interface's spacing (2 s: 80 ms at time scale 100), not beyond.
    const interval = pacers[1].intervalOf('B', 'acct');
    expect(interval).toBeLessThanOrEqual(((RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests) * 4 * 1.01) / 100 + 2);
    await (await pacers[1].acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    // The policy holds one window from the answer that said it: the hash says until when, and Redis's TTL
    // is not what keeps it (a settle renews the key, not the policy).
    const [cls] = await raw.keys('t7:*:B');
    const until = Number(await raw.hget(cls, 'learnedUntil'));
    const [seconds, micros] = await raw.time();
    expect(until - (Number(seconds) * 1000 + Math.floor(Number(micros) / 1000))).toBeLessThanOrEqual(
      MAX_RETRY_AFTER_MS,
    );
    await raw.hset(cls, 'learnedUntil', 0);
    expect((await pacers[1].inspect('acct')).classes.B.learned).toBeUndefined();
    await close();
  });

  it("keys an account's schedule by the whole SHA-256 of its name, in one hash tag (one cluster slot)", async () => {
    const { pacers, close } = twoPacers('t8');
    await (await pacers[0].acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    await close();
    const whole = createHash('sha256').update('acct').digest('hex');
    const keys = await raw.keys('t8:*');
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k.startsWith(`t8:{${whole}}:`), k).toBe(true);
  });

  it('spaces one class across processes: never two requests of the class closer than its interval', async () => {
    const { pacers, close } = twoPacers('t1');
    const sent: number[] = [];
    await Promise.all(
      pacers.map(async (p) => {
        for (let i = 0; i < 6; i++) {
          const t = await p.acquire({ rateClass: 'B', account: 'acct' });
          sent.push(performance.now());
          await t.settle({ status: 200 });
        }
      }),
    );
    await close();
    sent.sort((a, b) => a - b);
    const gaps = sent.slice(1).map((t, i) => t - sent[i]);
    // 20 ms per request at time scale 100 (margin included); timer slack only adds to it.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(19);
  });

  it('forgets an idle account (a pacing proxy meeting many keys stays bounded), never one it holds a place of', async () => {
    const store = createRedisPacerStore({ url: redis.url, prefix: 'tf' });
    const pacer = new Pacer({ store, timeScale: 100 });
    for (let i = 0; i < 50; i++)
      await (await pacer.acquire({ rateClass: 'B', account: `k${i}` })).settle({ status: 200 });
    expect(store.size).toBe(50);
    const held = await pacer.acquire({ rateClass: 'B', account: 'busy' });
    expect(pacer.forget('busy')).toBe(false);
    await held.settle({ status: 200 });
    let forgotten = 0;
    for (let i = 0; i < 50; i++) if (pacer.forget(`k${i}`)) forgotten++;
    expect(forgotten).toBe(50);
    expect(store.size).toBe(1);
    // What this process kept of them is gone: a forgotten account is paced again from Redis's schedule.
    const again = await pacer.acquire({ rateClass: 'B', account: 'k0' });
    await again.settle({ status: 200 });
    await pacer.close();
  });

  it('puts a TTL on every key it writes', async () => {
    const { pacers, stores, close } = twoPacers('t2');
    const start = await pacers[0].acquire({ rateClass: 'A', account: 'acct', startsVideo: true });
    await start.settle({ status: 429, headers: { 'retry-after': '1' } });
    const read = await pacers[1].acquire({ rateClass: 'B', account: 'acct', videoId: 'v1' });
    await read.settle({ status: 200, videoStatus: 'running' });
    await stores[1].noteRunning('acct', ['v2'], 60_000);
    await close();
    const keys = await raw.keys('t2:*');
    // The classes' schedules, the running videos, the processes pacing (places given back leave no key).
    expect(keys.map((k) => k.split(':').pop()).sort()).toEqual(['A', 'B', 'peers', 'run']);
    for (const k of keys) expect(await raw.pttl(k), k).toBeGreaterThan(0);
  });

  it('a 429 one process meets holds the class for the others', async () => {
    const { pacers, close } = twoPacers('t3');
    const t = await pacers[0].acquire({ rateClass: 'B', account: 'acct' });
    await t.settle({ status: 429, headers: { 'retry-after': '0.5' } });
    const before = performance.now();
    await (await pacers[1].acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    await close();
    expect(performance.now() - before).toBeGreaterThanOrEqual(450);
  });

  it(`holds starts to ${MAX_RUNNING} running across processes; a status read by either frees a slot`, async () => {
    const { pacers, close } = twoPacers('t4');
    for (let i = 0; i < MAX_RUNNING; i++)
      await (await pacers[i % 2].acquire({ rateClass: 'A', account: 'acct', startsVideo: true })).settle({
        status: 200,
        video_id: `v${i}`,
      });
    const checked: string[] = [];
    let third = false;
    const next = pacers[1]
      .acquire({
        rateClass: 'A',
        account: 'acct',
        startsVideo: true,
        checkRunning: async (id) => void checked.push(id),
      })
      .then((t) => ((third = true), t));
    await new Promise((r) => setTimeout(r, 300));
    expect(third).toBe(false);
    // The oldest running video, started by the other process, is the one it looks at.
    expect(checked[0]).toBe('v0');
    await (await pacers[0].acquire({ rateClass: 'B', account: 'acct', videoId: 'v0' })).settle({
      status: 200,
      videoStatus: 'completed',
    });
    await (await next).settle({ status: 200, video_id: 'v2' });
    await close();
    expect(third).toBe(true);
  });

  it("shows the account's shared schedule to any process (inspect), and reading it takes no place", async () => {
    const { pacers, close } = twoPacers('t6');
    const held = await pacers[0].acquire({ rateClass: 'A', account: 'acct', startsVideo: true });
    await (await pacers[0].acquire({ rateClass: 'B', account: 'acct' })).settle({
      status: 429,
      headers: { 'retry-after': '30', 'ratelimit-policy': '5;w=10' },
    });
    // The other process has decided nothing: what it reads is the account's, from Redis.
    const seen = await pacers[1].inspect('acct');
    expect(seen).toMatchObject({ scope: 'shared', startsInFlight: 1, running: [], fullForMs: 0, processes: 1 });
    expect(seen.classes.A.inFlight).toBe(1);
    expect(seen.classes.B).toMatchObject({ inFlight: 0, slowdown: 1.5, learned: { limit: 5, windowMs: 10_000 } });
    expect(seen.classes.B.blockedForMs).toBeGreaterThan(0);
    expect(seen.classes.B.lastAnswerAgoMs).toBeGreaterThanOrEqual(0);

    await held.settle({ status: 200, video_id: 'v1' });
    const after = await pacers[1].inspect('acct');
    expect(after.startsInFlight).toBe(0);
    expect(after.running.map((r) => r.videoId)).toEqual(['v1']);
    // The slot lapses at the polling limit of 4.7 (600 s; 6 s at time scale 100) unless seen finished.
    expect(after.running[0]?.lapsesInMs).toBeGreaterThan(5000);
    expect(after.running[0]?.lapsesInMs).toBeLessThanOrEqual(6000);
    // Inspecting registered no process and left no place behind.
    expect((await pacers[0].inspect('acct')).processes).toBe(1);
    const leases = await raw.keys('t6:*:lease');
    expect(await Promise.all(leases.map((k) => raw.zcard(k)))).toEqual(leases.map(() => 0));
    await close();
  });

  it("lists every process's held requests, and what each waits for, until it goes (videogen pacing's Waiting)", async () => {
    const { pacers, close } = twoPacers('t7');
    // Process 0 meets a 429 that asks for 30 s (0.3 s at time scale 100): its next read is held.
    await (await pacers[0].acquire({ rateClass: 'B', account: 'acct' })).settle({
      status: 429,
      headers: { 'retry-after': '0.3' },
    });
    const held = pacers[0].acquire({ rateClass: 'B', account: 'acct' });
    let waiting: Awaited<ReturnType<(typeof pacers)[number]['inspect']>>['waiting'] = [];
    // Until process 0 has told Redis (a hang guard, not a measure).
    for (let i = 0; i < 100 && !waiting?.length; i++) {
      waiting = (await pacers[1].inspect('acct')).waiting;
      if (!waiting?.length) await new Promise((r) => setTimeout(r, 5));
    }
    expect(waiting).toEqual([{ rateClass: 'B', startsVideo: false, reason: 'server', forMs: expect.any(Number) }]);
    await (await held).settle({ status: 200 });
    expect((await pacers[1].inspect('acct')).waiting).toEqual([]);
    await close();
  });

  it('inspect with Redis away rejects, naming it, instead of showing this process alone as the account', async () => {
    const own = await startRedis();
    const store = createRedisPacerStore({ url: own.url, timeoutMs: 200 });
    const pacer = new Pacer({ store, timeScale: 100 });
    await (await pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    await own.kill();
    await expect(pacer.inspect('acct')).rejects.toThrow(/Redis at redis:\/\/127\.0\.0\.1:\d+\/0 did not answer \(/);
    await pacer.close();
    await own.stop();
  });

  it('the place of a process that died in flight lapses: the others go on after its lease', async () => {
    const { pacers, stores, close } = twoPacers('t5');
    // Held and never settled, and its store closed: no renewal, as after kill -9.
    await pacers[0].acquire({ rateClass: 'B', account: 'acct' });
    await stores[0].close();
    const before = performance.now();
    await (await pacers[1].acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    const waited = performance.now() - before;
    await close();
    // The lease is 15 s of the service's time: 150 ms at time scale 100.
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(10_000);
  });

  it('a place held in flight is renewed at its own lease, also after a longer lease started the renewals', async () => {
    const stores = [0, 1].map(() => createRedisPacerStore({ url: redis.url, prefix: 't8' }));
    const take = (i: number, leaseMs: number) =>
      stores[i].take('acct', {
        rateClass: 'B',
        gapMs: 0,
        busyMs: 50,
        startsVideo: false,
        maxRunning: MAX_RUNNING,
        canCheck: false,
        pollMs: 100,
        leaseMs,
      });
    // A first place of a long lease (a process that has not yet learned the time scale), given back.
    const first = await take(0, 60_000);
    expect(first).toHaveProperty('lease');
    await stores[0].settle('acct', {
      lease: (first as { lease: string }).lease,
      rateClass: 'B',
      startsVideo: false,
      runningTtlMs: 1,
    });
    // Then one of a 600 ms lease, held in flight for more than two of its leases: the other process must still wait.
    expect(await take(0, 600)).toHaveProperty('lease');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await take(1, 600)).toMatchObject({ waitMs: 50 });
    await Promise.all(stores.map((s) => s.close()));
  });

  it('Redis gone: decides alone within its timeout, logs once, and shares again when Redis is back', async () => {
    const own = await startRedis();
    const lines: string[] = [];
    const store = createRedisPacerStore({
      url: own.url,
      timeoutMs: 200,
      retryMs: 100,
      log: (l, m) => lines.push(`${l} ${m}`),
    });
    const pacer = new Pacer({ store, timeScale: 100 });
    await (await pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    expect(store.shared).toBe(true);
    await own.kill();
    for (let i = 0; i < 3; i++)
      await (await pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    expect(store.shared).toBe(false);
    expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(lines.join('\n')).not.toMatch(/password/);
    await own.restart();
    for (let i = 0; i < 100 && !store.shared; i++) await new Promise((r) => setTimeout(r, 50));
    expect(store.shared).toBe(true);
    expect(lines.filter((l) => l.startsWith('info'))).toHaveLength(1);
    await (await pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    expect(store.stats.outages).toBe(1);
    await pacer.close();
    await own.stop();
  });
});
