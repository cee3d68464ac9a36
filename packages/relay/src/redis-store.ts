// The relay's state on Redis, shared by every relay of an account: leased records, fenced writes, the
// dead-letter list (store.ts says what each operation promises; redis-scripts.ts does it, one Lua script
// each). Why leases with Lua rather than Redis streams or a job queue: see the package README.
import { createHash } from 'node:crypto';
import { isCluster, type RedisConnection } from '@videogen/pacer-redis';
import { relayRedis, type RelayRedis } from './redis-connection.js';
import { CLAIM, KNOWN, RELEASE, RENEW, SAVE, TAKE, WATCH } from './redis-scripts.js';
import {
  DISCOVERY_ID,
  DONE_KEEP_MS,
  type DeadLetter,
  type ReleaseExtras,
  type RelayRecord,
  type RelayStore,
  type StoreStatus,
  type Task,
  type VideoRecord,
  type WatchResult,
} from './store.js';

export interface RedisStoreOptions {
  url: string;
  /** The account's name (the client's schedule name: base URL and key fingerprint); only its hash reaches Redis. */
  account: string;
  /** Prefix of every key (default `videogen:relay`). */
  prefix?: string;
}

/** ioredis (a server or a cluster) with the scripts defined as commands (defineCommand). */
type ScriptRedis = RedisConnection & Record<string, (...args: Array<string | number>) => Promise<unknown>>;

/** The scripts, each with its number of keys (every key in the account's hash tag: one slot of a Cluster). */
const SCRIPTS = [
  ['relayClaim', CLAIM, 5],
  ['relayRenew', RENEW, 3],
  ['relayRelease', RELEASE, 8],
  ['relaySave', SAVE, 4],
  ['relayTake', TAKE, 5],
  ['relayKnown', KNOWN, 3],
  ['relayWatch', WATCH, 3],
] as const;

export class RedisRelayStore implements RelayStore {
  readonly where: string;
  private readonly connection: RelayRedis;
  private sub: RedisConnection | undefined;
  private readonly k: Record<
    'records' | 'due' | 'leases' | 'fences' | 'meta' | 'done' | 'seen' | 'dead' | 'deadq' | 'wake',
    string
  >;
  private readonly listeners = new Set<() => void>();

  constructor(o: RedisStoreOptions) {
    this.connection = relayRedis(o.url, (redis) => {
      for (const [name, lua, keys] of SCRIPTS) redis.defineCommand(name, { numberOfKeys: keys, lua });
      this.subscribe(redis);
    });
    this.where = this.connection.where;
    // One hash tag per account: every key of a script in one slot of a Cluster.
    const base = `${o.prefix ?? 'videogen:relay'}:{${createHash('sha256').update(o.account).digest('hex').slice(0, 24)}}`;
    this.k = {
      records: `${base}:records`,
      due: `${base}:due`,
      leases: `${base}:leases`,
      fences: `${base}:fences`,
      meta: `${base}:meta`,
      done: `${base}:done`,
      seen: `${base}:seen`,
      dead: `${base}:dead`,
      deadq: `${base}:deadq`,
      wake: `${base}:wake`,
    };
  }

  /** The connected client, its scripts defined (a first connection that failed is tried again on the next call). */
  private redis(): Promise<ScriptRedis> {
    return this.connection.client() as Promise<ScriptRedis>;
  }

  /** The keys of this account (for tests that look at what is stored). */
  get keys(): Readonly<Record<string, string>> {
    return this.k;
  }

  async claim(max: number, leaseMs: number, epoch: number) {
    const redis = await this.redis();
    const { records, due, leases, fences, meta } = this.k;
    const [dueIn, storedEpoch, initialized, flat] = (await redis.relayClaim(
      records,
      due,
      leases,
      fences,
      meta,
      max,
      Math.round(leaseMs),
      Math.round(epoch),
      JSON.stringify({ kind: 'discovery' }),
      DISCOVERY_ID,
    )) as [number, string, number, Array<string | number>];
    const tasks: Task[] = [];
    for (let i = 0; i < flat.length; i += 3)
      tasks.push({ id: String(flat[i]), fence: Number(flat[i + 1]), record: JSON.parse(String(flat[i + 2])) });
    return {
      tasks,
      nextDueInMs: Number(dueIn) < 0 ? undefined : Number(dueIn),
      epoch: Number(storedEpoch),
      initialized: Number(initialized) === 1,
    };
  }

  async renew(id: string, fence: number, leaseMs: number) {
    const redis = await this.redis();
    const { due, leases, fences } = this.k;
    return Number(await redis.relayRenew(due, leases, fences, id, fence, Math.round(leaseMs))) === 1;
  }

