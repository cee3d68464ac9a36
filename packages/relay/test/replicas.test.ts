// @module-tag full/replicas
// Several relays of one account, each its own process, sharing a real redis-server (started here on a
// free port), against a sandbox and a receiver on loopback: the store's leases and fences on Redis, then
// relays killed with SIGKILL in the middle of a delivery and of a status read, then Redis restarted empty.
// Every expected event must arrive (verified with the stock standardwebhooks package), never under two ids,
// in order per video; no video read by two relays at once.
import { FIXTURES, MAGIC, type RunningSandbox, SANDBOX_KEYS } from '@videogen/sandbox';
import { createClient } from '@videogen/client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_ID, RedisRelayStore, type RelayOptions } from '../src/index.js';
import {
  type Delivery,
  fastRelayOptions,
  type RelayProcess,
  SECRET,
  startRedis,
  startReceiver,
  startRelay,
  tally,
  until,
  type Receiver,
} from './harness.mjs';
import { fastSandbox } from './helpers.js';

let redis: Awaited<ReturnType<typeof startRedis>>;
let sb: RunningSandbox;
let receiver: Receiver;
const key = SANDBOX_KEYS.acme;
const text = FIXTURES.acme.settings.text;
const running: RelayProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // Generations of 3 s (300 service seconds at 100×): a video stays completed 3 s before it expires, longer
  // than a lapsed lease and a status read after it (a relay that first reads it expired sends only that).
  sb = await fastSandbox({ generationSeconds: 300 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await Promise.all(running.map((r) => r.kill()));
  await receiver?.close();
  await sb?.close();
  await redis?.stop();
});

const verify = (d: Delivery) =>
  new Webhook(SECRET).verify(d.body, d.headers as Record<string, string>) as {
    type: string;
    data: { video_id: string };
  };

/** A relay process on the shared Redis; its deliveries go to the receiver's /NAME. */
async function relay(name: string, prefix: string, o: Partial<RelayOptions> = {}): Promise<RelayProcess> {
  const r = await startRelay({
    options: {
      ...fastRelayOptions({ receiverUrl: receiver.url, name, baseUrl: sb.baseUrl }),
      redisUrl: redis.url,
      redisPrefix: prefix,
      retryScheduleMs: [0, 100, 200, 400, 800, 1600],
      ...o,
    },
    // Their clients share the account's pacing on the same Redis, as replicas of an application do.
    env: { VIDEO_API_PACING_URL: redis.url },
  });
  running.push(r);
  return r;
}

/** Status reads of one video by two relays at once, from the relays' own debug lines. */
function overlappingReads(relays: RelayProcess[]): string[] {
  const spans = new Map<string, Array<{ pid: number; from: number; to: number }>>();
  for (const r of relays) {
    const open = new Map<string, number>();
    for (const l of r.logs) {
      const id = l.video_id as string | undefined;
      if (!id || l.at === undefined) continue;
      if (l.msg.startsWith('polling ')) open.set(id, l.at);
      else if (l.msg.startsWith('polled ') && open.has(id)) {
        const list = spans.get(id) ?? [];
        list.push({ pid: r.pid, from: open.get(id) ?? 0, to: l.at });
        spans.set(id, list);
        open.delete(id);
      }
    }
    // A read cut by SIGKILL: it ran until the process died.
    for (const [id, from] of open) {
      const list = spans.get(id) ?? [];
      list.push({ pid: r.pid, from, to: r.diedAt ?? Number.POSITIVE_INFINITY });
      spans.set(id, list);
    }
  }
  const overlaps: string[] = [];
  for (const [id, list] of spans)
    for (const a of list)
      for (const b of list)
        if (a.pid < b.pid && a.from < b.to && b.from < a.to) overlaps.push(`${id}: ${JSON.stringify([a, b])}`);
  return overlaps;
}

