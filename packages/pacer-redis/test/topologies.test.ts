// @module-tag full/tools
// Redis as operators run it at scale (issue 35, hole 8), each started here from Debian's binaries: a
// 3-master Redis Cluster named by one node's URL, as a provider's endpoint is, and a primary behind
// Sentinel (redis-sentinel://). And what Redis answered, said in the log line (NOAUTH, OOM, READONLY,
// MOVED), not "did not answer".
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING, Pacer, type TakeRequest } from '@videogen/openapi/rules';
import { connectRedis, createRedisPacerStore, describeRedisError } from '../src/index.js';
import { startCluster, startRedis, startSentinelSet } from './redis-server.mjs';

const START: TakeRequest = {
  rateClass: 'A',
  gapMs: 0,
  busyMs: 0,
  startsVideo: true,
  maxRunning: MAX_RUNNING,
  canCheck: false,
  pollMs: 100,
  leaseMs: 150,
};

/**
 * A process of the account: its store (logging into `lines`) and its pacer at time scale 100. A decision
 * waits for Redis up to 2 s: what is shown here is the sharing, on a machine that may be busy.
 */
function processOf(url: string, prefix: string, lines: string[] = []) {
  const store = createRedisPacerStore({
    url,
    prefix,
    timeoutMs: 2000,
    retryMs: 100,
    log: (l, m) => lines.push(`${l} ${m}`),
  });
  return { store, pacer: new Pacer({ store, timeScale: 100 }), lines };
}

describe('a Redis Cluster of 3 masters, named by one node (a provider endpoint)', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  /** An account whose slot node 0 holds, and one whose slot another node holds. */
  const accounts: { here?: string; elsewhere?: string } = {};
  beforeAll(async () => {
    cluster = await startCluster();
    const first = cluster.nodes[0];
    const probe = new Redis(first.port);
    const slots = await probe.cluster('SLOTS');
    const held = (slot: number) =>
      slots.some(([from, to, primary]) => primary?.[1] === first.port && slot >= from && slot <= to);
    for (let i = 0; (!accounts.here || !accounts.elsewhere) && i < 100; i++) {
      const name = `acct-${i}`;
      // The store's keys of an account share one hash tag: the whole SHA-256 of its name.
      const slot = Number(await probe.cluster('KEYSLOT', `{${createHash('sha256').update(name).digest('hex')}}`));
      if (held(slot)) accounts.here ??= name;
      else accounts.elsewhere ??= name;
    }
    probe.disconnect();
  });
  afterAll(() => cluster?.stop());

  it.each(['here', 'elsewhere'] as const)(
    "4 processes share the account's schedule through one node's URL, the account's slot %s",
    async (where) => {
      const account = accounts[where] ?? '';
      const procs = Array.from({ length: 4 }, () => processOf(cluster.nodes[0].url, `c-${where}`));
      // Connected before the first decision (a cluster takes two connections and a slot table).
      for (let i = 0; i < 200 && !procs.every((p) => p.store.shared); i++) await new Promise((r) => setTimeout(r, 50));
      // Requests of one class from all four, spaced as one account (20 ms apart at time scale 100).
      const sent: number[] = [];
      await Promise.all(
        procs.map(async ({ pacer }) => {
          for (let i = 0; i < 3; i++) {
            const t = await pacer.acquire({ rateClass: 'B', account });
            sent.push(performance.now());
            await t.settle({ status: 200 });
          }
        }),
      );
      sent.sort((a, b) => a - b);
      expect(Math.min(...sent.slice(1).map((t, i) => t - sent[i]))).toBeGreaterThanOrEqual(19);
      // The running slots too: MAX_RUNNING started by two of them, the other two are full.
      for (let i = 0; i < MAX_RUNNING; i++)
        await (await procs[i].pacer.acquire({ rateClass: 'A', account, startsVideo: true })).settle({
          status: 200,
          video_id: `v${i}`,
        });
      for (const p of procs.slice(2)) expect('lease' in (await p.store.take(account, START))).toBe(false);
      expect((await procs[3].pacer.inspect(account)).running.map((r) => r.videoId).sort()).toEqual(['v0', 'v1']);
      // Every decision was made on the cluster: none alone, no line about Redis.
      for (const p of procs) {
        expect(p.store.stats).toMatchObject({ outages: 0, localDecisions: 0 });
        expect(p.lines).toEqual([]);
      }
      await Promise.all(procs.map((p) => p.pacer.close()));
    },
  );

  it('a node asked for a key it does not hold answers MOVED, and the words say so', async () => {
    const single = new Redis(cluster.nodes[0].port);
    const key = `{${createHash('sha256')
      .update(accounts.elsewhere ?? '')
      .digest('hex')}}:A`;
    const err = await single.get(key).then(
      () => undefined,
      (e: Error) => e,
    );
    single.disconnect();
    expect(err?.message).toMatch(/^MOVED \d+ /);
    expect(describeRedisError(err)).toMatch(
      /^answered MOVED \(the account's keys live on another node of a Redis Cluster/,
    );
  });

  it('refuses a database number: a cluster has only database 0', async () => {
    await expect(connectRedis(`${cluster.nodes[0].url}/2`)).rejects.toThrow(
      /names database 2 of a Redis Cluster, which has only database 0: remove \/2 from the URL/,
    );
  });
});

