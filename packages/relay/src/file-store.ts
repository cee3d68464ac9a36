// The relay's state in one JSON file (`--state FILE`), for a relay without Redis. Every operation is a
// transaction: the file is locked (proper-lockfile: a lock directory beside it, stale after a few
// seconds when its holder died), read again if another process changed it, changed, written to a
// temporary file, flushed to disk and renamed over the old one, then unlocked. So a `kill -9` at any
// moment leaves the last state whole, what the relay acknowledged (an announce) is on disk, and other
// processes (`videogen relay --failed`, `--replay ID`) can change the state while the relay runs.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
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

interface FileState {
  version: 1;
  epoch?: number;
  /** The last fence handed out (fences are never reused). */
  seq: number;
  records: Record<string, RelayRecord>;
  /** id → when due (ms). */
  due: Record<string, number>;
  /** id → until when leased (ms). */
  leases: Record<string, number>;
  fences: Record<string, number>;
  /** id → when its work was done (ms). */
  done: Record<string, number>;
  /** id → created_at (ms) of the videos listed lately. */
  seen: Record<string, number>;
  /** event id → the dead letter. */
  dead: Record<string, DeadLetter>;
}

const empty = (): FileState => ({
  version: 1,
  seq: 0,
  records: {},
  due: {},
  leases: {},
  fences: {},
  done: {},
  seen: {},
  dead: {},
});

export interface FileStoreOptions {
  /** The state file (created with its directory if missing). */
  path: string;
  /** Time source (tests); default Date.now. */
  now?: () => number;
}

export class FileRelayStore implements RelayStore {
  readonly where: string;
  private readonly path: string;
  private readonly now: () => number;
  private state: FileState = empty();
  /** What the loaded state was read from: another process's write changes it. */
  private loadedFrom = '';
  private readonly listeners = new Set<() => void>();

  constructor(o: FileStoreOptions) {
    this.path = resolve(o.path);
    this.where = this.path;
    this.now = o.now ?? Date.now;
    mkdirSync(dirname(this.path), { recursive: true });
  }

  /** Reads the state without the lock (a rename is atomic: a reader sees a whole file). */
  peek(): FileState {
    this.load();
    return this.state;
  }

