// Where the pacer keeps an account's schedule: the class A and B windows of 8.1, the running slots of
// 8.2, and what the server said (Retry-After, RateLimit-*, a 503's wait). The pacer (pacer.ts) decides
// what to ask and how long to sleep; a store answers atomically whether a request may go now. Two
// implementations: MemoryPacerStore below (one process, the default) and the Redis one of
// @videogen/pacer-redis (every process of an account, decisions made by Lua scripts on Redis's clock).
//
// Every time crossing this interface is a duration relative to the store's own "now", never an
// absolute instant: processes on other machines (and Redis) need not agree on the time of day.
import type { RateClass } from './generated/constants.js';
import type { WaitReason } from './waits.js';

export type MaybePromise<T> = T | Promise<T>;

export interface TakeRequest {
  rateClass: RateClass;
  /** Least time between the previous answer of the class and the next request. */
  gapMs: number;
  /** How long to wait when a request of the class is still in flight (its answer will wake the waiter). */
  busyMs: number;
  /** The request starts a video: it also needs one of `maxRunning` slots. */
  startsVideo: boolean;
  maxRunning: number;
  /** The caller can read a running video's status: when the account is full, the store may name one. */
  canCheck: boolean;
  /** At most one such status read per account per this long (the polling interval). */
  pollMs: number;
  /** Only look (drain): say how long until the class is free, take nothing. */
  peek?: boolean;
  /** How long a taken place is held without a sign of life from its process (shared stores renew it). */
  leaseMs: number;
}

export type TakeResult =
  | { lease: string }
  /**
   * Not now: wait `waitMs`; `check` names a running video whose status the caller should read first;
   * `reason` says what the wait is for (the store that knows says it).
   */
  | { waitMs: number; check?: string; reason?: WaitReason };

/** What an answer taught, as the pacer read it (pacer.ts `learn`). */
export interface Lesson {
  /** The server's RateLimit-Policy for the class: held one window from now (at most an hour), unless said again. */
  learned?: { limit: number; windowMs: number };
  /** No request of the class before this long from now (RateLimit-Remaining 0, a 429's reset). */
  blockForMs?: number;
  /** A rate-limit 429: the limiter is stricter than read; the class's spacing grows by this factor... */
  slowdown?: { factor: number; max: number };
  /** A 503 on a start: no start of the account before this long from now. */
  fullForMs?: number;
  /** A start's new video: it holds a running slot until seen finished, or `runningTtlMs` at most. */
  started?: string;
  /** A video seen in another state than running (or 404): its slot is free. */
  finished?: string;
}

export interface Settlement extends Lesson {
  lease: string;
  rateClass: RateClass;
  startsVideo: boolean;
  /** The longest a video holds a slot without being seen finished (the interface's polling limit). */
  runningTtlMs: number;
}

/** An account's schedule as the store last saw it: what the pacer's synchronous getters read. */
export interface AccountView {
  classes: Record<RateClass, { learned?: { limit: number; windowMs: number }; slowdown: number }>;
  /** Videos believed running, starts in flight included. */
  running: number;
}

/**
 * An account's schedule as an operator reads it (`videogen pacing`, `client.schedule()`): what the
 * store holds now, every time a duration from now. Read only: reading it takes no place.
 */
export interface ScheduleSnapshot {
  /** `shared`: read from the store every process of the account uses (Redis); `process`: this process's own. */
  scope: 'shared' | 'process';
  classes: Record<
    RateClass,
    {
      /** Requests of the class sent and not answered yet. */
      inFlight: number;
      /** Since the class's last answer; absent when none is known. */
      lastAnswerAgoMs?: number;
      /** The server said no request of the class before this long from now (0: nothing pending). */
      blockedForMs: number;
      /** The class's spacing grown by 429s (1: as stated). */
      slowdown: number;
      /** The server's RateLimit-Policy for the class, when one was read. */
      learned?: { limit: number; windowMs: number };
    }
  >;
  /** Videos holding a running slot, each until seen finished or until its slot lapses (absent: never). */
  running: Array<{ videoId: string; lapsesInMs?: number }>;
  /** Starts sent and not answered yet: each holds a slot too. */
  startsInFlight: number;
  /** A 503 said the account is full: no start before this long from now (0: nothing pending). */
  fullForMs: number;
  /** Processes pacing the account (a shared store counts those that decided lately; here, 1). */
  processes: number;
  /**
   * Requests the pacer holds now (every process's, with a shared store): their class, whether they start a
   * video, what they wait for, and since how long. Absent from a store that does not keep them.
   */
  waiting?: Waiting[];
}

