// The sandbox's state (videos per account, credit balances, the URL-signing secret, the clock's offsets) in LMDB, an
// embedded B-tree store: a create writes its own few keys (cost independent of how many videos are
// stored), commits off the main thread (reads never wait for a write) and, with a data dir, is synced
// to disk before it is acknowledged. Without a data dir the same store lives in a temporary directory,
// unsynced, its directory deleted once open. Reads are synchronous from the memory map; only the small running-video
// index, the per-account counts and a bounded cache of decoded videos are kept in memory. A video record never
// changes once written (its status is computed from the time when read), so the cache is right until the video is
// removed: create() and resetAccount() are the only writers, and both update it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Accounts } from './accounts.js';
import { BoundedMap } from './bounded-map.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { VIDEO_SCENARIOS, fixtureId } from './fixtures.js';
import type { ClockOffsets } from './clock.js';
import { COPYRIGHT, type VideoRecord } from './lifecycle.js';

type ListingKey = [account: string, created_at: number, seq: number];
type FinishKey = [account: string, finishes_at: number, video_id: string];

const LOW = -Number.MAX_VALUE;
const HIGH = Number.MAX_VALUE;
/** Running videos older than this (real ms) are dropped from the in-memory index. */
const RUNNING_HORIZON_MS = 86_400_000;
/** Decoded videos kept in memory (the oldest entry goes first): a poll loop reads the same few videos. */
export const RECORD_CACHE_SIZE = 10_000;

interface Running {
  finishes_at: number;
  video_id: string;
}

export interface StoreOptions {
  dataDir?: string;
  signingSecret?: string;
}

/** What the store keeps beside the videos and credits, by name. */
interface Meta {
  signing_secret: string;
  /** The last listing sequence number given. */
  seq: number;
  clock: ClockOffsets;
}

export class Store {
  readonly signingSecret: string;
  private readonly root: RootDatabase;
  private readonly videos: Database<VideoRecord, string>;
  /** [account, created_at, seq] → video_id: listing order without reading the videos. */
  private readonly listing: Database<string, ListingKey>;
  /** [account, finishes_at, video_id] → 1: the running videos after a restart. */
  private readonly finishing: Database<number, FinishKey>;
  private readonly credits: Database<number, string>;
  /** The store's own values, by name (Meta). */
  private readonly meta: Database<Meta[keyof Meta], keyof Meta>;
  private readonly counts = new Map<string, number>();
  private readonly balance = new Map<string, number>();
  /** Per account, sorted by finishes_at. */
  private readonly running = new Map<string, Running[]>();
  /** video_id → its record, decoded once (frozen: a cached record is shared by every reader). */
  private readonly records = new BoundedMap<string, Readonly<VideoRecord>>(RECORD_CACHE_SIZE);
  private seq: number;
  private readonly durable: boolean;
  private readonly lock?: DataDirLock;
  private readonly tempDir?: string;

  constructor(accounts: Accounts, opts: StoreOptions) {
    let dir: string;
    if (opts.dataDir) {
      mkdirSync(opts.dataDir, { recursive: true });
      this.lock = lockDataDir(opts.dataDir);
      dir = opts.dataDir;
    } else {
      dir = this.tempDir = mkdtempSync(join(tmpdir(), 'videogen-sandbox-'));
    }
    this.durable = !!opts.dataDir;
    try {
      // Default sync settings with a data dir: a commit is on disk before its promise resolves.
      this.root = open({ path: join(dir, 'sandbox.mdb'), noSync: !this.durable, maxDbs: 8 });
      this.videos = this.root.openDB({ name: 'videos' });
      this.listing = this.root.openDB({ name: 'listing' });
      this.finishing = this.root.openDB({ name: 'finishing' });
      this.credits = this.root.openDB({ name: 'credits' });
      this.meta = this.root.openDB({ name: 'meta' });
      if (opts.dataDir) this.migrateStateJson(opts.dataDir);
      // The open files keep the temporary store alive; removing its directory now (where the OS allows
      // it) means a sandbox that is never closed, or a killed process, leaves nothing behind.
      if (this.tempDir && process.platform !== 'win32') rmSync(this.tempDir, { recursive: true, force: true });
    } catch (err) {
      this.lock?.release();
      throw err;
    }

    // A persisted secret keeps download URLs handed out before a restart valid.
    this.signingSecret = opts.signingSecret ?? this.metaOf('signing_secret') ?? randomBytes(32).toString('hex');
    this.seq = this.metaOf('seq') ?? 0;
    const now = Date.now();
    this.root.transactionSync(() => {
      this.meta.putSync('signing_secret', this.signingSecret);
      for (const account of accounts.all.values()) {
        for (const s of account.seedVideos ? VIDEO_SCENARIOS : []) {
          const v = this.seedVideo(account.name, account.videoPrefix, s);
          if (!this.videos.doesExist(v.video_id)) {
            this.videos.putSync(v.video_id, v);
            this.listing.putSync([v.account, v.created_at, 0], v.video_id);
          }
        }
        if (this.credits.get(account.name) === undefined) this.credits.putSync(account.name, account.initialCredits);
      }
    });
    for (const account of accounts.all.values()) {
      const name = account.name;
      this.balance.set(name, this.credits.get(name) ?? account.initialCredits);
      this.counts.set(name, this.listing.getCount({ start: [name, LOW, 0], end: [name, HIGH, 0] }));
      const running: Running[] = [];
      for (const { key } of this.finishing.getRange({
        start: [name, now - RUNNING_HORIZON_MS, ''],
        end: [name, HIGH, ''],
      })) {
        running.push({ finishes_at: key[1], video_id: key[2] });
      }
      this.running.set(name, running);
    }
  }

