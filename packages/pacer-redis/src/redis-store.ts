// The pacer's schedule on Redis, shared by every process of an account (the client's replicas, the
// CLI, contract suite runs, pacing proxies). Decisions are the Lua scripts of scripts.ts. Beside the
// shared schedule the store keeps this process's own (a MemoryPacerStore): it mirrors every place this
// process takes, and it is the schedule when Redis cannot answer in time. Then the store logs once,
// paces this process alone at its share of the account's limits (1/N of them, N the processes last
// seen pacing it), looks every `retryMs` whether Redis is back, pushes what this process learned
// meanwhile (its running videos, its last requests, the server's waits) and goes back to the shared
// schedule. A call never waits on Redis longer than `timeoutMs`, and nothing is sent because of Redis:
// the store only ever says "go" or "wait".
//
// Alone, a video start fails closed (rate-limiter-flexible's insurance limiter: a separate,
// stricter limit, not the shared one applied alone). The process cannot see the slots the others take
// meanwhile, so it assumes they hold them: it may hold at most its share of the running slots,
// floor(MAX_RUNNING / N), and only if it saw the account on Redis within PEER_MS before losing it (a
// process that never did, or long ago, does not know N and starts nothing); the account's videos it last
// saw running (the mirror below copies them from every decision) hold their slots as before.
import { createHash, randomBytes } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import {
  MemoryPacerStore,
  type AccountView,
  type PacerStore,
  type RateClass,
  type ScheduleSnapshot,
  type Settlement,
  type TakeRequest,
  type TakeResult,
  type WaitingNote,
  type WaitReason,
} from '@videogen/openapi/rules';
import {
  connectRedis,
  describeRedisError,
  isCluster,
  redactRedisUrl,
  redisUrlProblem,
  type RedisConnection,
} from './connection.js';
import {
  DONE_WAIT,
  INSPECT,
  MERGE_CLASS,
  MERGE_FULL,
  NOTE_RUNNING,
  NOTE_WAIT,
  RENEW,
  SETTLE,
  TAKE,
} from './scripts.js';

export type PacingLog = (level: 'info' | 'warn', message: string) => void;

export interface RedisPacerStoreOptions {
  /**
   * `redis://[user:password@]host[:port][/db]`, `rediss://` for TLS: a single server, or any node of a
   * Redis Cluster (recognised as one); `redis-sentinel://[user:password@]host[:port][,host[:port]…][/db]#primary`
   * (`rediss-sentinel://` for TLS): the primary its Sentinels name, followed across failovers.
   */
  url: string;
  /** Where the store's two lines go: Redis unreachable or refusing (warn, once per outage, saying what it answered) and back (info). Default: none. */
  log?: PacingLog;
  /** The longest one decision waits for Redis before this process paces alone (default 500 ms). */
  timeoutMs?: number;
  /** How often to look whether Redis is back, after an outage (default 1 s). */
  retryMs?: number;
  /** Prefix of every key (default `videogen:pacer`): several toolkits can share one Redis database. */
  prefix?: string;
  /**
   * The pacer's clock runs this many times faster than real time (a client given a scaled clock for a
   * sandbox started with --time-scale); Redis keeps real time. Default 1.
   */
  timeScale?: number;
  /** More ioredis options (for example `tls: { ca }` for a private CA). */
  redis?: RedisOptions;
}

/** Keys stay this long (real ms) past the latest deadline they hold: a schedule nobody uses lapses. */
const PAD_MS = 10 * 60_000;
/** A process counts among an account's pacers this long after its last decision. */
const PEER_MS = 30_000;
/** A held request stays listed this long past the wait it announced (its process may be gone). */
const LEASE_GRACE_MS = 5_000;

interface Held {
  account: string;
  rateClass: RateClass;
  startsVideo: boolean;
  local: string;
  /** Taken on Redis (renewed there until settled); false when taken alone during an outage. */
  shared: boolean;
  leaseMs: number;
}

interface Keys {
  cls: Record<RateClass, string>;
  lease: Record<RateClass, string>;
  run: string;
  acct: string;
  peers: string;
  wake: string;
  wait: string;
  waitInfo: string;
}

