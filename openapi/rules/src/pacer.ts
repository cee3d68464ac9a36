// The one pacer of the client and the contract suite. It spaces requests so that no honest limiter
// of interface 8.1 answers 429, and holds video starts to the concurrency limit of 8.2.
//
// Why evenly spaced: 8.1 says "at most 5 requests per 10 seconds (1 per 2 seconds)". A sliding
// window, a fixed window, a token bucket of 5 and an even "1 per 2 s" limiter all accept requests
// that arrive at least window/limit apart; only the last one rejects a burst. So the pacer sends
// one request of a class per window/limit (B: 2 s, A: 5 s), measured from the moment the previous
// response arrived (the latest instant the server can have counted it), plus a small margin.
import { MAX_RUNNING, POLLING, RATE_LIMITS, RETRY_POLICY, type RateClass } from './generated/constants.js';
import {
  headerValue,
  MAX_LEARNED_TIME_SCALE,
  parseRateLimitHeaders,
  parseRetryAfter,
  retryAfterMs,
  type HeaderSource,
} from './headers.js';
import {
  MemoryPacerStore,
  type AccountView,
  type Lesson,
  type PacerStore,
  type ScheduleSnapshot,
} from './pacer-store.js';
import { MAX_TIMER_MS, sleep } from './sleep.js';

/** A wait longer than the pacer accepts (`maxWaitMs`): the call fails instead of hanging for days. */
export class PacerWaitError extends Error {
  constructor(
    readonly rateClass: RateClass,
    /** How long the pacer would have had to wait. */
    readonly waitMs: number,
    readonly maxWaitMs: number,
    /** The server's Retry-After (or RateLimit-Reset) that caused it, in ms, when one did. */
    readonly retryAfterMs?: number,
    /** The server's Retry-After header as it was sent. */
    readonly retryAfter?: string,
  ) {
    super(
      `waiting ${Math.ceil(waitMs / 1000)} s for a class ${rateClass} request exceeds the ceiling of ${Math.ceil(maxWaitMs / 1000)} s`,
    );
    this.name = 'PacerWaitError';
  }
}

export interface PacerOptions {
  now?: () => number;
  /** Sleeps `ms`; rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How much faster than real time the target runs, when known (the sandbox's time scale). */
  timeScale?: number;
  /** Longest wait accepted before a request; beyond it `acquire` throws PacerWaitError. Default 15 min. */
  maxWaitMs?: number;
  /** Extra spacing, as a fraction of the interval (plus 1 ms for clock granularity). Default 0.01. */
  margin?: number;
  /** Where the schedule lives (default: a MemoryPacerStore, this process only; @videogen/pacer-redis shares it). */
  store?: PacerStore;
  /** The name of an account in the store (default: as given), e.g. one every process of the account agrees on. */
  storeName?: (account: string) => string;
}

export interface AcquireOptions {
  /** Which account's limits (keys of one account share them; 5.5). Default: one account. */
  account?: string;
  rateClass: RateClass;
  /** The request starts a video (generate, conversion): it needs a slot of the concurrency limit. */
  startsVideo?: boolean;
  /** The video the request is about (a status read can free a slot). */
  videoId?: string;
  signal?: AbortSignal;
  /** Called with the oldest video believed running when the account is full, to look at its status. */
  checkRunning?: (videoId: string) => Promise<unknown>;
  /**
   * Told before each wait (a trace's spans): how long, and why: `slot` while a start waits for one of the
   * account's running slots, `rate` for the class's spacing (or a server's wait).
   */
  onWait?: (wait: { ms: number; reason: WaitReason }) => void;
}

/** Why `acquire` waits: the class's spacing (or a wait the server asked for), or a running slot. */
export type WaitReason = 'rate' | 'slot';

/** What the request met. No `status`: no response arrived (a network error). */
export interface Outcome {
  status?: number;
  headers?: HeaderSource;
  error_code?: string;
  /** The `video_id` a started video got. */
  video_id?: string;
  /** The `status` of a status view. */
  videoStatus?: string;
}

export interface Ticket {
  /**
   * Tell the pacer what happened; call exactly once, also after a network error. The schedule in this
   * process has it at once; the promise resolves when a shared store has it too (it never rejects).
   */
  settle(outcome?: Outcome): Promise<void>;
}

export interface PacerStats {
  /** Total time callers waited in `acquire`, ms. */
  waitedMs: number;
  /** Rate-limit 429s met, per class. */
  limited: Record<RateClass, number>;
  /** 503s met on video starts. */
  full: number;
}