/** A request held by the pacer, as `inspect` shows it. */
export interface Waiting {
  rateClass: RateClass;
  startsVideo: boolean;
  reason?: WaitReason;
  /** Since when it waits, as a duration. */
  forMs: number;
}

/** A wait as the pacer tells its store (noteWaiting), for an operator's `inspect`. */
export interface WaitingNote {
  /** Unique among the waits of one pacer. */
  id: string;
  rateClass: RateClass;
  startsVideo: boolean;
  reason?: WaitReason;
  /** How long it is about to sleep (a shared store forgets a wait whose process stops past it). */
  waitMs: number;
}

export interface PacerStore {
  take(account: string, request: TakeRequest): MaybePromise<TakeResult>;
  /** Gives a taken place back with what its answer taught. Never rejects. */
  settle(account: string, settlement: Settlement): MaybePromise<void>;
  /** Videos of the account running already, learned elsewhere. */
  noteRunning(account: string, videoIds: string[], runningTtlMs: number): MaybePromise<void>;
  /** A request sent without a place (a deliberate burst), `agoMs` ago: the class waits `windowMs` after it. */
  record(account: string, rateClass: RateClass, agoMs: number, windowMs: number): MaybePromise<void>;
  view(account: string): AccountView;
  /** Calls `listener` when another process changed a schedule (a shared store): sleepers look again. */
  onChange?(listener: () => void): void;
  /**
   * Drops an account's schedule when it holds nothing a fresh one would not (no request in flight, no
   * video running, no wait pending): a long-lived process (the pacing proxy) meeting many keys stays
   * bounded. Returns whether it was dropped. A shared store may keep its own (with its own expiry).
   */
  forget?(account: string): boolean;
  /** The account's schedule as it stands (ScheduleSnapshot); rejects when a shared store cannot be read. */
  inspect?(account: string): MaybePromise<ScheduleSnapshot>;
  /** A request the pacer holds (told before each of its sleeps): `inspect` lists it until `doneWaiting`. Never rejects. */
  noteWaiting?(account: string, note: WaitingNote): MaybePromise<void>;
  /** The held request went (or gave up). Never rejects. */
  doneWaiting?(account: string, id: string): MaybePromise<void>;
  close?(): Promise<void>;
}

interface ClassState {
  inFlight: number;
  /** When the last request's response arrived: the server counted it by then. */
  lastAt: number;
  /** The server said no request is free before then. */
  blockedUntil: number;
  learned?: { limit: number; windowMs: number };
  /** The policy read holds until then (one window after the answer that said it), unless said again. */
  learnedUntil: number;
  /** Grows with every 429: the limiter is stricter than we read it. */
  slowdown: number;
}

interface AccountState {
  classes: Record<RateClass, ClassState>;
  /** Videos started (or reported) and not yet seen finished, with when their slot lapses. */
  running: Map<string, number>;
  starting: number;
  /** A 503 said the account is full until then. */
  fullUntil: number;
  /** The last status read the store asked for while the account was full. */
  checkedAt: number;
}

/** The policy a class learned, while it holds. */
const learnedAt = (c: ClassState, now: number) => (c.learnedUntil > now ? c.learned : undefined);

/** The schedule in this process: the default, and what a shared store falls back to. */
export class MemoryPacerStore implements PacerStore {
  private readonly accounts = new Map<string, AccountState>();
  private readonly waiters = new Map<string, Map<string, Omit<WaitingNote, 'id' | 'waitMs'> & { since: number }>>();
  private leases = 0;

  constructor(private readonly now: () => number = Date.now) {}

