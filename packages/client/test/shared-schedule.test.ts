// @module-tag full/tools
// One Redis (VIDEO_API_PACING_URL) shared by clients of several accounts and services keeps one schedule
// for each, named as the rules' scheduleName says (base URL, then the key's identity). Before, every
// client's schedule was named '' in the store: the clients of two accounts shared one account's limits
// and its two running slots, and a start of one account waited on the other's videos (and read their
// status with its own key, answered 404). Then (issue 35, hole 4) two keys whose 48-bit fingerprints
// collide met in one schedule again: an identity is now the whole SHA-256. A real redis-server on a free port.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { keyIdentity, MAX_RUNNING, scheduleName } from '@videogen/openapi/rules';
import { createRedisPacerStore } from '@videogen/pacer-redis';
import { FIXTURES, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLIDING_KEYS } from '../../../openapi/rules/test/fixtures/colliding-keys.js';
import { startRedis, type RedisServer } from '../../pacer-redis/test/redis-server.mjs';
import { createClient } from '../src/index.js';

let redis: RedisServer;
let sb: RunningSandbox;
beforeAll(async () => {
  redis = await startRedis();
  sb = await startSandbox({
    port: 0,
    // 60 times faster than real time (the clients learn it from RateLimit-Policy): generations of an
    // hour outlast the test (a slot taken stays taken), a class-A slot comes every 83 ms.
    timeScale: 60,
    generationSeconds: 3600,
    // Two accounts whose keys have one fingerprint (key:2fc226cee47d), two identities.
    accounts: COLLIDING_KEYS.map((key, i) => ({ name: `collide${i}`, plan: 'business' as const, keys: [key] })),
  });
});
afterAll(async () => {
  await sb?.close();
  await redis?.stop();
});

/** The hash tag the Redis store gives a schedule's keys (pacer-redis keysOf: the whole SHA-256 of the name). */
const tagOf = (name: string) => createHash('sha256').update(name).digest('hex');
const identity = (key: string) => keyIdentity(createHash('sha256').update(key).digest('hex'));
/** The tags of the schedules in Redis. */
const tagsIn = (port: number, prefix = 'videogen:pacer') =>
  new Set(
    execFileSync('redis-cli', ['-p', String(port), '--scan', '--pattern', `${prefix}:*`])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((k) => /\{([0-9a-f]+)\}/.exec(k)?.[1]),
  );

describe('a Redis shared by the clients of two accounts', () => {
  it('keeps a schedule per account: one account full does not hold the other', async () => {
    const store = createRedisPacerStore({ url: redis.url });
    try {
      const acme = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, pacingStore: store });
      const globex = createClient({ apiKey: SANDBOX_KEYS.globex, baseUrl: sb.baseUrl, pacingStore: store });
      // acme takes every running slot of its account.
      for (let i = 0; i < MAX_RUNNING; i++)
        await acme.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: `acme ${i}` });
      const before = sb.stats();
      // Any process of the account sees the slots held (here a second store: a second connection).
      const elsewhere = createRedisPacerStore({ url: redis.url });
      try {
        const watcher = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, pacingStore: elsewhere });
        const seen = await watcher.schedule();
        expect(seen.scope).toBe('shared');
        expect(seen.running).toHaveLength(MAX_RUNNING);
        expect(seen.processes).toBe(1);
      } finally {
        await elsewhere.close();
      }

      // globex starts without being held by acme's slots: a start held for them would first read the
      // oldest running video (acme's, with globex's key: 404). Nothing is refused; the two accounts'
      // schedules hold their own videos (no wall-clock bound: a busy machine may be slow).
      const { video_id } = await globex.videos.generate({
        video_setting_id: FIXTURES.globex.settings.text,
        text: 'globex',
      });
      const after = sb.stats();
      expect(after['404'] ?? 0).toBe(before['404'] ?? 0);
      expect(after['503'] ?? 0).toBe(0);
      expect((await globex.schedule()).running.map((r) => r.videoId)).toEqual([video_id]);
      expect((await acme.schedule()).running).toHaveLength(MAX_RUNNING);

      // In Redis: one schedule per account, each under its scheduleName, none under the empty name.
      const tags = tagsIn(redis.port);
      expect(tags).toEqual(
        new Set([SANDBOX_KEYS.acme, SANDBOX_KEYS.globex].map((k) => tagOf(scheduleName(sb.baseUrl, identity(k))))),
      );
      expect(tags.has(tagOf(''))).toBe(false);
    } finally {
      await store.close();
    }
  });
});

describe('two keys whose fingerprints collide (48 bits: found in a minute)', () => {
  it("are two accounts: one account full does not hold the other, whose start never reads the other's videos", async () => {
    const store = createRedisPacerStore({ url: redis.url, prefix: 'collide' });
    try {
      const [a, b] = COLLIDING_KEYS.map((apiKey) => createClient({ apiKey, baseUrl: sb.baseUrl, pacingStore: store }));
      const textSetting = async (c: typeof a) =>
        (await c.settings.list()).results.find((s) => s.request_fields.join() === 'text')?.video_setting_id ?? '';
      const [settingA, settingB] = [await textSetting(a), await textSetting(b)];
      for (let i = 0; i < MAX_RUNNING; i++) await a.videos.generate({ video_setting_id: settingA, text: `a ${i}` });
      const before = sb.stats();
      // Before: b paced on a's schedule, held by a's two videos, read the oldest with its own key (404)
      // and dropped it from a's schedule.
      const { video_id } = await b.videos.generate({ video_setting_id: settingB, text: 'b' });
      expect(sb.stats()['404'] ?? 0).toBe(before['404'] ?? 0);
      expect((await b.schedule()).running.map((r) => r.videoId)).toEqual([video_id]);
      expect((await a.schedule()).running).toHaveLength(MAX_RUNNING);
      const tags = [...tagsIn(redis.port, 'collide')];
      expect(tags).toEqual(
        expect.arrayContaining(COLLIDING_KEYS.map((k) => tagOf(scheduleName(sb.baseUrl, identity(k))))),
      );
    } finally {
      await store.close();
    }
  });
});

describe('client.schedule()', () => {
  it('without a shared store: this process, and pacing off has none', async () => {
    const alone = createClient({ apiKey: SANDBOX_KEYS.initech, baseUrl: sb.baseUrl });
    await alone.settings.list();
    const own = await alone.schedule();
    expect(own).toMatchObject({ scope: 'process', running: [], processes: 1 });
    expect(own.classes.B.lastAnswerAgoMs).toBeGreaterThanOrEqual(0);
    const off = createClient({ apiKey: SANDBOX_KEYS.initech, baseUrl: sb.baseUrl, pacing: false });
    await expect(off.schedule()).rejects.toThrow(/pacing is off/);
  });
});