  async release(
    id: string,
    fence: number,
    record: RelayRecord | undefined,
    dueInMs: number | undefined,
    x: ReleaseExtras = {},
  ) {
    const redis = await this.redis();
    const { records, due, leases, fences, done, seen, dead, deadq } = this.k;
    const args: Array<string | number> = [
      id,
      fence,
      record && dueInMs !== undefined ? JSON.stringify(record) : '',
      record && dueInMs !== undefined ? Math.max(0, Math.round(dueInMs)) : '',
      DONE_KEEP_MS,
      DISCOVERY_ID,
      x.forgetSeenBefore ?? '',
    ];
    args.push(x.dead?.length ?? 0);
    for (const d of x.dead ?? []) args.push(d.event.id, JSON.stringify(d));
    args.push(x.undead?.length ?? 0, ...(x.undead ?? []));
    args.push(x.watch?.length ?? 0);
    for (const w of x.watch ?? []) args.push(w.record.video_id, JSON.stringify(w.record), Math.round(w.dueInMs));
    args.push(x.seen?.length ?? 0);
    for (const [vid, at] of x.seen ?? []) args.push(vid, at);
    return Number(await redis.relayRelease(records, due, leases, fences, done, seen, dead, deadq, ...args)) === 1;
  }

  async save(id: string, fence: number, record: RelayRecord, x: Pick<ReleaseExtras, 'dead'> = {}) {
    const redis = await this.redis();
    const { records, fences, dead, deadq } = this.k;
    const args: Array<string | number> = [id, fence, JSON.stringify(record), x.dead?.length ?? 0];
    for (const d of x.dead ?? []) args.push(d.event.id, JSON.stringify(d));
    return Number(await redis.relaySave(records, fences, dead, deadq, ...args)) === 1;
  }

  async take(id: string, leaseMs: number) {
    const redis = await this.redis();
    const { records, due, leases, fences, meta } = this.k;
    const reply = (await redis.relayTake(records, due, leases, fences, meta, id, Math.round(leaseMs))) as
      | [number, string | null]
      | null;
    if (!reply) return undefined;
    const [fence, raw] = reply;
    return { fence: Number(fence), ...(raw ? { record: JSON.parse(raw) as RelayRecord } : {}) };
  }

  async known(ids: string[]) {
    if (ids.length === 0) return [];
    const redis = await this.redis();
    const { records, done, seen } = this.k;
    const flags = (await redis.relayKnown(records, done, seen, ...ids)) as number[];
    return flags.map((f) => Number(f) === 1);
  }

  async watch(record: VideoRecord, dueInMs: number): Promise<WatchResult> {
    const redis = await this.redis();
    const { records, due, done } = this.k;
    const result = String(
      await redis.relayWatch(records, due, done, record.video_id, JSON.stringify(record), Math.round(dueInMs)),
    ) as WatchResult;
    if (result === 'added') await this.wake();
    return result;
  }

  async failed(): Promise<DeadLetter[]> {
    const redis = await this.redis();
    const ids = await redis.zrevrange(this.k.deadq, 0, -1);
    if (ids.length === 0) return [];
    const raw = await redis.hmget(this.k.dead, ...ids);
    return raw.filter((r): r is string => typeof r === 'string').map((r) => JSON.parse(r) as DeadLetter);
  }

  async status(): Promise<StoreStatus> {
    const redis = await this.redis();
    const [records, done, dead, epoch] = await Promise.all([
      redis.hlen(this.k.records),
      redis.zcard(this.k.done),
      redis.zcard(this.k.deadq),
      redis.hget(this.k.meta, 'epoch'),
    ]);
    return {
      where: this.where,
      // The discovery record is not a video.
      records: Math.max(0, records - 1),
      done,
      dead,
      epoch: epoch === null ? undefined : Number(epoch),
    };
  }

  onWake(listener: () => void) {
    this.listeners.add(listener);
    // Connected already: subscribe now; else the connection subscribes once made (relayRedis's `ready`).
    this.redis().then(
      (redis) => this.subscribe(redis),
      () => {},
    );
  }

  /** A second connection (a subscriber can send nothing else) hears the other relays' wake-ups. */
  private subscribe(redis: RedisConnection): void {
    if (this.sub || this.listeners.size === 0) return;
    // ioredis's own duplicate: a server, the same Sentinels, or the same cluster, with the same options.
    const sub: RedisConnection = isCluster(redis) ? redis.duplicate() : redis.duplicate();
    sub.on('error', () => {});
    sub.on('message', () => {
      for (const l of this.listeners) l();
    });
    this.sub = sub;
    sub.subscribe(this.k.wake).catch(() => {});
  }

  async wake() {
    await this.redis()
      .then((redis) => redis.publish(this.k.wake, '1'))
      .catch(() => 0);
  }

  /** Connects (lazily, on first use otherwise); rejects when Redis cannot be reached. */
  async connect(): Promise<void> {
    await this.redis();
  }

  async close() {
    this.listeners.clear();
    this.sub?.disconnect();
    this.connection.close();
  }
}