  private seedVideo(account: string, prefix: string, s: (typeof VIDEO_SCENARIOS)[number]): VideoRecord {
    return {
      video_id: fixtureId(prefix, s.n),
      account,
      // Scenario 1 (the plain convertible video) is the newest seed, so that a client discovering
      // "the first completed video" of the list gets an ordinary one, not a scenario.
      created_at: Date.UTC(2026, 0, 20 - s.n, 9, 0, 0),
      prompt: s.prompt,
      fixed_status: s.status,
      finishes_at: 0,
      outcome: s.status === 'failed' ? 'failed' : 'completed',
      expires_at: null,
      language: 'ja',
      aspect_ratio: '16:9',
      voices: s.voices === 'all' ? 'all' : [...s.voices],
      has_video_data: s.convertible || s.realAvatar,
      real_avatar: s.realAvatar,
      unknown_error_on_convert: s.unknownError,
      copyright: s.status === 'completed' ? [...COPYRIGHT] : [],
    };
  }

  /** A data dir of the JSON era (state.json): imported once, then renamed state.json.migrated. */
  private migrateStateJson(dir: string) {
    const file = join(dir, 'state.json');
    if (!existsSync(file)) return;
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      signing_secret: string;
      credits: Record<string, number>;
      videos: VideoRecord[];
    };
    let seq = this.metaOf('seq') ?? 0;
    this.root.transactionSync(() => {
      if (!this.metaOf('signing_secret')) this.meta.putSync('signing_secret', saved.signing_secret);
      for (const [account, n] of Object.entries(saved.credits)) this.credits.putSync(account, n);
      for (const v of saved.videos) {
        this.videos.putSync(v.video_id, v);
        this.listing.putSync([v.account, v.created_at, ++seq], v.video_id);
        this.finishing.putSync([v.account, v.finishes_at, v.video_id], 1);
      }
      this.meta.putSync('seq', seq);
    });
    renameSync(file, `${file}.migrated`);
  }

  /** A video of this account; another account's video is as absent as an unknown one. */
  get(account: string, videoId: string): Readonly<VideoRecord> | undefined {
    const v = this.find(videoId);
    return v && v.account === account ? v : undefined;
  }

  /** Any account's video (download URLs carry no key). */
  find(videoId: string): Readonly<VideoRecord> | undefined {
    // Ids are lower case; one in another case is the same video.
    const cached = this.records.get(videoId);
    if (cached) return cached;
    const id = videoId.toLowerCase();
    return this.records.get(id) ?? this.remember(this.videos.get(id));
  }

  private remember(v: VideoRecord | undefined): Readonly<VideoRecord> | undefined {
    if (!v) return undefined;
    this.records.set(v.video_id, Object.freeze(v));
    return v;
  }

  /** How many videos the account has (seeded ones included). */
  count(account: string): number {
    return this.counts.get(account) ?? 0;
  }

  /** `limit` videos from `offset`, newest first (ties: the later created first), or oldest first. */
  page(account: string, offset: number, limit: number, oldestFirst = false): Readonly<VideoRecord>[] {
    const range = oldestFirst
      ? { start: [account, LOW, 0] as ListingKey, end: [account, HIGH, 0] as ListingKey }
      : { start: [account, HIGH, 0] as ListingKey, end: [account, LOW, 0] as ListingKey, reverse: true };
    const out: Readonly<VideoRecord>[] = [];
    for (const { value } of this.listing.getRange({ ...range, offset, limit })) {
      const v = this.find(value);
      if (v) out.push(v);
    }
    return out;
  }

  /** The account's videos still running at `now` (at most a few: the concurrency limit). */
  runningAt(account: string, now: number): Running[] {
    const list = this.running.get(account) ?? [];
    return list.slice(firstAfter(list, now));
  }

  creditsOf(account: string): number {
    return this.balance.get(account) ?? 0;
  }

  /**
   * Record a new video and charge its credit in one transaction. The credit and the running index
   * change at once (a concurrent create sees them); the promise resolves once the transaction is
   * committed, and with a data dir synced to disk: only then may the video be acknowledged.
   */
  async create(v: VideoRecord, cost = 1): Promise<void> {
    const balance = this.creditsOf(v.account) - cost;
    this.balance.set(v.account, balance);
    const list = this.running.get(v.account) ?? [];
    this.running.set(v.account, list);
    list.splice(firstAfter(list, v.finishes_at), 0, { finishes_at: v.finishes_at, video_id: v.video_id });
    const stale = firstAfter(list, v.created_at - RUNNING_HORIZON_MS);
    if (stale > 0) list.splice(0, stale);
    const seq = ++this.seq;
    await this.root.transaction(() => {
      this.videos.putSync(v.video_id, v);
      this.listing.putSync([v.account, v.created_at, seq], v.video_id);
      this.finishing.putSync([v.account, v.finishes_at, v.video_id], 1);
      this.credits.putSync(v.account, balance);
      this.meta.putSync('seq', seq);
    });
    if (this.durable) await this.root.flushed;
    this.remember({ ...v });
    this.counts.set(v.account, this.count(v.account) + 1);
  }

  /** Back to the seed (`/_sandbox/reset`): the account's own videos go, its credits are refilled. */
  async resetAccount(account: string, credits: number): Promise<void> {
    this.balance.set(account, credits);
    this.running.set(account, []);
    const own: Array<[ListingKey, string, VideoRecord | undefined]> = [];
    let kept = 0;
    for (const { key, value } of this.listing.getRange({ start: [account, LOW, 0], end: [account, HIGH, 0] })) {
      if (key[2] === 0)
        kept++; // a seed
      else own.push([key, value, this.videos.get(value)]);
    }
    await this.root.transaction(() => {
      for (const [key, , v] of own) {
        this.listing.removeSync(key);
        if (!v) continue;
        this.videos.removeSync(v.video_id);
        this.finishing.removeSync([account, v.finishes_at, v.video_id]);
      }
      this.credits.putSync(account, credits);
    });
    // Right after the commit (a read during it may have cached a video that is gone now).
    for (const [, id] of own) this.records.delete(id);
    if (this.durable) await this.root.flushed;
    this.counts.set(account, kept);
  }

  /** A value of meta, of the type its name holds (the only writes are the typed puts of this class). */
  private metaOf<K extends keyof Meta>(key: K): Meta[K] | undefined {
    return this.meta.get(key) as Meta[K] | undefined;
  }

  /** The clock's offsets a previous run kept in the data dir (none without one). */
  savedClock(): ClockOffsets | undefined {
    return this.durable ? this.metaOf('clock') : undefined;
  }

  /**
   * Keeps the clock's offsets in the data dir (without one, nothing: time starts afresh with the process).
   * Writes are committed in order, so a video created after an advance is never on disk without it;
   * `clockSaved` resolves once the last one is synced.
   */
  saveClock(offsets: ClockOffsets): void {
    // (A client sleeping on sb.clock may move the time after close: there is nothing to keep then.)
    if (!this.durable || this.closed) return;
    this.clockSaved = this.meta.put('clock', offsets).then(
      () => this.root.flushed,
      (err) => process.stderr.write(`[sandbox] could not keep the clock in the data dir: ${err}\n`),
    );
  }

  /** Resolves once the clock's last change is on disk (at once without a data dir). */
  clockSaved: Promise<unknown> = Promise.resolve();

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    await this.clockSaved;
    await this.root.close();
    this.lock?.release();
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
  }
}

/** Index of the first entry finishing after `t` (list sorted by finishes_at). */
function firstAfter(list: Running[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].finishes_at <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
