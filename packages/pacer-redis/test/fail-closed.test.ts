// @module-tag full/tools
// A video start fails closed while a process cannot reach Redis (issue 35, hole 1): against a real
// redis-server, slowed with DEBUG SLEEP or killed, the account's two running slots stay the limit of 8.2.
// Each store is one process's; the store is asked directly (take) where a test says "not now", so that
// nothing here waits on a clock.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING, Pacer, type TakeRequest } from '@videogen/openapi/rules';
import { createRedisPacerStore, type RedisPacerStore } from '../src/index.js';
import { startRedis, type RedisServer } from './redis-server.mjs';

/** What the pacer asks for a start at time scale 100, with no spacing: only the running slots decide. */
const START: TakeRequest = {
  rateClass: 'A',
  gapMs: 0,
  busyMs: 0,
  startsVideo: true,
  maxRunning: MAX_RUNNING,
  canCheck: true,
  pollMs: 100,
  leaseMs: 150,
};

let redis: RedisServer;
let raw: Redis;
beforeAll(async () => {
  redis = await startRedis({ args: ['--enable-debug-command', 'local'] });
  raw = new Redis(redis.url);
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.stop();
});

/**
 * One process of the account, connected before its first decision: a decision waits for Redis up to 1 s
 * (what is shown is what a process does when Redis cannot answer, not a slow machine's first connection).
 */
async function processOf(prefix: string, url = redis.url) {
  const store = createRedisPacerStore({ url, prefix, timeoutMs: 1000, retryMs: 100 });
  for (let i = 0; i < 200 && !store.shared; i++) await new Promise((r) => setTimeout(r, 25));
  return { store, pacer: new Pacer({ store, timeScale: 100 }) };
}

/** A process that starts while Redis does not answer: it has never decided with it. */
function processNow(prefix: string, url = redis.url) {
  const store = createRedisPacerStore({ url, prefix, timeoutMs: 1000, retryMs: 100 });
  return { store, pacer: new Pacer({ store, timeScale: 100 }) };
}

/** `n` videos started by `pacer` (each settled with its id): they hold running slots on Redis. */
async function start(pacer: Pacer, ids: string[]) {
  for (const id of ids)
    await (await pacer.acquire({ rateClass: 'A', account: 'acct', startsVideo: true })).settle({
      status: 200,
      video_id: id,
    });
}

const granted = (r: Awaited<ReturnType<RedisPacerStore['take']>>) => 'lease' in r;

describe('a video start while Redis cannot be reached', () => {
  it('a process that never saw the account on Redis starts nothing while Redis sleeps, then waits its turn', async () => {
    const a = await processOf('fc1');
    await start(a.pacer, ['v0', 'v1']);
    expect((await a.pacer.inspect('acct')).running.map((r) => r.videoId)).toEqual(['v0', 'v1']);
    // A third process (a new `videogen generate`) asks while Redis sleeps (issue 35: it got a 503).
    const sleeper = new Redis(redis.url);
    const asleep = sleeper.debug('SLEEP', '2');
    await new Promise((r) => setTimeout(r, 50));
    const c = processNow('fc1');
    const checked: string[] = [];
    let sent = false;
    const third = c.pacer
      .acquire({
        rateClass: 'A',
        account: 'acct',
        startsVideo: true,
        checkRunning: async (id) => void checked.push(id),
      })
      .then((t) => {
        sent = true;
        return t;
      });
    await asleep;
    sleeper.disconnect();
    // It decided alone while Redis slept, and did not start a third video.
    expect(c.store.stats.localDecisions).toBeGreaterThan(0);
    expect(sent).toBe(false);
    // Redis back: the account is full, the process looks at the oldest running video, and goes once it finished.
    for (let i = 0; i < 100 && checked.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(checked[0]).toBe('v0');
    expect(sent).toBe(false);
    await (await a.pacer.acquire({ rateClass: 'B', account: 'acct', videoId: 'v0' })).settle({
      status: 200,
      videoStatus: 'completed',
    });
    await (await third).settle({ status: 200, video_id: 'v2' });
    expect((await a.pacer.inspect('acct')).running.map((r) => r.videoId).sort()).toEqual(['v1', 'v2']);
    await Promise.all([a.pacer.close(), c.pacer.close()]);
  });

  it("a process that saw the account's running videos keeps them holding their slots alone, and checks them itself", async () => {
    const own = await startRedis();
    const a = await processOf('fc2', own.url);
    const b = await processOf('fc2', own.url);
    await start(a.pacer, ['v0', 'v1']);
    // b decides once with Redis (a status read): it learns the account's two running videos.
    await (await b.pacer.acquire({ rateClass: 'B', account: 'acct', videoId: 'x' })).settle({
      status: 200,
      videoStatus: 'running',
    });
    await own.kill();
    const alone = await b.store.take('acct', START);
    expect(b.store.shared).toBe(false);
    // Full: no start; the oldest of the videos the others run is named, for b to read its status.
    expect(granted(alone)).toBe(false);
    expect(alone).toMatchObject({ check: 'v0' });
    // b reads that v0 finished: one slot is free, and b (one of 2 processes, share 1) may take it.
    await (await b.pacer.acquire({ rateClass: 'B', account: 'acct', videoId: 'v0' })).settle({
      status: 200,
      videoStatus: 'completed',
    });
    expect(granted(await b.store.take('acct', START))).toBe(true);
    await Promise.all([a.pacer.close(), b.pacer.close()]);
    await own.stop();
  });

  it('alone, a process holds at most its share of the slots: floor(2 / N) with N the processes last seen', async () => {
    const own = await startRedis();
    const a = await processOf('fc3', own.url);
    const b = await processOf('fc3', own.url);
    // Both decide with Redis, a last: a has seen 2 processes pacing the account.
    for (const p of [b, a]) await (await p.pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    expect((await a.pacer.inspect('acct')).processes).toBe(2);
    await own.kill();
    // Nothing runs; a is one of 2 processes: one start, not two (b may take the other one meanwhile).
    const first = await a.store.take('acct', START);
    expect(granted(first)).toBe(true);
    const lease = 'lease' in first ? first.lease : '';
    await a.store.settle('acct', { lease, rateClass: 'A', startsVideo: true, started: 'v0', runningTtlMs: 6000 });
    expect(granted(await a.store.take('acct', START))).toBe(false);
    // And a process alone on the account before Redis went away keeps both slots.
    await own.restart();
    const c = await processOf('fc3-alone', own.url);
    await (await c.pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    expect(c.store.shared).toBe(true);
    await own.kill();
    const one = await c.store.take('acct', START);
    expect(granted(one)).toBe(true);
    await c.store.settle('acct', {
      lease: 'lease' in one ? one.lease : '',
      rateClass: 'A',
      startsVideo: true,
      started: 'w0',
      runningTtlMs: 6000,
    });
    expect(granted(await c.store.take('acct', START))).toBe(true);
    await Promise.all([a.pacer.close(), b.pacer.close(), c.pacer.close()]);
    await own.stop();
  });
});