  take(account: string, r: TakeRequest): TakeResult {
    const state = this.account(account);
    const cls = state.classes[r.rateClass];
    const now = this.now();
    // A request in flight has not been counted for sure yet: the next one waits for its answer.
    let wait = cls.inFlight > 0 ? r.busyMs : Math.max(0, Math.max(cls.lastAt + r.gapMs, cls.blockedUntil) - now);
    let reason: WaitReason =
      cls.inFlight > 0 ? 'in-flight' : cls.blockedUntil > cls.lastAt + r.gapMs ? 'server' : 'spacing';
    if (wait === 0 && r.startsVideo) {
      wait = Math.max(0, state.fullUntil - now);
      reason = 'refused';
      if (wait === 0 && this.runningOf(state, now) >= r.maxRunning) {
        const oldest = this.oldest(state);
        if (r.canCheck && oldest && now - state.checkedAt >= r.pollMs) {
          state.checkedAt = now;
          return { waitMs: 0, check: oldest };
        }
        // Some other request (a status read) will free a slot and wake us; look again at the polling pace anyway.
        wait = r.pollMs;
        reason = 'full';
      }
    }
    // A start held while the account's videos fill every slot waits for a slot, whatever else it waits out
    // first (the spacing of its class): the reason an operator and a trace are told.
    if (wait > 0 && r.startsVideo && reason !== 'server' && this.runningOf(state, now) >= r.maxRunning) reason = 'full';
    if (r.peek || wait > 0) return { waitMs: wait, reason };
    this.hold(state, r);
    return { lease: String(++this.leases) };
  }

  /** Accounts whose schedule this store holds. */
  get size(): number {
    return this.accounts.size;
  }

  noteWaiting(account: string, { id, waitMs: _waitMs, ...w }: WaitingNote): void {
    let held = this.waiters.get(account);
    if (!held) this.waiters.set(account, (held = new Map()));
    const since = held.get(id)?.since ?? this.now();
    held.set(id, { ...w, since });
  }

  doneWaiting(account: string, id: string): void {
    const held = this.waiters.get(account);
    held?.delete(id);
    if (held?.size === 0) this.waiters.delete(account);
  }

  forget(account: string): boolean {
    if (this.waiters.get(account)?.size) return false;
    const state = this.accounts.get(account);
    if (!state) return true;
    const now = this.now();
    const idle = (c: ClassState) => c.inFlight === 0 && c.blockedUntil <= now;
    if (!idle(state.classes.A) || !idle(state.classes.B) || state.fullUntil > now) return false;
    if (this.runningOf(state, now) > 0) return false;
    // What it learned (a policy, a slowdown) goes too: the server says it again on the next answer.
    this.accounts.delete(account);
    return true;
  }

  /** Takes a place without asking (a shared store granted it): this process's own view stays whole. */
  force(account: string, r: Pick<TakeRequest, 'rateClass' | 'startsVideo'>): string {
    this.hold(this.account(account), r);
    return String(++this.leases);
  }

  settle(account: string, s: Settlement): void {
    const state = this.account(account);
    const cls = state.classes[s.rateClass];
    const now = this.now();
    cls.inFlight = Math.max(0, cls.inFlight - 1);
    if (s.startsVideo) state.starting = Math.max(0, state.starting - 1);
    cls.lastAt = Math.max(cls.lastAt, now);
    this.apply(state, s.rateClass, s, now, s.runningTtlMs);
  }

  /** What another process taught (a shared store's reply), without a place to give back. */
  apply(
    state: AccountState | string,
    rateClass: RateClass,
    lesson: Lesson & { lastAgoMs?: number },
    now = this.now(),
    runningTtlMs = Infinity,
  ): void {
    const s = typeof state === 'string' ? this.account(state) : state;
    const cls = s.classes[rateClass];
    if (lesson.lastAgoMs !== undefined) cls.lastAt = Math.max(cls.lastAt, now - lesson.lastAgoMs);
    if (lesson.learned) {
      cls.learned = lesson.learned;
      cls.learnedUntil = now + lesson.learned.windowMs;
    }
    if (lesson.blockForMs !== undefined) cls.blockedUntil = Math.max(cls.blockedUntil, now + lesson.blockForMs);
    if (lesson.slowdown) cls.slowdown = Math.min(cls.slowdown * lesson.slowdown.factor, lesson.slowdown.max);
    if (lesson.fullForMs !== undefined) s.fullUntil = Math.max(s.fullUntil, now + lesson.fullForMs);
    if (lesson.started) s.running.set(lesson.started, now + runningTtlMs);
    if (lesson.finished) s.running.delete(lesson.finished);
  }

  noteRunning(account: string, videoIds: string[], runningTtlMs: number): void {
    const state = this.account(account);
    for (const id of videoIds) state.running.set(id, this.now() + runningTtlMs);
  }

  /**
   * The account's running videos as a shared store holds them (each with how long its slot lasts),
   * replacing this store's own list: a process that loses the shared store then knows the slots the
   * others held. Videos `keep` names (this process's own, whose news may not have reached the shared
   * store yet) stay.
   */
  mirrorRunning(account: string, videos: Array<{ id: string; ttlMs: number }>, keep: (id: string) => boolean): void {
    const state = this.account(account);
    const now = this.now();
    for (const id of state.running.keys()) if (!keep(id)) state.running.delete(id);
    for (const v of videos) state.running.set(v.id, Math.max(state.running.get(v.id) ?? 0, now + v.ttlMs));
  }