/** ioredis with the scripts defined as commands (defineCommand): each answers what its Lua returns. */
type ScriptRedis = RedisConnection & Record<string, (...args: Array<string | number>) => Promise<unknown>>;

/** The sockets of a connection (every node's, for a cluster). */
const streamsOf = (c: RedisConnection) => (isCluster(c) ? c.nodes() : [c]).map((n: Redis) => n.stream);

/** Whether a connection keeps the process alive (only while one of its commands is pending). */
function setRef(c: RedisConnection | undefined, ref: boolean): void {
  if (!c) return;
  for (const s of streamsOf(c)) ref ? s?.ref?.() : s?.unref?.();
}

export class RedisPacerStore implements PacerStore {
  /** The URL as it may be printed (user, password and query values redacted). */
  readonly url: string;
  private readonly rawUrl: string;
  private readonly redisOptions: RedisOptions | undefined;
  /** Set once connected (connectRedis: a single server, a cluster, or the primary its Sentinels name). */
  private redis: ScriptRedis | undefined;
  private sub?: RedisConnection;
  private readonly local: MemoryPacerStore;
  private readonly scale: number;
  private readonly timeoutMs: number;
  private readonly retryMs: number;
  private readonly prefix: string;
  private readonly log: PacingLog;
  private readonly peer = randomBytes(8).toString('hex');
  private readonly held = new Map<string, Held>();
  private readonly views = new Map<string, AccountView>();
  private readonly peers = new Map<string, number>();
  /** When this process last decided with Redis for the account (its `peers` count is as fresh as that). */
  private readonly seenShared = new Map<string, number>();
  /** The videos this process started, per account, with when their slot lapses: its own share of the running slots. */
  private readonly own = new Map<string, Map<string, number>>();
  private readonly keys = new Map<string, Keys>();
  private readonly listeners = new Set<() => void>();
  private readonly subscribed = new Set<string>();
  private seq = 0;
  private up = false;
  /** The first connection: decisions wait for it (at most `timeoutMs` each). */
  private connecting: Promise<void> | undefined;
  private probe: ReturnType<typeof setInterval> | undefined;
  private renewal: ReturnType<typeof setInterval> | undefined;
  /** How often `renewal` renews (ms of real time). */
  private renewEvery = Number.POSITIVE_INFINITY;
  private pending = 0;
  private closed = false;
  private downSince: number | undefined;
  /** What went wrong last (inspect's message says it while Redis is away). */
  private lastError: Error | undefined;
  /** Decisions made alone during outages (for tests and benchmarks). */
  readonly stats = { outages: 0, localDecisions: 0, sharedDecisions: 0 };

  constructor(options: RedisPacerStoreOptions) {
    const problem = redisUrlProblem(options.url);
    if (problem) throw new TypeError(problem);
    this.url = redactRedisUrl(options.url);
    this.rawUrl = options.url;
    this.redisOptions = options.redis;
    this.scale = options.timeScale && options.timeScale > 0 ? options.timeScale : 1;
    this.timeoutMs = options.timeoutMs ?? 500;
    this.retryMs = options.retryMs ?? 1000;
    this.prefix = options.prefix ?? 'videogen:pacer';
    this.log = options.log ?? (() => {});
    this.local = new MemoryPacerStore(() => Date.now() * this.scale);
    this.connecting = this.connect().then(
      () => {
        // Connected late, after a decision gave up waiting: the probe shares again, with what was learned alone.
        if (this.downSince === undefined) this.up = true;
      },
      (err: Error) => this.down(err),
    );
  }

  /** Connects (connectRedis: it tells a cluster from a single server) and defines the scripts as commands. */
  private async connect(): Promise<void> {
    const redis = (await connectRedis(this.rawUrl, {
      timeoutMs: this.timeoutMs,
      redis: this.redisOptions,
    })) as ScriptRedis;
    if (this.closed) return void redis.disconnect();
    redis.on('error', (err: Error) => this.down(err));
    redis.on('close', () => this.up && this.down(new Error('the connection closed')));
    redis.on('ready', () => setRef(redis, this.pending > 0));
    if (isCluster(redis)) redis.on('+node', () => setRef(redis, this.pending > 0));
    for (const [name, lua, keys] of [
      ['vgTake', TAKE, 5],
      ['vgSettle', SETTLE, 4],
      ['vgRenew', RENEW, 2],
      ['vgNoteRunning', NOTE_RUNNING, 1],
      ['vgMergeClass', MERGE_CLASS, 1],
      ['vgMergeFull', MERGE_FULL, 1],
      ['vgInspect', INSPECT, 9],
      ['vgNoteWait', NOTE_WAIT, 2],
      ['vgDoneWait', DONE_WAIT, 2],
    ] as const)
      redis.defineCommand(name, { numberOfKeys: keys, lua });
    setRef(redis, this.pending > 0);
    this.redis = redis;
  }

