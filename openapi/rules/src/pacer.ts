// The one pacer of the client and the contract suite. It spaces requests so that no honest limiter
// of interface 8.1 answers 429, and holds video starts to the concurrency limit of 8.2.
//
// Why evenly spaced: 8.1 says "at most 5 requests per 10 seconds (1 per 2 seconds)". A sliding
// window, a fixed window, a token bucket of 5 and an even "1 per 2 s" limiter all accept requests
// that arrive at least window/limit apart; only the last one rejects a burst. So the pacer sends
// one request of a class per window/limit (B: 2 s, A: 5 s), measured from the moment the previous
// response arrived (the latest instant the server can have counted it), plus a small margin.
import { MAX_RUNNING, POLLING, RATE_LIMITS, RETRY_POLICY, type RateClass } from './generated/constants.js';
import { headerValue, parseRateLimitHeaders, parseRetryAfter, retryAfterMs, type HeaderSource } from './headers.js';
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
}

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
  /** Tell the pacer what happened; call exactly once, also after a network error. */
  settle(outcome?: Outcome): void;
}

interface ClassState {
  inFlight: number;
  /** When the last request's response arrived: the server counted it by then. */
  lastAt: number;
  /** The server said no request is free before then. */
  blockedUntil: number;
  /** The server's own statement (RateLimit-Policy). */
  learned?: { limit: number; windowMs: number };
  /** Grows with every 429: the limiter is stricter than we read it. */
  slowdown: number;
  /** The last rate-limit 429's Retry-After (or RateLimit-Reset) as the server said it, uncapped: reported, never slept. */
  retryAfterMs?: number;
  retryAfter?: string;
}

interface Account {
  classes: Record<RateClass, ClassState>;
  /** Videos started (or reported) and not yet seen finished. */
  running: Set<string>;
  starting: number;
  /** A 503 said the account is full until then. */
  fullUntil: number;
}

export interface PacerStats {
  /** Total time callers waited in `acquire`, ms. */
  waitedMs: number;
  /** Rate-limit 429s met, per class. */
  limited: Record<RateClass, number>;
  /** 503s met on video starts. */
  full: number;
}