/** A 429 multiplies the class's spacing by this, up to SLOWDOWN_MAX: the limiter is stricter than read. */
const SLOWDOWN = { factor: 1.5, max: 4 };
/** How long a place is held for a process that shows no sign of life (a shared store renews live ones). */
const LEASE_MS = 15_000;

export class Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly margin: number;
  readonly maxWaitMs: number;
  /** Target time per real time: 1 for the real service, 1/60 for a sandbox at 60×. */
  private scale: number | undefined;
  /** Where the schedule lives: this process (default) or a store every process of the account shares. */
  readonly store: PacerStore;
  /** The name of an account in the store. */
  private readonly storeName: (account: string) => string;
  private readonly sleepers = new Set<() => void>();
  /** The last rate-limit 429's Retry-After (or RateLimit-Reset) per account and class, as the server said it: reported, never slept. */
  private readonly retryAfter = new Map<string, { ms?: number; raw?: string }>();
  /** Off for targets without limits (a stateless mock). */
  enabled = true;
  readonly stats: PacerStats = { waitedMs: 0, limited: { A: 0, B: 0 }, full: 0 };

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleep;
    this.margin = options.margin ?? 0.01;
    this.maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
    if (options.timeScale && options.timeScale > 0) this.scale = 1 / options.timeScale;
    this.store = options.store ?? new MemoryPacerStore(this.now);
    this.storeName = options.storeName ?? ((account) => account);
    this.store.onChange?.(() => this.wakeAll());
  }

  /**
   * The class's window and limit in force: the server's statement, else the spec's (scaled). A statement
   * stricter than the spec's is believed up to SLOWDOWN.max times the spec's spacing, the most a 429's
   * slowdown reaches: one answer saying `1;w=100000` must not hold every process of the account for a
   * day. A server stricter still says so with its 429s, each wait capped (MAX_RETRY_AFTER_MS). A faster
   * one is believed up to MAX_LEARNED_TIME_SCALE times the interface's pace.
   */
  limitOf(rateClass: RateClass, account = ''): { limit: number; windowMs: number } {
    const nominal = RATE_LIMITS[rateClass];
    const spec = { limit: nominal.requests, windowMs: nominal.windowMs * (this.scale ?? 1) };
    const learned = this.view(account).classes[rateClass].learned;
    if (!learned) return spec;
    const said = learned.windowMs / learned.limit;
    const ceiling = (spec.windowMs / spec.limit) * SLOWDOWN.max;
    const floor = nominal.windowMs / nominal.requests / MAX_LEARNED_TIME_SCALE;
    const spacing = Math.min(Math.max(said, floor), ceiling);
    return spacing === said ? learned : { limit: learned.limit, windowMs: learned.limit * spacing };
  }

  /** Time between two requests of the class, margin and slowdown included. */
  intervalOf(rateClass: RateClass, account = ''): number {
    const { limit, windowMs } = this.limitOf(rateClass, account);
    const base = (windowMs / limit) * this.view(account).classes[rateClass].slowdown;
    return base * (1 + this.margin) + 1;
  }

  /** Waits until the request may go, then holds its place until `settle`. */
  async acquire(options: AcquireOptions): Promise<Ticket> {
    const { account = '', rateClass, startsVideo = false, signal } = options;
    const name = this.storeName(account);
    let lease: string | undefined;
    while (this.enabled) {
      signal?.throwIfAborted();
      const interval = this.intervalOf(rateClass, account);
      const taken = await this.store.take(name, {
        rateClass,
        gapMs: interval,
        busyMs: interval,
        startsVideo,
        maxRunning: MAX_RUNNING,
        canCheck: !!options.checkRunning,
        pollMs: this.pollMs(),
        leaseMs: LEASE_MS * (this.scale ?? 1),
      });
      if ('lease' in taken) {
        lease = taken.lease;
        break;
      }
      // A start waits for a slot while the account is believed full; anything else, for the class.
      const reason = (): WaitReason => (startsVideo && this.view(account).running >= MAX_RUNNING ? 'slot' : 'rate');
      if (taken.check && options.checkRunning) {
        options.onWait?.({ ms: 0, reason: reason() });
        await options.checkRunning(taken.check).catch(() => {});
        continue;
      }
      const wait = taken.waitMs;
      if (wait > this.maxWaitMs) {
        const said = this.retryAfter.get(`${account} ${rateClass}`);
        throw new PacerWaitError(rateClass, wait, this.maxWaitMs, said?.ms, said?.raw);
      }
      options.onWait?.({ ms: wait, reason: reason() });
      await this.pause(wait, signal);
    }
    let settled: Promise<void> | undefined;
    return {
      settle: (outcome = {}) => {
        if (settled) return settled;
        const lesson = this.learn(account, rateClass, options, outcome);
        if (lease === undefined) return (settled = Promise.resolve());
        settled = Promise.resolve(
          this.store.settle(name, {
            ...lesson,
            lease,
            rateClass,
            startsVideo,
            runningTtlMs: this.runningTtlMs(),
          }),
        )
          .catch(() => {})
          .finally(() => this.wakeAll());
        this.wakeAll();
        return settled;
      },
    };
  }

  /** Videos of the account already running, learned elsewhere (another process, an earlier run). */
  noteRunning(videoIds: Iterable<string>, account = ''): void {
    void Promise.resolve(this.store.noteRunning(this.storeName(account), [...videoIds], this.runningTtlMs())).catch(
      () => {},
    );
  }

  /** How many videos the pacer believes the account runs. */
  runningCount(account = ''): number {
    return this.view(account).running;
  }

  /** A request sent without pacing (a deliberate burst): later requests wait a whole window after it. */
  record(rateClass: RateClass, at = this.now(), account = ''): void {
    const windowMs = this.fullWindow(rateClass, account);
    void Promise.resolve(this.store.record(this.storeName(account), rateClass, this.now() - at, windowMs)).catch(
      () => {},
    );
  }

  /** Waits until the class's window is empty on any limiter (before a deliberate burst). */
  async drain(rateClass: RateClass, account = '', signal?: AbortSignal): Promise<void> {
    while (this.enabled) {
      const taken = await this.store.take(this.storeName(account), {
        rateClass,
        gapMs: this.fullWindow(rateClass, account),
        busyMs: this.intervalOf(rateClass, account),
        startsVideo: false,
        maxRunning: MAX_RUNNING,
        canCheck: false,
        pollMs: this.pollMs(),
        leaseMs: LEASE_MS * (this.scale ?? 1),
        peek: true,
      });
      const wait = 'waitMs' in taken ? taken.waitMs : 0;
      if (wait <= 0) return;
      if (wait > this.maxWaitMs) {
        const said = this.retryAfter.get(`${account} ${rateClass}`);
        throw new PacerWaitError(rateClass, wait, this.maxWaitMs, said?.ms, said?.raw);
      }
      await this.pause(wait, signal);
    }
  }

  /**
   * Forgets an account no request of which is in flight or waiting (a pacing proxy's key not seen for
   * long): its schedule and the server's last words about it. False when the schedule still holds
   * something (a video running, a wait pending): ask again later. A store without `forget` (a shared
   * one keeps its own) has nothing to drop here.
   */
  forget(account = ''): boolean {
    for (const c of ['A', 'B'] as const) this.retryAfter.delete(`${account} ${c}`);
    return this.store.forget?.(this.storeName(account)) ?? true;
  }

  /**
   * The account's schedule as the store holds it now (a shared store: every process's), for an operator
   * to read; takes no place. Rejects when the store cannot say (a shared store unreachable, or one
   * without `inspect`).
   */
  async inspect(account = ''): Promise<ScheduleSnapshot> {
    if (!this.store.inspect) throw new TypeError('this pacer store cannot be inspected (it has no inspect method)');
    return this.store.inspect(this.storeName(account));
  }

  /** Ends a shared store's connection (the default store holds none). */
  async close(): Promise<void> {
    await this.store.close?.();
  }

  private view(account: string): AccountView {
    const view = this.store.view(this.storeName(account));
    // A shared store may know a policy another process learned: its time scale holds here too.
    if (this.scale === undefined)
      for (const c of ['B', 'A'] as const) {
        const policy = view.classes[c].learned;
        if (policy) this.learnScale(c, policy);
      }
    return view;
  }

  private learnScale(rateClass: RateClass, policy: { limit: number; windowMs: number }): void {
    // Compared per request, not per window: an even limiter states "5 per 10 s" as `1;w=2`.
    const nominal = RATE_LIMITS[rateClass];
    const scale = policy.windowMs / policy.limit / (nominal.windowMs / nominal.requests);
    // A target faster than real time (a sandbox's --time-scale) runs its clock faster; a policy stricter
    // than the spec's is a stricter limit of its class (limitOf), never a slower clock for the running
    // slots, the polling and the leases of every class.
    if (scale <= 1) this.scale ??= Math.max(scale, 1 / MAX_LEARNED_TIME_SCALE);
  }

  private pollMs(): number {
    return POLLING.intervalMs * (this.scale ?? 1);
  }

  /** The longest a started video holds a slot unseen: the interface's polling limit (4.7). */
  private runningTtlMs(): number {
    return POLLING.timeoutMs * (this.scale ?? 1);
  }

  private fullWindow(rateClass: RateClass, account: string): number {
    const { windowMs } = this.limitOf(rateClass, account);
    return windowMs * (1 + this.margin) + 1;
  }

  private wakeAll(): void {
    for (const wake of this.sleepers) wake();
  }

  /** Sleeps at most `ms`; any settled request wakes the sleepers early, since it may change the answer. */
  private async pause(ms: number, signal?: AbortSignal): Promise<void> {
    const started = this.now();
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.sleepers.add(wake);
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    try {
      await Promise.race([
        this.sleep(Math.min(ms, MAX_TIMER_MS), both).catch((e) => (signal?.aborted ? Promise.reject(e) : undefined)),
        woken,
      ]);
    } finally {
      stop.abort();
      this.sleepers.delete(wake);
      this.stats.waitedMs += Math.max(0, this.now() - started);
    }
  }

  /** What an answer teaches the schedule, read from its status and headers. */
  private learn(account: string, rateClass: RateClass, options: AcquireOptions, outcome: Outcome): Lesson {
    const lesson: Lesson = {};
    const now = this.now();
    const { status, headers } = outcome;
    if (headers) {
      const info = parseRateLimitHeaders(headers);
      const policy = info.policies[0];
      if (policy && policy.limit > 0) {
        lesson.learned = { limit: policy.limit, windowMs: policy.windowMs };
        // The other class runs at the same time scale until it says otherwise.
        this.learnScale(rateClass, policy);
      }
      if (info.remaining === 0 && info.resetMs !== undefined) lesson.blockForMs = info.resetMs;
    }
    const retryAfter = headers ? headerValue(headers, 'retry-after') : undefined;
    // What to wait (capped) and what the server said (reported on errors): never mixed up.
    const waitMs = parseRetryAfter(retryAfter, now);
    // A 429 for insufficient credit is not the rate limit (x-retry-policy): waiting adds no credit.
    const creditOnly = RETRY_POLICY.noRetry.some(([s, c]) => s === status && c === outcome.error_code);
    if (status === 429 && !creditOnly) {
      this.stats.limited[rateClass]++;
      lesson.slowdown = SLOWDOWN;
      const resetMs = waitMs ?? (headers ? parseRateLimitHeaders(headers).resetMs : undefined);
      this.retryAfter.set(`${account} ${rateClass}`, { ms: retryAfterMs(retryAfter, now) ?? resetMs, raw: retryAfter });
      lesson.blockForMs = Math.max(
        lesson.blockForMs ?? 0,
        resetMs ?? this.fullWindow(rateClass, options.account ?? ''),
      );
    }
    if (status === 503 && options.startsVideo) {
      this.stats.full++;
      lesson.fullForMs = waitMs ?? RETRY_POLICY.serviceUnavailableDelayMs[0] * (this.scale ?? 1);
    }
    if (status === 404 && options.videoId) lesson.finished = options.videoId;
    if (status === undefined || status < 200 || status > 299) return lesson;
    if (options.startsVideo && outcome.video_id) lesson.started = outcome.video_id;
    else if (options.videoId && outcome.videoStatus && outcome.videoStatus !== 'running')
      lesson.finished = options.videoId;
    return lesson;
  }
}

/**
 * The least wall time the limits impose on a sequence of requests sent one after another at the
 * pacer's even spacing: (n − 1) intervals per class, the classes overlapping. For benchmarks and plans.
 */
export function pacingFloorMs(counts: Partial<Record<RateClass, number>>, timeScale = 1): number {
  let floor = 0;
  for (const [c, n] of Object.entries(counts) as Array<[RateClass, number]>) {
    const { requests, windowMs } = RATE_LIMITS[c];
    if (n > 1) floor = Math.max(floor, ((n - 1) * windowMs) / requests / timeScale);
  }
  return floor;
}