  /** Whether decisions are shared right now (false during an outage). */
  get shared(): boolean {
    return this.up;
  }

  async take(account: string, r: TakeRequest): Promise<TakeResult> {
    if (!(await this.ready())) return this.takeAlone(account, r);
    const k = this.keysOf(account);
    this.subscribe(k.wake);
    const id = `${this.peer}:${++this.seq}`;
    const leaseMs = r.leaseMs / this.scale;
    /** vgTake's answer (scripts.ts): numbers, and the id of a video to check (or nil). */
    let reply: Array<string | number | null>;
    try {
      reply = (await this.call('vgTake', [
        k.cls[r.rateClass],
        k.lease[r.rateClass],
        k.run,
        k.acct,
        k.peers,
        id,
        r.gapMs / this.scale,
        r.busyMs / this.scale,
        r.startsVideo ? 1 : 0,
        r.maxRunning,
        r.canCheck ? 1 : 0,
        r.pollMs / this.scale,
        leaseMs,
        r.peek ? 1 : 0,
        this.peer,
        PEER_MS,
        PAD_MS,
      ])) as Array<string | number | null>;
    } catch (err) {
      this.down(err as Error);
      // The script may have run all the same: give its place back once Redis answers again.
      if (!r.peek) void this.release(k, r, id);
      return this.takeAlone(account, r);
    }
    this.stats.sharedDecisions++;
    const [taken, wait, check, lastAgo, blockFor, slowdown, limit, windowMs, running, peers, videos] = reply;
    this.peers.set(account, Number(peers));
    this.seenShared.set(account, Date.now());
    const view = this.viewOf(account);
    view.classes[r.rateClass] = {
      slowdown: Number(slowdown),
      learned: limit ? { limit: Number(limit), windowMs: Number(windowMs) * this.scale } : undefined,
    };
    view.running = Number(running);
    // The mirror learns what the others did: if Redis goes away, this process does not start from nothing
    // (their last requests, the server's waits, the videos holding running slots).
    this.local.apply(account, r.rateClass, {
      lastAgoMs: Number(lastAgo) * this.scale,
      blockForMs: Number(blockFor) * this.scale,
    });
    const list = Array.isArray(videos) ? videos.map(String) : [];
    const mirrored: Array<{ id: string; ttlMs: number }> = [];
    for (let i = 0; i + 1 < list.length; i += 2)
      mirrored.push({ id: list[i], ttlMs: Number(list[i + 1]) * this.scale });
    this.local.mirrorRunning(account, mirrored, (id) => this.ownRunning(account).has(id));
    if (taken !== 1)
      return {
        waitMs: Number(wait) * this.scale,
        ...(check ? { check: String(check) } : { reason: reasonOf(r, wait, lastAgo, blockFor, running, this.scale) }),
      };
    this.held.set(id, {
      account,
      rateClass: r.rateClass,
      startsVideo: r.startsVideo,
      local: this.local.force(account, r),
      shared: true,
      leaseMs,
    });
    this.renewLeases();
    return { lease: id };
  }