export class Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly margin: number;
  readonly maxWaitMs: number;
  /** Target time per real time: 1 for the real service, 1/60 for a sandbox at 60×. */
  private scale: number | undefined;
  private readonly accounts = new Map<string, Account>();
  private readonly sleepers = new Set<() => void>();
  /** Off for targets without limits (a stateless mock). */
  enabled = true;
  readonly stats: PacerStats = { waitedMs: 0, limited: { A: 0, B: 0 }, full: 0 };

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleep;
    this.margin = options.margin ?? 0.01;
    this.maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
    if (options.timeScale && options.timeScale > 0) this.scale = 1 / options.timeScale;
  }

  /** The class's window and limit in force: the server's statement, else the spec's (scaled). */
  limitOf(rateClass: RateClass, account = ''): { limit: number; windowMs: number } {
    const learned = this.account(account).classes[rateClass].learned;
    if (learned) return learned;
    const nominal = RATE_LIMITS[rateClass];
    return { limit: nominal.requests, windowMs: nominal.windowMs * (this.scale ?? 1) };
  }

  /** Time between two requests of the class, margin and slowdown included. */
  intervalOf(rateClass: RateClass, account = ''): number {
    const { limit, windowMs } = this.limitOf(rateClass, account);
    const base = (windowMs / limit) * this.account(account).classes[rateClass].slowdown;
    return base * (1 + this.margin) + 1;
  }

  /** Waits until the request may go, then holds its place until `settle`. */
  async acquire(options: AcquireOptions): Promise<Ticket> {
    const { account = '', rateClass, startsVideo = false, signal } = options;
    const state = this.account(account);
    const cls = state.classes[rateClass];
    for (let checked = false; this.enabled; ) {
      signal?.throwIfAborted();
      let wait = this.rateWait(cls, rateClass, account);
      if (wait === 0 && startsVideo) {
        wait = Math.max(0, state.fullUntil - this.now());
        if (wait === 0 && this.isFull(state)) {
          const [oldest] = state.running;
          if (!checked && oldest && options.checkRunning) {
            checked = true;
            await options.checkRunning(oldest).catch(() => {});
            continue;
          }
          // Some other request (a status read) will free a slot and wake us; look again at the polling pace anyway.
          wait = POLLING.intervalMs * (this.scale ?? 1);
          checked = false;
        }
      }
      if (wait === 0) break;
      if (wait > this.maxWaitMs)
        throw new PacerWaitError(rateClass, wait, this.maxWaitMs, cls.retryAfterMs, cls.retryAfter);
      await this.pause(wait, signal);
    }
    cls.inFlight++;
    if (startsVideo) state.starting++;
    let settled = false;
    return {
      settle: (outcome = {}) => {
        if (settled) return;
        settled = true;
        cls.inFlight--;
        cls.lastAt = this.now();
        if (startsVideo) state.starting--;
        this.learn(state, rateClass, options, outcome);
        for (const wake of this.sleepers) wake();
      },
    };
  }

  /** Videos of the account already running, learned elsewhere (another process, an earlier run). */
  noteRunning(videoIds: Iterable<string>, account = ''): void {
    for (const id of videoIds) this.account(account).running.add(id);
  }

  /** How many videos the pacer believes the account runs. */
  runningCount(account = ''): number {
    const state = this.account(account);
    return state.running.size + state.starting;
  }

  /** A request sent without pacing (a deliberate burst): later requests wait a whole window after it. */
  record(rateClass: RateClass, at = this.now(), account = ''): void {
    const cls = this.account(account).classes[rateClass];
    cls.lastAt = Math.max(cls.lastAt, at);
    cls.blockedUntil = Math.max(cls.blockedUntil, at + this.fullWindow(rateClass, account));
  }

  /** Waits until the class's window is empty on any limiter (before a deliberate burst). */
  async drain(rateClass: RateClass, account = '', signal?: AbortSignal): Promise<void> {
    const cls = this.account(account).classes[rateClass];
    while (this.enabled) {
      const until = Math.max(cls.blockedUntil, cls.lastAt + this.fullWindow(rateClass, account));
      const wait = cls.inFlight > 0 ? this.intervalOf(rateClass, account) : until - this.now();
      if (wait <= 0) return;
      if (wait > this.maxWaitMs)
        throw new PacerWaitError(rateClass, wait, this.maxWaitMs, cls.retryAfterMs, cls.retryAfter);
      await this.pause(wait, signal);
    }
  }

  private fullWindow(rateClass: RateClass, account: string): number {
    const { windowMs } = this.limitOf(rateClass, account);
    return windowMs * (1 + this.margin) + 1;
  }

  private rateWait(cls: ClassState, rateClass: RateClass, account: string): number {
    // A request in flight has not been counted for sure yet: the next one waits for its answer.
    if (cls.inFlight > 0) return this.intervalOf(rateClass, account);
    const next = Math.max(cls.lastAt + this.intervalOf(rateClass, account), cls.blockedUntil);
    return Math.max(0, next - this.now());
  }

  private isFull(state: Account): boolean {
    return state.running.size + state.starting >= MAX_RUNNING;
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

  private learn(state: Account, rateClass: RateClass, options: AcquireOptions, outcome: Outcome): void {
    const cls = state.classes[rateClass];
    const now = this.now();
    const { status, headers } = outcome;
    if (headers) {
      const info = parseRateLimitHeaders(headers);
      const policy = info.policies[0];
      if (policy && policy.limit > 0) {
        cls.learned = { limit: policy.limit, windowMs: policy.windowMs };
        // The other class runs at the same time scale until it says otherwise. Compared per request,
        // not per window: an even limiter states "5 per 10 s" as `1;w=2`.
        const nominal = RATE_LIMITS[rateClass];
        this.scale ??= policy.windowMs / policy.limit / (nominal.windowMs / nominal.requests);
      }
      if (info.remaining === 0 && info.resetMs !== undefined)
        cls.blockedUntil = Math.max(cls.blockedUntil, now + info.resetMs);
    }
    const retryAfter = headers ? headerValue(headers, 'retry-after') : undefined;
    // What to wait (capped) and what the server said (reported on errors): never mixed up.
    const waitMs = parseRetryAfter(retryAfter, now);
    // A 429 for insufficient credit is not the rate limit (x-retry-policy): waiting adds no credit.
    const creditOnly = RETRY_POLICY.noRetry.some(([s, c]) => s === status && c === outcome.error_code);
    if (status === 429 && !creditOnly) {
      this.stats.limited[rateClass]++;
      cls.slowdown = Math.min(cls.slowdown * 1.5, 4);
      const resetMs = waitMs ?? (headers ? parseRateLimitHeaders(headers).resetMs : undefined);
      cls.retryAfterMs = retryAfterMs(retryAfter, now) ?? resetMs;
      cls.retryAfter = retryAfter;
      cls.blockedUntil = Math.max(
        cls.blockedUntil,
        now + (resetMs ?? this.fullWindow(rateClass, options.account ?? '')),
      );
    }
    if (status === 503 && options.startsVideo) {
      this.stats.full++;
      const delay = waitMs ?? RETRY_POLICY.serviceUnavailableDelayMs[0] * (this.scale ?? 1);
      state.fullUntil = Math.max(state.fullUntil, now + delay);
    }
    if (status === 404 && options.videoId) state.running.delete(options.videoId);
    if (status === undefined || status < 200 || status > 299) return;
    if (options.startsVideo && outcome.video_id) state.running.add(outcome.video_id);
    else if (options.videoId && outcome.videoStatus && outcome.videoStatus !== 'running')
      state.running.delete(options.videoId);
  }

  private account(name: string): Account {
    let state = this.accounts.get(name);
    if (!state) {
      const cls = (): ClassState => ({ inFlight: 0, lastAt: -Infinity, blockedUntil: 0, slowdown: 1 });
      state = { classes: { A: cls(), B: cls() }, running: new Set(), starting: 0, fullUntil: 0 };
      this.accounts.set(name, state);
    }
    return state;
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