describe('a primary behind Sentinel (redis-sentinel://host:port#name)', () => {
  it('reaches the primary the Sentinel names, and after a failover the one it promotes', async () => {
    const set = await startSentinelSet();
    try {
      const lines: string[] = [];
      const a = processOf(set.url, 's', lines);
      const b = processOf(set.url, 's');
      // Each process reconnects on its own (through the Sentinels, every retryMs): what is shown is where
      // they reconnect to, not how fast a loaded machine lets them (a decision waits only timeoutMs).
      const bothShared = async () => {
        for (let i = 0; i < 200 && !(a.store.shared && b.store.shared); i++)
          await new Promise((r) => setTimeout(r, 50));
      };
      await bothShared();
      await (await a.pacer.acquire({ rateClass: 'A', account: 'acct', startsVideo: true })).settle({
        status: 200,
        video_id: 'v0',
      });
      expect((await b.pacer.inspect('acct')).running.map((r) => r.videoId)).toEqual(['v0']);
      // The primary dies; the Sentinel promotes the replica, which has the schedule.
      await set.primary.kill();
      await set.primaryIs(set.replica.port);
      for (let i = 0; i < 100 && !lines.some((l) => l.startsWith('info')); i++) {
        await (await a.pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith('info'))).toHaveLength(1);
      expect(lines.join('\n')).toMatch(/Redis at redis-sentinel:\/\/127\.0\.0\.1:\d+\/0#mymaster is back/);
      await bothShared();
      expect(a.store.shared).toBe(true);
      const seen = await b.pacer.inspect('acct');
      expect(seen.scope).toBe('shared');
      expect(seen.running.map((r) => r.videoId)).toEqual(['v0']);
      await Promise.all([a.pacer.close(), b.pacer.close()]);
    } finally {
      await set.stop();
    }
  });
});

describe('what Redis answered is said in the line, not "did not answer"', () => {
  const warnOf = async (url: string) => {
    const p = processOf(url, 'w');
    for (let i = 0; i < 3; i++)
      await (await p.pacer.acquire({ rateClass: 'B', account: 'acct' })).settle({ status: 200 });
    await p.pacer.close();
    // One line per outage: no flapping while Redis keeps refusing.
    expect(p.lines).toHaveLength(1);
    return p.lines[0] ?? '';
  };

  it('NOAUTH (no password given), OOM (maxmemory), READONLY (a replica named)', async () => {
    const locked = await startRedis({ args: ['--requirepass', 'pw-not-given'] });
    const full = await startRedis({ args: ['--maxmemory', '1'] });
    const primary = await startRedis();
    const replica = await startRedis({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
    try {
      expect(await warnOf(locked.url)).toMatch(
        /Redis at redis:\/\/127\.0\.0\.1:\d+\/0 answered NOAUTH \(it needs a password/,
      );
      expect(await warnOf(full.url)).toMatch(
        /answered OOM \(it is out of memory, past maxmemory, and refuses writes\)/,
      );
      expect(await warnOf(replica.url)).toMatch(
        /answered READONLY \(the URL names a replica: name the primary, or its Sentinels/,
      );
    } finally {
      await Promise.all([locked.stop(), full.stop(), replica.stop(), primary.stop()]);
    }
  });
});
