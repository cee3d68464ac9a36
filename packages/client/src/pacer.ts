import { MAX_RUNNING, OPERATIONS, POLLING, RATE_LIMITS, RETRY_POLICY } from '@videogen/openapi/rules';
import { type Clock, headerMs } from './clock.js';

type Class = keyof typeof RATE_LIMITS;
interface Window {
  limit: number;
  windowMs: number;
  /** Start of each request in the window; the end of its response once it has one. */
  log: { t: number; done?: boolean }[];
  /** The server said the class is spent until then (RateLimit-Remaining 0, or a 429). */
  until: number;
}

const ROUTES = /* @__PURE__ */ OPERATIONS.map(({ method, path, rateClass: cls, startsVideo: counts }) => ({
  method, cls, counts,
  re: new RegExp(path.replace(/\{[^}]+\}/g, '([^/]+)') + '$'),
}));

/** The operation a request is for: its rate-limit class, whether it starts a video, the path id. */
export function route(req: { url: string; method: string }) {
  const path = new URL(req.url).pathname;
  for (const r of ROUTES) {
    const m = r.method == req.method && r.re.exec(path);
    if (m) return { cls: r.cls as Class, counts: !!r.counts, id: m[1] as string | undefined };
  }
  return { cls: 'B' as Class, counts: false, id: undefined }; // "all other endpoints" are class B
}

/**
 * One scheduler per account: the sliding windows of class A and B, and the videos this account is
 * running (at most MAX_RUNNING). Shared by every client of the account so ordinary use never meets
 * a 429 or a 503. It starts from the spec's limits and follows the RateLimit-* headers when sent.
 */
export class Pacer {
  windows: Record<Class, Window>;
  /** Videos started here and not yet seen finished. */
  running = new Set<string>();
  starting = 0;
  /** A 503 said the account is full until then (other processes may run videos too). */
  busyUntil = 0;
  sleepers = new Set<AbortController>();

  constructor(readonly clock: Clock) {
    const w = (c: Class): Window => ({ limit: RATE_LIMITS[c].requests, windowMs: RATE_LIMITS[c].windowMs, log: [], until: 0 });
    this.windows = { A: w('A'), B: w('B') };
  }

  /** Time scale the server runs at, learned from RateLimit-Policy (1 for the real service). */
  scale() {
    return this.windows.B.windowMs / RATE_LIMITS.B.windowMs;
  }

  /** How long before the class admits one more request (0: now). */
  wait(cls: Class) {
    const w = this.windows[cls], now = this.clock.now();
    // An entry still in flight counts as if it had just been sent: the server has not yet counted it.
    w.log = w.log.filter((e) => !e.done || e.t + w.windowMs > now);
    const free = w.log.length < w.limit ? now : Math.min(...w.log.map((e) => (e.done ? e.t : now))) + w.windowMs;
    return Math.max(w.until, free) - now;
  }

  /** Waits for a slot of the class (and of the concurrency limit when the request starts a video). */
  async acquire(cls: Class, counts: boolean, signal: AbortSignal | undefined, check?: (id: string) => Promise<unknown>) {
    for (;;) {
      let ms = this.wait(cls);
      if (!ms && counts) {
        const full = this.running.size + this.starting >= MAX_RUNNING;
        ms = Math.max(this.busyUntil - this.clock.now(), 0);
        if (!ms && full) {
          // Believed full: look at the oldest video we started (its status response releases it).
          const [id] = this.running;
          if (id && check) await check(id).catch(() => {});
          if (this.running.size + this.starting >= MAX_RUNNING) ms = POLLING.intervalMs * this.scale();
          else continue;
        }
      }
      if (!ms) break;
      // Any response may change the answer (a learned window, a freed slot): it wakes the sleepers.
      const wake = new AbortController();
      this.sleepers.add(wake);
      try {
        await this.clock.sleep(ms, signal ? AbortSignal.any([signal, wake.signal]) : wake.signal);
      } catch (e) {
        if (signal?.aborted) throw e;
      } finally {
        this.sleepers.delete(wake);
      }
    }
    const entry = { t: this.clock.now() } as Window['log'][number];
    this.windows[cls].log.push(entry);
    if (counts) this.starting++;
    return entry;
  }

  /** Learns from a response (or its absence, after a network error). */
  async settle(req: { url: string; method: string }, entry: Window['log'][number], res?: Response) {
    const { cls, counts, id } = route(req);
    const w = this.windows[cls], now = this.clock.now();
    Object.assign(entry, { t: now, done: true });
    for (const s of this.sleepers) s.abort();
    if (counts) this.starting--;
    if (!res) return;
    const h = (n: string) => res.headers.get(n);
    const policy = /^(\d+).*?;\s*w=([\d.]+)/.exec(h('ratelimit-policy') ?? '');
    if (policy) Object.assign(w, { limit: +policy[1], windowMs: +policy[2] * 1000 });
    const reset = headerMs(res, 'retry-after', now) ?? headerMs(res, 'ratelimit-reset', now);
    // Only a rate-limit 429 pauses the class: it sends Retry-After, the one for insufficient credit
    // does not (DECISIONS 27), and waiting does not add credit.
    const limited = res.status == 429 && (h('retry-after') != null || (await res.clone().json().catch(() => ({}))).error_code != 'INSUFFICIENT_CREDIT');
    if (limited || (reset != null && h('ratelimit-remaining') == '0')) w.until = Math.max(w.until, now + (reset ?? w.windowMs));
    if (res.status == 503 && counts) this.busyUntil = now + (reset ?? RETRY_POLICY.serviceUnavailableDelayMs[0] * this.scale());
    // A video that is gone no longer runs.
    if (res.status == 404) this.running.delete(id!);
    if (!res.ok || !(counts || (id && this.running.has(id)))) return;
    const body = await res.clone().json().catch(() => ({}));
    if (counts && body.video_id) this.running.add(body.video_id);
    // A status view that is no longer running frees a slot (conversion options have no status).
    else if (body.status && body.status != 'running') this.running.delete(id!);
  }
}

const pacers = new Map<string, Pacer>();
/** The scheduler of an account (keyed by base URL and account id or key hash). */
export const pacerFor = (key: string, clock: Clock) => {
  let p = pacers.get(key);
  if (!p) pacers.set(key, (p = new Pacer(clock)));
  return p;
};