  async settle(account: string, s: Settlement): Promise<void> {
    const h = this.held.get(s.lease);
    this.held.delete(s.lease);
    this.local.settle(account, { ...s, lease: h?.local ?? '' });
    const own = this.ownRunning(account);
    if (s.started) own.set(s.started, Date.now() + s.runningTtlMs / this.scale);
    if (s.finished) own.delete(s.finished);
    if (!this.up) return;
    const k = this.keysOf(account);
    try {
      await this.call('vgSettle', [
        k.cls[s.rateClass],
        k.lease[s.rateClass],
        k.run,
        k.acct,
        s.lease,
        s.startsVideo ? 1 : 0,
        s.learned ? s.learned.limit : '',
        s.learned ? s.learned.windowMs / this.scale : '',
        s.blockForMs !== undefined ? s.blockForMs / this.scale : '',
        s.slowdown ? s.slowdown.factor : '',
        s.slowdown ? s.slowdown.max : '',
        s.fullForMs !== undefined ? s.fullForMs / this.scale : '',
        s.started ?? '',
        s.finished ?? '',
        s.runningTtlMs / this.scale,
        PAD_MS,
        k.wake,
      ]);
      if (s.learned) this.viewOf(account).classes[s.rateClass].learned = s.learned;
    } catch (err) {
      this.down(err as Error);
    }
  }

  async noteRunning(account: string, videoIds: string[], runningTtlMs: number): Promise<void> {
    this.local.noteRunning(account, videoIds, runningTtlMs);
    if (!(await this.ready()) || videoIds.length === 0) return;
    const args = videoIds.flatMap((id) => [id, runningTtlMs / this.scale]);
    try {
      await this.call('vgNoteRunning', [this.keysOf(account).run, PAD_MS, ...args]);
    } catch (err) {
      this.down(err as Error);
    }
  }

  async record(account: string, rateClass: RateClass, agoMs: number, windowMs: number): Promise<void> {
    this.local.record(account, rateClass, agoMs, windowMs);
    if (!(await this.ready())) return;
    try {
      await this.call('vgMergeClass', [
        this.keysOf(account).cls[rateClass],
        agoMs / this.scale,
        Math.max(0, windowMs - agoMs) / this.scale,
        1,
        PAD_MS,
      ]);
    } catch (err) {
      this.down(err as Error);
    }
  }

  view(account: string): AccountView {
    return (this.up && this.views.get(account)) || this.local.view(account);
  }

  /** A request this process's pacer holds: listed for every process's `videogen pacing` while it waits. */
  async noteWaiting(account: string, note: WaitingNote): Promise<void> {
    this.local.noteWaiting(account, note);
    if (!this.up) return;
    const k = this.keysOf(account);
    try {
      await this.call('vgNoteWait', [
        k.wait,
        k.waitInfo,
        `${this.peer}:${note.id}`,
        note.rateClass,
        note.startsVideo ? 1 : 0,
        note.reason ?? '',
        // Listed a little past its wait: a process that stops (kill -9) is off the list soon after.
        note.waitMs / this.scale + LEASE_GRACE_MS,
        PAD_MS,
      ]);
    } catch (err) {
      this.down(err as Error);
    }
  }

  async doneWaiting(account: string, id: string): Promise<void> {
    this.local.doneWaiting(account, id);
    if (!this.up) return;
    const k = this.keysOf(account);
    try {
      await this.call('vgDoneWait', [k.wait, k.waitInfo, `${this.peer}:${id}`]);
    } catch (err) {
      this.down(err as Error);
    }
  }

