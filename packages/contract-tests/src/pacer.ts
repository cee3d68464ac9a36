// Client-side pacing to the service's rate limits, per account and class, as sliding windows.
// The limits start from the spec (x-rate-limit) and are corrected by what the target says in its
// RateLimit-* headers (the sandbox scales its windows: `RateLimit-Policy: 5;w=0.1`).

export interface RateClass {
  limit: number;
  windowMs: number;
}

export interface PacerOptions {
  classes: Record<string, RateClass>;
  /** Extra wait after a window edge: our clock is not the server's, and a request arrives after it is sent. */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Bucket {
  /** One entry per request in flight (Infinity) or done (the time its response arrived). */
  sent: number[];
  /** The server said no request is free until then (RateLimit-Remaining: 0). */
  blockedUntil: number;
}

export interface Slot {
  done(): void;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Pacer {
  private readonly nominal: Record<string, RateClass>;
  private readonly learned = new Map<string, RateClass>();
  private scale: number | undefined;
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly marginMs: number | undefined;
  /** Total time spent waiting, for the summary. */
  waitedMs = 0;
  /** Off for targets without rate limits (the Prism mock). */
  enabled = true;

  constructor(opts: PacerOptions) {
    this.nominal = opts.classes;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
    this.marginMs = opts.marginMs;
  }

  /** The class in force: the target's own statement, else the spec's scaled by what the target showed. */
  classOf(name: string): RateClass {
    const learned = this.learned.get(name);
    if (learned) return learned;
    const n = this.nominal[name];
    if (!n) throw new Error(`unknown rate-limit class ${name}`);
    return this.scale ? { limit: n.limit, windowMs: n.windowMs * this.scale } : n;
  }

  /** Tell the pacer how much faster than real time the target runs (known when we started it). */
  setTimeScale(timeScale: number): void {
    if (timeScale > 0 && timeScale !== 1) this.scale = 1 / timeScale;
  }

  private margin(name: string): number {
    // 2 % of the window, at least 3 ms: enough for loopback and for a remote clock.
    return this.marginMs ?? Math.max(3, this.classOf(name).windowMs * 0.02);
  }

  private bucket(account: string, cls: string): Bucket {
    const key = `${account}\u0000${cls}`;
    let b = this.buckets.get(key);
    if (!b) this.buckets.set(key, (b = { sent: [], blockedUntil: 0 }));
    return b;
  }

  /** How long a request of this class must wait now (0 when it may go). */
  delay(account: string, cls: string): number {
    if (!this.enabled) return 0;
    const { limit, windowMs } = this.classOf(cls);
    const b = this.bucket(account, cls);
    const now = this.now();
    b.sent = b.sent.filter((t) => t === Infinity || t > now - windowMs - this.margin(cls));
    let wait = Math.max(0, b.blockedUntil - now);
    if (b.sent.length >= limit) {
      const finished = b.sent.filter((t) => t !== Infinity).sort((x, y) => x - y);
      // All in flight: look again shortly.
      const oldest = finished[b.sent.length - limit];
      wait = Math.max(wait, oldest === undefined ? 5 : oldest + windowMs + this.margin(cls) - now);
    }
    return wait;
  }

  /** Wait for a free place in the window, then hold it until the response arrives. */
  async acquire(account: string, cls: string): Promise<Slot> {
    for (;;) {
      const wait = this.delay(account, cls);
      if (wait <= 0) break;
      this.waitedMs += wait;
      await this.sleep(wait);
    }
    const b = this.bucket(account, cls);
    b.sent.push(Infinity);
    let released = false;
    return {
      done: () => {
        if (released) return;
        released = true;
        // The server counted the request somewhere between send and now: now is the safe end.
        // Entries in flight are interchangeable, and pruning shifts indexes: take any of them.
        const i = b.sent.indexOf(Infinity);
        if (i >= 0) b.sent[i] = this.now();
      },
    };
  }

  /** Record a request sent without pacing (a burst), so that later requests wait for it. */
  record(account: string, cls: string, at = this.now()): void {
    this.bucket(account, cls).sent.push(at);
  }

  /** Wait until the account's window of this class is empty (before a deliberate burst). */
  async drain(account: string, cls: string): Promise<void> {
    if (!this.enabled) return;
    const { windowMs } = this.classOf(cls);
    const b = this.bucket(account, cls);
    for (;;) {
      const now = this.now();
      const last = Math.max(b.blockedUntil, ...b.sent.filter((t) => t !== Infinity).map((t) => t + windowMs + this.margin(cls)), now);
      const pending = b.sent.includes(Infinity);
      if (last <= now && !pending) return;
      const wait = pending ? 5 : last - now;
      this.waitedMs += wait;
      await this.sleep(wait);
    }
  }

  /** Do not send this class before `ms` from now (a 429's Retry-After, or RateLimit-Remaining 0). */
  block(account: string, cls: string, ms: number): void {
    const b = this.bucket(account, cls);
    b.blockedUntil = Math.max(b.blockedUntil, this.now() + ms);
  }

  /**
   * Learn from a response's headers. `RateLimit-Policy: 5;w=0.1` states the class's limit and window;
   * `RateLimit-Remaining: 0` with `RateLimit-Reset` says when the next request is free.
   */
  observe(account: string, cls: string, headers: Headers): void {
    const policy = headers.get('ratelimit-policy');
    const m = policy && /^\s*(\d+)\s*;\s*w\s*=\s*([\d.]+)/.exec(policy);
    if (m) {
      const limit = Number(m[1]);
      const windowMs = Number(m[2]) * 1000;
      if (limit > 0 && windowMs > 0) {
        this.learned.set(cls, { limit, windowMs });
        const n = this.nominal[cls];
        // Other classes of the same target are scaled the same way until they say otherwise.
        if (n && this.scale === undefined) this.scale = windowMs / n.windowMs;
      }
    }
    const remaining = headers.get('ratelimit-remaining');
    const reset = Number(headers.get('ratelimit-reset'));
    if (remaining !== null && Number(remaining) <= 0 && Number.isFinite(reset) && reset > 0) {
      this.block(account, cls, reset * 1000 + this.margin(cls));
    }
  }
}