  async claim(max: number, leaseMs: number, epoch: number) {
    return this.tx((s, now) => {
      let initialized = false;
      if (s.epoch === undefined) {
        s.epoch = epoch;
        initialized = true;
      }
      if (!s.records[DISCOVERY_ID]) {
        s.records[DISCOVERY_ID] = { kind: 'discovery' };
        s.due[DISCOVERY_ID] = now;
      }
      const tasks: Task[] = [];
      const due = Object.entries(s.due)
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, max);
      for (const [id] of due) {
        const record = s.records[id];
        if (!record) {
          delete s.due[id];
          delete s.leases[id];
          continue;
        }
        const fence = ++s.seq;
        s.fences[id] = fence;
        s.leases[id] = now + leaseMs;
        s.due[id] = now + leaseMs;
        tasks.push({ id, fence, record: structuredClone(record) });
      }
      const next = Math.min(...Object.values(s.due));
      return {
        tasks,
        nextDueInMs: Number.isFinite(next) ? Math.max(0, next - now) : undefined,
        epoch: s.epoch,
        initialized,
      };
    });
  }

  async renew(id: string, fence: number, leaseMs: number) {
    return this.tx((s, now) => {
      if (s.fences[id] !== fence) return false;
      s.leases[id] = now + leaseMs;
      s.due[id] = now + leaseMs;
      return true;
    });
  }

  async release(
    id: string,
    fence: number,
    record: RelayRecord | undefined,
    dueInMs: number | undefined,
    extras: ReleaseExtras = {},
  ) {
    return this.tx((s, now) => {
      if (s.fences[id] !== fence) return false;
      delete s.leases[id];
      if (!record || dueInMs === undefined) {
        delete s.records[id];
        delete s.due[id];
        delete s.fences[id];
        if (id !== DISCOVERY_ID) s.done[id] = now;
      } else {
        s.records[id] = record;
        s.due[id] = now + dueInMs;
        delete s.done[id];
      }
      for (const d of extras.dead ?? []) s.dead[d.event.id] = d;
      for (const e of extras.undead ?? []) delete s.dead[e];
      for (const w of extras.watch ?? []) {
        const vid = w.record.video_id;
        if (s.records[vid] || s.done[vid] !== undefined) continue;
        s.records[vid] = w.record;
        s.due[vid] = now + w.dueInMs;
      }
      for (const [vid, at] of extras.seen ?? []) s.seen[vid] = at;
      if (extras.forgetSeenBefore !== undefined)
        for (const [vid, at] of Object.entries(s.seen)) if (at < extras.forgetSeenBefore) delete s.seen[vid];
      for (const [vid, at] of Object.entries(s.done)) if (at < now - DONE_KEEP_MS) delete s.done[vid];
      return true;
    });
  }

  async save(id: string, fence: number, record: RelayRecord, extras: Pick<ReleaseExtras, 'dead'> = {}) {
    return this.tx((s) => {
      if (s.fences[id] !== fence) return false;
      s.records[id] = record;
      for (const d of extras.dead ?? []) s.dead[d.event.id] = d;
      return true;
    });
  }

  async take(id: string, leaseMs: number) {
    return this.tx((s, now) => {
      if ((s.leases[id] ?? 0) > now) return undefined;
      const fence = ++s.seq;
      s.fences[id] = fence;
      s.leases[id] = now + leaseMs;
      const record = s.records[id];
      if (record) s.due[id] = now + leaseMs;
      return { fence, ...(record && { record: structuredClone(record) }) };
    });
  }

  async known(ids: string[]) {
    this.load();
    const s = this.state;
    return ids.map((id) => !!s.records[id] || s.done[id] !== undefined || s.seen[id] !== undefined);
  }

  async watch(record: VideoRecord, dueInMs: number): Promise<WatchResult> {
    const result = await this.tx((s, now): WatchResult => {
      const id = record.video_id;
      if (s.done[id] !== undefined) return 'done';
      if (s.records[id]) return 'known';
      s.records[id] = record;
      s.due[id] = now + dueInMs;
      return 'added';
    });
    if (result === 'added') await this.wake();
    return result;
  }

  async failed() {
    this.load();
    return Object.values(this.state.dead).sort((a, b) => b.failedAt - a.failedAt);
  }

  async status(): Promise<StoreStatus> {
    this.load();
    const s = this.state;
    return {
      where: this.where,
      records: Object.keys(s.records).filter((id) => id !== DISCOVERY_ID).length,
      done: Object.keys(s.done).length,
      dead: Object.keys(s.dead).length,
      epoch: s.epoch,
    };
  }

  onWake(listener: () => void) {
    this.listeners.add(listener);
  }

  async wake() {
    for (const l of this.listeners) l();
  }

  async close() {
    this.listeners.clear();
  }

  /** One transaction: lock, read what another process wrote, apply, write atomically if anything changed, unlock. */
  private async tx<T>(fn: (s: FileState, now: number) => T): Promise<T> {
    const unlock = await lockfile.lock(this.path, {
      realpath: false,
      // A holder that died (kill -9 inside a transaction) leaves the lock: stale after 5 s without update.
      stale: 5_000,
      retries: { retries: 200, minTimeout: 5, maxTimeout: 100, factor: 1.5 },
    });
    try {
      this.load();
      const before = JSON.stringify(this.state);
      const out = fn(this.state, this.now());
      const after = JSON.stringify(this.state);
      if (after !== before) this.write(after);
      return out;
    } finally {
      await unlock();
    }
  }

  /** Reads the file when it changed since it was last read (or written) here. */
  private load(): void {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(this.path);
    } catch {
      return; // no file yet: the state is empty until the first write
    }
    const mark = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (mark === this.loadedFrom) return;
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as FileState;
    if (parsed?.version !== 1) throw new Error(`${this.path} is not a relay state file (version 1)`);
    this.state = { ...empty(), ...parsed };
    this.loadedFrom = mark;
  }

  /** Writes a temporary file, flushes it, renames it over the state, flushes the directory. */
  private write(text: string): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    try {
      const dir = openSync(dirname(this.path), 'r');
      fsyncSync(dir);
      closeSync(dir);
    } catch {
      // Some file systems refuse to open or flush a directory: the rename is still atomic.
    }
    const st = statSync(this.path);
    this.loadedFrom = `${st.ino}:${st.size}:${st.mtimeMs}`;
  }
}