  /**
   * The account's shared schedule as Redis holds it (every process's places, waits and running videos);
   * takes no place. Rejects when Redis does not answer: this process's own view is not the account's.
   */
  async inspect(account: string): Promise<ScheduleSnapshot> {
    const unreachable = (err: unknown) =>
      new Error(`shared pacing: Redis at ${this.url} ${describeRedisError(err)}; the shared schedule cannot be read`);
    if (!(await this.ready())) throw unreachable(this.lastError ?? new Error('no connection'));
    const k = this.keysOf(account);
    type ClassReply = [number, string, string, string, string, string];
    let reply: [ClassReply, ClassReply, Array<[string, string]>, number, string, number, Array<[string, string]>];
    try {
      reply = (await this.call('vgInspect', [
        k.cls.A,
        k.cls.B,
        k.lease.A,
        k.lease.B,
        k.run,
        k.acct,
        k.peers,
        k.wait,
        k.waitInfo,
      ])) as typeof reply;
    } catch (err) {
      this.down(err as Error);
      throw unreachable(err);
    }
    const [a, b, running, starts, fullFor, processes, waiting = []] = reply;
    const ms = (v: string) => Number(v) * this.scale;
    const cls = ([inFlight, lastAgo, blockedFor, slowdown, limit, windowMs]: ClassReply) => ({
      inFlight: Number(inFlight),
      ...(lastAgo !== '' ? { lastAnswerAgoMs: ms(lastAgo) } : {}),
      blockedForMs: ms(blockedFor),
      slowdown: Number(slowdown),
      ...(limit !== '' ? { learned: { limit: Number(limit), windowMs: ms(windowMs) } } : {}),
    });
    return {
      scope: 'shared',
      classes: { A: cls(a), B: cls(b) },
      running: running.map(([videoId, lapsesIn]) => ({ videoId, lapsesInMs: ms(lapsesIn) })),
      startsInFlight: Number(starts),
      fullForMs: ms(fullFor),
      processes: Number(processes),
      waiting: waiting.map(([info, forMs]) => {
        const [rateClass, starts, reason] = info.split('|');
        return {
          rateClass: rateClass === 'A' ? 'A' : 'B',
          startsVideo: starts === '1',
          ...(reason ? { reason: reason as WaitReason } : {}),
          forMs: ms(forMs),
        };
      }),
    };
  }

  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Accounts this process keeps something of (its view, key names, subscription, mirror). */
  get size(): number {
    return Math.max(this.keys.size, this.local.size);
  }