describe('the relays share the work on Redis', () => {
  it('leases each record to one store at a time, and refuses the write of a holder whose lease lapsed', async () => {
    const account = 'lease test';
    const [a, b] = [0, 1].map(() => new RedisRelayStore({ url: redis.url, account, prefix: 'lt' }));
    if (!a || !b) throw new Error('two stores');
    const epoch = Date.now();
    const first = await a.claim(8, 300, epoch);
    expect(first.initialized).toBe(true);
    expect(first.tasks.map((t) => t.id)).toEqual([DISCOVERY_ID]);
    // Leased to a: b gets nothing, however often it asks.
    expect((await b.claim(8, 300, epoch)).tasks).toEqual([]);
    const task = first.tasks[0];
    if (!task) throw new Error('a task');
    expect(await a.renew(task.id, task.fence, 300)).toBe(true);
    // a stops renewing (it died): after the lease b claims it, with a newer fence.
    await until(async () => (await b.claim(8, 300, epoch)).tasks.length === 1 || undefined, 'the lapsed lease', 5_000);
    // a comes back: its write is refused and nothing it wrote lands.
    expect(await a.release(task.id, task.fence, { kind: 'discovery', total: 99 }, 0)).toBe(false);
    expect(await a.renew(task.id, task.fence, 300)).toBe(false);
    // Every key of the account carries one hash tag (one slot of a Cluster).
    const tags = new Set(Object.values(b.keys).map((k) => /\{([0-9a-f]+)\}/.exec(k)?.[1]));
    expect(tags.size).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('delivers every event once a relay is killed mid-delivery and another mid-poll: same ids, in order, none lost', async () => {
    const relays = await Promise.all(['r0', 'r1', 'r2'].map((n) => relay(n, 'kill', { watchExpiryMs: 500 })));
    const expected: Array<{ video_id: string; type: string }> = [];
    const make = async (url: string | undefined, prompt: string) => {
      const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: url, pacingUrl: redis.url });
      const v = await client.videos.generate({ video_setting_id: text, text: prompt });
      if (prompt.includes(MAGIC.fail)) expected.push({ video_id: v.video_id, type: 'video.failed' });
      else expected.push({ video_id: v.video_id, type: 'video.completed' });
      if (prompt.includes(MAGIC.expire)) expected.push({ video_id: v.video_id, type: 'video.expired' });
    };

    // 1. Every delivery held: the first relay seen delivering is killed while it waits for the answer.
    receiver.answer = () => 'hold';
    await make(relays[0]?.url, 'kill one');
    await make(relays[0]?.url, `kill two ${MAGIC.fail}`);
    const held = await until(() => receiver.deliveries.find((d) => /^\/r\d$/.test(d.path)), 'a delivery in flight');
    const victim = relays[Number(held.path.slice(2))];
    if (!victim) throw new Error('the delivering relay');
    await victim.kill();
    receiver.answer = () => 200;
    receiver.release(200);

    // 2. Slow status reads (800 ms each): the first relay seen polling is killed while its read is in flight.
    const alive = relays.filter((r) => r !== victim);
    await fetch(`${sb.baseUrl.replace(/\/v1$/, '')}/_sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', latency_ms: 800, count: 6 }),
    });
    const from = alive.map((r) => r.logs.length);
    await make(alive[0]?.url, `kill three ${MAGIC.expire}`);
    await make(alive[0]?.url, 'kill four');
    const poller = await until(
      () => alive.find((r, i) => r.logs.slice(from[i]).some((l) => l.msg.startsWith('polling '))),
      'a relay reading a status',
    );
    await poller.kill();

    // What arrives (to any relay's path) against what was made.
    const t = await until(() => {
      const now = tally(receiver.deliveries, expected, verify);
      return now.lost === 0 ? now : undefined;
    }, 'every expected event').catch((e) => {
      console.log(JSON.stringify(tally(receiver.deliveries, expected, verify)), JSON.stringify(expected));
      for (const r of relays)
        console.log(
          r.pid,
          r.logs
            .filter((l) => l.level !== 'debug' || /delivering|polling/.test(l.msg))
            .map((l) => `${l.at} ${l.level} ${l.msg}`)
            .join('\n'),
        );
      throw e;
    });
    expect(t).toMatchObject({ expected: 5, delivered: 5, lost: 0, conflicting: 0, outOfOrder: 0, unverified: 0 });
    // The held delivery of the killed relay comes again from another, with its id.
    const again = await until(() => {
      const same = receiver.deliveries.filter((d) => d.headers['webhook-id'] === held.headers['webhook-id']);
      return same.length >= 2 ? same : undefined;
    }, 'the held event again');
    expect(again.length).toBeGreaterThanOrEqual(2);
    expect(new Set(again.map((d) => d.path)).size).toBeGreaterThanOrEqual(2);
    expect(overlappingReads(relays)).toEqual([]);
    await Promise.all(relays.map((r) => r.stop()));
  });

  it('goes on when Redis restarts empty: the relays list again since their epoch; the events come with the same ids', async () => {
    const start = receiver.deliveries.length;
    const relays = await Promise.all(['s0', 's1'].map((n) => relay(n, 'restart')));
    const expected: Array<{ video_id: string; type: string }> = [];
    const make = async (prompt: string) => {
      const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: relays[0]?.url, pacingUrl: redis.url });
      const v = await client.videos.generate({ video_setting_id: text, text: prompt });
      expected.push({ video_id: v.video_id, type: 'video.completed' });
    };
    receiver.answer = () => 'hold';
    await make('before the restart');
    await until(() => receiver.held() > 0, 'a delivery in flight');
    await redis.kill();
    await redis.restart();
    receiver.answer = () => 200;
    receiver.release(200);
    await make('after the restart');
    const t = await until(() => {
      const now = tally(receiver.deliveries.slice(start), expected, verify);
      return now.lost === 0 ? now : undefined;
    }, 'both events');
    expect(t).toMatchObject({ expected: 2, lost: 0, conflicting: 0, unverified: 0 });
    expect(relays.some((r) => r.logs.some((l) => /was empty/.test(l.msg)))).toBe(true);
    await Promise.all(relays.map((r) => r.stop()));
  });
});
