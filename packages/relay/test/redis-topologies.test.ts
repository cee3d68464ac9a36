// @module-tag full/tools
// The relay's state on Redis as operators run it, each started here from Debian's binaries: a Redis
// Cluster of 3 masters named by one node's URL (a provider's endpoint), and a primary behind Sentinel
// (redis-sentinel://), the URLs VIDEO_API_PACING_URL takes for the pacer and the relay uses by default.
// Before, the relay's single-server client met MOVED for every account whose slot another node holds,
// and could not reach a Sentinel's primary at all. And a Redis that is not up yet when the relay starts.
import { createClient } from '@videogen/client';
import { FIXTURES, type RunningSandbox, SANDBOX_KEYS } from '@videogen/sandbox';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, DISCOVERY_ID, RedisRelayStore, type RelayLogRecord } from '../src/index.js';
import { startCluster, startRedis, startSentinelSet } from '../../pacer-redis/test/redis-server.mjs';
import { fastRelayOptions, fastSandbox, type Receiver, SECRET, startReceiver, until } from './helpers.js';

let sb: RunningSandbox;
let receiver: Receiver;
beforeAll(async () => {
  sb = await fastSandbox({ generationSeconds: 100 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await sb?.close();
});

/**
 * A relay of the acme account on `redisUrl`: one video generated, its webhook received and verified.
 * `started` runs between the relay's start and the video (its log records so far in hand).
 */
async function oneVideoThrough(
  redisUrl: string,
  name: string,
  started: (logs: RelayLogRecord[]) => Promise<void> = async () => {},
) {
  const logs: RelayLogRecord[] = [];
  const relay = await createRelay({
    ...fastRelayOptions({ receiverUrl: receiver.url, name, baseUrl: sb.baseUrl }),
    redisUrl,
    redisPrefix: name,
    logger: (r) => logs.push(r),
  });
  try {
    await started(logs);
    const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, relayUrl: relay.url });
    const video = await client.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: name });
    const delivery = await until(() => receiver.deliveries.find((d) => d.path === `/${name}`), `${name}'s webhook`);
    const event = new Webhook(SECRET).verify(delivery.body, delivery.headers as Record<string, string>) as {
      type: string;
      data: { video_id: string };
    };
    expect(event).toMatchObject({ type: 'video.completed', data: { video_id: video.video_id } });
    expect((await relay.status()).store.where).toContain(redisUrl.replace(/\/\/.*@/, '//'));
    return logs;
  } finally {
    await relay.stop();
  }
}

describe('a Redis Cluster of 3 masters, named by one node', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => cluster?.stop());

  it("keeps the state of accounts whose slot any node holds, and wakes the account's other relays", async () => {
    const url = cluster.nodes[0]!.url;
    // One account per master: the store's keys of an account share one hash tag, hence one slot.
    const probe = new Redis(cluster.nodes[0]!.port);
    const slots = await probe.cluster('SLOTS');
    const accounts = new Map<number, string>();
    for (let i = 0; accounts.size < 3 && i < 200; i++) {
      const store = new RedisRelayStore({ url, account: `account ${i}`, prefix: 'topologies' });
      const tag = /\{([0-9a-f]+)\}/.exec(store.keys.records!)![1]!;
      const slot = Number(await probe.cluster('KEYSLOT', `{${tag}}`));
      const node = slots.find(([from, to]) => slot >= from && slot <= to)?.[2]?.[1];
      if (node === undefined) throw new Error(`no node holds slot ${slot}`);
      if (!accounts.has(node)) accounts.set(node, `account ${i}`);
      await store.close();
    }
    probe.disconnect();
    expect(accounts.size).toBe(3);
    for (const account of accounts.values()) {
      const [a, b] = [0, 1].map(() => new RedisRelayStore({ url, account, prefix: 'topologies' }));
      if (!a || !b) throw new Error('two stores');
      const woken: number[] = [];
      a.onWake(() => woken.push(Date.now()));
      const first = await a.claim(8, 5_000, Date.now());
      expect(first.tasks.map((t) => t.id)).toEqual([DISCOVERY_ID]);
      expect((await b.claim(8, 5_000, Date.now())).tasks).toEqual([]);
      expect(await a.release(DISCOVERY_ID, first.tasks[0]!.fence, { kind: 'discovery' }, 0)).toBe(true);
      expect(await b.known(['nope'])).toEqual([false]);
      expect((await b.status()).where).toBe(url);
      // The other store's wake-up reaches this one's subscriber (its own connection to the cluster).
      await until(
        async () => {
          await b.wake();
          return woken.length > 0;
        },
        `a wake-up of ${account}`,
        10_000,
      );
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('relays a video on the cluster', () => oneVideoThrough(cluster.nodes[1]!.url, 'cluster'));
});

describe('a primary behind Sentinel (redis-sentinel://host:port#name)', () => {
  it('relays a video through the primary the Sentinel names, and again after a failover', async () => {
    const set = await startSentinelSet();
    try {
      await oneVideoThrough(set.url, 'sentinel');
      // The primary dies; the Sentinel promotes the replica, which has the relay's state.
      await set.primary.kill();
      await set.primaryIs(set.replica.port);
      await oneVideoThrough(set.url, 'after-failover');
    } finally {
      await set.stop();
    }
  });
});

describe('a Redis that is not up yet', () => {
  it('the relay started without it says so, waits, and relays once Redis answers', async () => {
    const redis = await startRedis();
    try {
      await redis.kill();
      const logs = await oneVideoThrough(redis.url, 'late-redis', async (seen) => {
        await until(
          () => seen.some((r) => /does not answer/.test(r.msg)),
          'the relay saying its Redis does not answer',
        );
        await redis.restart();
      });
      expect(logs.map((r) => r.msg).join('\n')).toMatch(/answers again after/);
    } finally {
      await redis.stop();
    }
  });
});