  /**
   * Drops what this process keeps of an idle account (its view, key names, wake-up subscription and
   * its own mirror of the schedule): a pacing proxy meeting thousands of keys stays bounded. Redis
   * keeps the shared schedule, whose keys lapse on their own (TTL). An account with a place held here,
   * or whose mirror is still busy (a wait, a running video), is kept.
   */
  forget(account: string): boolean {
    for (const h of this.held.values()) if (h.account === account) return false;
    if (!this.local.forget(account)) return false;
    const k = this.keys.get(account);
    if (k && this.subscribed.delete(k.wake)) this.sub?.unsubscribe(k.wake).catch(() => {});
    this.keys.delete(account);
    this.views.delete(account);
    this.peers.delete(account);
    this.seenShared.delete(account);
    this.own.delete(account);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probe);
    clearInterval(this.renewal);
    await this.connecting;
    this.sub?.disconnect();
    // Places still held lapse on their own (LEASE): a closing process does not wait for Redis.
    this.redis?.disconnect();
  }

  /** Waits for the first connection (bounded); afterwards, whether Redis is believed reachable. */
  private async ready(): Promise<boolean> {
    if (this.connecting) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.connecting,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      this.connecting = undefined;
      if (!this.up) this.down(new Error(`no connection within ${this.timeoutMs} ms`));
    }
    return this.up;
  }

  private takeAlone(account: string, r: TakeRequest): TakeResult {
    this.stats.localDecisions++;
    // Alone, this process keeps to its share of the account's limits.
    const share = Math.max(1, this.peers.get(account) ?? 1);
    const maxRunning = r.startsVideo ? this.aloneSlots(account, r.maxRunning) : r.maxRunning;
    const taken = this.local.take(account, { ...r, gapMs: r.gapMs * share, maxRunning });
    if (!('lease' in taken)) return taken;
    const id = `${this.peer}:${++this.seq}`;
    this.held.set(id, {
      account,
      rateClass: r.rateClass,
      startsVideo: r.startsVideo,
      local: taken.lease,
      shared: false,
      leaseMs: r.leaseMs / this.scale,
    });
    return { lease: id };
  }

  /**
   * How many running slots the account may hold while this process decides alone: the videos it knows
   * the others run (last seen on Redis) plus its own share, floor(maxRunning / N). No share at all when
   * it has not seen the account on Redis within PEER_MS before losing it: then N is unknown, and the
   * others may hold every slot (a slot fails closed).
   */
  private aloneSlots(account: string, maxRunning: number): number {
    const seen = this.seenShared.get(account);
    const lost = this.downSince ?? Date.now();
    const fresh = seen !== undefined && lost - seen <= PEER_MS;
    const share = fresh ? Math.floor(maxRunning / Math.max(1, this.peers.get(account) ?? 1)) : 0;
    const own = this.ownRunning(account);
    const others = this.local.runningVideos(account).filter((id) => !own.has(id)).length;
    return Math.min(maxRunning, others + share);
  }

  /** The videos this process started that hold a slot still (lapsed ones dropped). */
  private ownRunning(account: string): Map<string, number> {
    let own = this.own.get(account);
    if (!own) this.own.set(account, (own = new Map()));
    const now = Date.now();
    for (const [id, until] of own) if (until <= now) own.delete(id);
    return own;
  }

  /** A Redis command, bounded by `timeoutMs`; the socket keeps the process alive only while one is pending. */
  private async call(name: string, args: Array<string | number>): Promise<unknown> {
    const redis = this.redis;
    if (!redis) throw new Error('no connection');
    if (this.pending++ === 0) setRef(redis, true);
    try {
      return await redis[name](...args.map(String));
    } finally {
      if (--this.pending === 0) setRef(redis, false);
    }
  }

  private down(err: Error): void {
    if (this.closed) return;
    this.up = false;
    this.lastError = err;
    if (this.downSince === undefined) {
      this.downSince = Date.now();
      this.stats.outages++;
      this.log(
        'warn',
        `shared pacing: Redis at ${this.url} ${describeRedisError(err)}; pacing in this process alone, at its share of the account's limits (no video start beyond its share of the running slots), until it is back`,
      );
    }
    if (!this.probe) {
      this.probe = setInterval(() => void this.tryAgain(), this.retryMs);
      this.probe.unref?.();
    }
  }

  private tryingAgain = false;
  /** Reconnects if needed, then gives Redis what this process learned alone, then shares again. */
  private async tryAgain(): Promise<void> {
    if (this.tryingAgain || this.closed) return;
    this.tryingAgain = true;
    try {
      if (!this.redis) await this.connect();
      const redis = this.redis;
      if (!redis) return;
      if (redis.status === 'end' || redis.status === 'close' || redis.status === 'wait') await redis.connect();
      if (redis.status !== 'ready') return;
      await this.call('ping', []);
      if (this.sub && this.sub.status === 'end') {
        this.sub = undefined;
        const channels = [...this.subscribed];
        this.subscribed.clear();
        for (const c of channels) this.subscribe(c);
      }
      await this.pushLocal();
      clearInterval(this.probe);
      this.probe = undefined;
      const since = this.downSince;
      this.downSince = undefined;
      this.up = true;
      this.log(
        'info',
        `shared pacing: Redis at ${this.url} is back after ${since ? Math.round((Date.now() - since) / 1000) : 0} s; the schedule is shared again`,
      );
      for (const wake of this.listeners) wake();
    } catch {
      // Still away: the next tick tries again.
    } finally {
      this.tryingAgain = false;
    }
  }

  /** After an outage (Redis may have restarted empty): this process's running videos, last requests and waits. */
  private async pushLocal(): Promise<void> {
    for (const a of this.local.snapshot()) {
      const k = this.keysOf(a.account);
      for (const c of ['A', 'B'] as const) {
        const cls = a.classes[c];
        await this.call('vgMergeClass', [
          k.cls[c],
          cls.lastAgoMs === undefined ? '' : cls.lastAgoMs / this.scale,
          cls.blockForMs / this.scale,
          cls.slowdown,
          PAD_MS,
        ]);
      }
      if (a.fullForMs > 0) await this.call('vgMergeFull', [k.acct, a.fullForMs / this.scale, PAD_MS]);
      if (a.running.length)
        await this.call('vgNoteRunning', [k.run, PAD_MS, ...a.running.flatMap((v) => [v.id, v.ttlMs / this.scale])]);
    }
  }

  /** A place the store may have taken on Redis before its answer timed out. */
  private async release(k: Keys, r: TakeRequest, id: string): Promise<void> {
    for (let i = 0; i < 30 && !this.closed; i++) {
      await new Promise((resolve) => setTimeout(resolve, this.retryMs).unref?.());
      const redis = this.redis;
      if (!this.up || !redis) continue;
      try {
        await redis.zrem(k.lease[r.rateClass], id);
        if (r.startsVideo) await redis.zrem(k.run, `start:${id}`);
        return;
      } catch {
        // Try again later; the place lapses by itself anyway.
      }
    }
  }

  /** Keeps this process's places on Redis alive while their requests are in flight. */
  private renewLeases(): void {
    // A third of the shortest lease held: a lease shorter than those before it (the time scale learned from the
    // target's first answer) restarts the timer, or it would lapse in flight and let another process go.
    const every = Math.max(50, Math.min(...[...this.held.values()].map((h) => h.leaseMs)) / 3);
    if (this.renewal && every >= this.renewEvery) return;
    clearInterval(this.renewal);
    this.renewEvery = every;
    this.renewal = setInterval(() => {
      const live = [...this.held.entries()].filter(([, h]) => h.shared);
      if (live.length === 0) {
        clearInterval(this.renewal);
        this.renewal = undefined;
        this.renewEvery = Number.POSITIVE_INFINITY;
        return;
      }
      if (!this.up) return;
      for (const [id, h] of live) {
        const k = this.keysOf(h.account);
        this.call('vgRenew', [k.lease[h.rateClass], k.run, id, h.leaseMs, h.startsVideo ? 1 : 0, PAD_MS]).catch(
          (err: Error) => this.down(err),
        );
      }
    }, every);
    this.renewal.unref?.();
  }

  /** Wake-ups from other processes: a place given back may let a sleeper go earlier. */
  private subscribe(channel: string): void {
    if (this.subscribed.has(channel) || this.closed) return;
    this.subscribed.add(channel);
    const redis = this.redis;
    if (!redis) return void this.subscribed.delete(channel);
    if (!this.sub) {
      const sub = isCluster(redis)
        ? redis.duplicate(undefined, { enableOfflineQueue: true })
        : redis.duplicate({ enableOfflineQueue: true });
      sub.on('error', () => {});
      // A subscription never keeps the process alive.
      sub.on('ready', () => setRef(sub, false));
      if (isCluster(sub)) sub.on('+node', () => setRef(sub, false));
      sub.on('message', () => {
        for (const wake of this.listeners) wake();
      });
      this.sub = sub;
    }
    this.sub.subscribe(channel).catch(() => {});
  }

  private viewOf(account: string): AccountView {
    let view = this.views.get(account);
    if (!view) this.views.set(account, (view = this.local.view(account)));
    return view;
  }

  private keysOf(account: string): Keys {
    let k = this.keys.get(account);
    if (!k) {
      // The account's name holds a base URL and a key's identity: only a hash of it reaches Redis, whole
      // (a shorter one would let two accounts meet in one schedule), in one hash tag (one cluster slot).
      const base = `${this.prefix}:{${createHash('sha256').update(account).digest('hex')}}`;
      k = {
        cls: { A: `${base}:A`, B: `${base}:B` },
        lease: { A: `${base}:A:lease`, B: `${base}:B:lease` },
        run: `${base}:run`,
        acct: `${base}:acct`,
        peers: `${base}:peers`,
        wake: `${base}:wake`,
        wait: `${base}:wait`,
        waitInfo: `${base}:waitinfo`,
      };
      this.keys.set(account, k);
    }
    return k;
  }
}

/** A store for `VIDEO_API_PACING_URL` (or any redis:// or rediss:// URL). */
export function createRedisPacerStore(options: RedisPacerStoreOptions | string): RedisPacerStore {
  return new RedisPacerStore(typeof options === 'string' ? { url: options } : options);
}

/** What a wait the TAKE script answered is for, read from the rest of its answer (the script says how long, not why). */
function reasonOf(
  r: TakeRequest,
  wait: unknown,
  lastAgo: unknown,
  blockFor: unknown,
  running: unknown,
  scale: number,
): WaitReason {
  const waitMs = Number(wait) * scale;
  const blockedMs = Number(blockFor) * scale;
  const spaced = Number(lastAgo) * scale >= r.gapMs;
  if (blockedMs > 0 && blockedMs >= waitMs - 1) return 'server';
  // A start while every slot is held waits for a slot, whatever spacing it waits out first (as the memory store says).
  if (r.startsVideo && Number(running) >= r.maxRunning) return 'full';
  if (!spaced) return 'spacing';
  if (r.startsVideo) return 'refused';
  return 'in-flight';
}