  /** The videos holding a running slot of the account now (starts in flight not included). */
  runningVideos(account: string): string[] {
    const state = this.accounts.get(account);
    if (!state) return [];
    this.runningOf(state, this.now());
    return [...state.running.keys()];
  }

  record(account: string, rateClass: RateClass, agoMs: number, windowMs: number): void {
    const cls = this.account(account).classes[rateClass];
    const at = this.now() - agoMs;
    cls.lastAt = Math.max(cls.lastAt, at);
    cls.blockedUntil = Math.max(cls.blockedUntil, at + windowMs);
  }

  view(account: string): AccountView {
    const state = this.account(account);
    const now = this.now();
    const { A, B } = state.classes;
    return {
      classes: {
        A: { learned: learnedAt(A, now), slowdown: A.slowdown },
        B: { learned: learnedAt(B, now), slowdown: B.slowdown },
      },
      running: this.runningOf(state, now),
    };
  }

  inspect(account: string): ScheduleSnapshot {
    const now = this.now();
    const state = this.account(account);
    const cls = (c: ClassState) => ({
      inFlight: c.inFlight,
      ...(Number.isFinite(c.lastAt) ? { lastAnswerAgoMs: Math.max(0, now - c.lastAt) } : {}),
      blockedForMs: Math.max(0, c.blockedUntil - now),
      slowdown: c.slowdown,
      ...(learnedAt(c, now) ? { learned: c.learned } : {}),
    });
    this.runningOf(state, now);
    return {
      scope: 'process',
      classes: { A: cls(state.classes.A), B: cls(state.classes.B) },
      running: [...state.running].map(([videoId, until]) =>
        Number.isFinite(until) ? { videoId, lapsesInMs: Math.max(0, until - now) } : { videoId },
      ),
      startsInFlight: state.starting,
      fullForMs: Math.max(0, state.fullUntil - now),
      processes: 1,
      waiting: [...(this.waiters.get(account)?.values() ?? [])].map(({ since, ...w }) => ({
        ...w,
        forMs: Math.max(0, now - since),
      })),
    };
  }

  /** This process's schedule of every account, as durations from now (a shared store pushes it back after an outage). */
  snapshot(): Array<{
    account: string;
    classes: Record<RateClass, { lastAgoMs?: number; blockForMs: number; slowdown: number }>;
    fullForMs: number;
    running: Array<{ id: string; ttlMs: number }>;
  }> {
    const now = this.now();
    return [...this.accounts].map(([account, s]) => {
      const cls = (c: ClassState) => ({
        lastAgoMs: Number.isFinite(c.lastAt) ? now - c.lastAt : undefined,
        blockForMs: Math.max(0, c.blockedUntil - now),
        slowdown: c.slowdown,
      });
      return {
        account,
        classes: { A: cls(s.classes.A), B: cls(s.classes.B) },
        fullForMs: Math.max(0, s.fullUntil - now),
        running: [...s.running]
          .filter(([, until]) => until > now)
          .map(([id, until]) => ({ id, ttlMs: Number.isFinite(until) ? until - now : 0 })),
      };
    });
  }

  private hold(state: AccountState, r: Pick<TakeRequest, 'rateClass' | 'startsVideo'>): void {
    state.classes[r.rateClass].inFlight++;
    if (r.startsVideo) state.starting++;
  }

  private runningOf(state: AccountState, now: number): number {
    for (const [id, until] of state.running) if (until <= now) state.running.delete(id);
    return state.running.size + state.starting;
  }

  /** The video started first (a Map keeps insertion order). */
  private oldest(state: AccountState): string | undefined {
    for (const id of state.running.keys()) return id;
    return undefined;
  }

  private account(name: string): AccountState {
    let state = this.accounts.get(name);
    if (!state) {
      const cls = (): ClassState => ({ inFlight: 0, lastAt: -Infinity, blockedUntil: 0, slowdown: 1, learnedUntil: 0 });
      state = { classes: { A: cls(), B: cls() }, running: new Map(), starting: 0, fullUntil: 0, checkedAt: -Infinity };
      this.accounts.set(name, state);
    }
    return state;
  }
}
