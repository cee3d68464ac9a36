// The client's side of the one pacer (@videogen/openapi/rules, shared with the contract suite): which
// operation a request is, and what its response taught. The spacing rules live in the rules module.
import {
  ANNOUNCED_WAIT_MS,
  operationFor,
  pacingReason,
  Pacer as RulesPacer,
  type PacerStore,
  PacerWaitError,
  type RateClass,
  type Ticket,
  type WaitNotice,
  type WaitReason,
} from '@videogen/openapi/rules';
import type { Clock } from './clock.js';
import { RateLimitError } from './errors.js';
import type { Log } from './logger.js';
import { activeTracer, type Context, recordWait } from './tracing.js';

/** The operation a request is for: its rate-limit class, whether it starts a video, the path id. */
export function route(req: { url: string; method: string }) {
  const path = new URL(req.url).pathname;
  const op = operationFor(req.method, path);
  const id = op?.path.includes('{video_id}') ? /\/videos\/([^/]+)\//.exec(path + '/')?.[1] : undefined;
  // "All other endpoints" are class B (8.1).
  return {
    cls: (op?.rateClass ?? 'B') as RateClass,
    counts: !!op?.startsVideo,
    id: id && decodeURIComponent(id),
    op,
  };
}

export interface PacerConfig {
  /** Longest wait accepted before a request (default 15 min); beyond it the call fails with a RateLimitError. */
  maxWaitMs?: number;
  /** Where the schedule lives (default: in this process). */
  store?: PacerStore;
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** Reads a video's status when the account looks full. */
  check?: (id: string) => Promise<unknown>;
  /** The caller's log: a wait is an `info` line. */
  log?: Log;
  /** Told before a wait of a second or more, with what it waits for (once per reason per request). */
  announce?: (notice: WaitNotice) => void;
  /** The trace context of the call: each wait is a span under it (when tracing). */
  parent?: Context;
}

type WaitSpan = 'rate' | 'slot';
/** The spans of a wait: the class's spacing (or the server's word), or a running slot (8.2). */
const WAIT_SPAN: Record<WaitSpan, string> = { rate: 'videogen.pacer.wait', slot: 'videogen.slot.wait' };
const spanOf = (reason: WaitReason | undefined): WaitSpan =>
  reason === 'full' || reason === 'refused' ? 'slot' : 'rate';

/** One account's pacer, seen from the transport: acquire before sending, settle with the response. */
export class Pacer {
  readonly inner: RulesPacer;
  readonly #clock: Clock;
  /**
   * `schedule` is the account's name in the store (the rules' scheduleName: base URL and account): a
   * store shared by several accounts, or several services, keeps one schedule for each.
   */
  constructor(clock: Clock, schedule: string, config: PacerConfig = {}) {
    this.#clock = clock;
    this.inner = new RulesPacer({
      now: () => clock.now(),
      sleep: async (ms, s) => void (await clock.sleep(ms, s)),
      maxWaitMs: config.maxWaitMs,
      store: config.store,
      storeName: () => schedule,
    });
  }

  /** Waits until the request may go; a wait beyond the ceiling throws a RateLimitError carrying the server's Retry-After. */
  async acquire(
    req: { url: string; method: string },
    { signal, check, log, announce, parent }: AcquireOptions = {},
  ): Promise<Ticket> {
    const { cls, counts, id } = route(req);
    const started = this.#clock.now();
    const said = new Set<string>();
    const call = `${req.method} ${new URL(req.url).pathname}`;
    // When tracing: each wait the pacer announces, with its real start (span times are real time).
    const waits: Array<{ reason: WaitSpan; at: number; ms: number }> | undefined = activeTracer() ? [] : undefined;
    try {
      const ticket = await this.inner.acquire({
        rateClass: cls,
        startsVideo: counts,
        videoId: id,
        signal,
        checkRunning: check,
        onWait: ({ waitMs, reason }) => {
          // The store names a start held while every slot is taken 'full' (a slot wait), whatever it waits out first.
          waits?.push({ reason: spanOf(reason), at: Date.now(), ms: waitMs });
          if (!announce || waitMs < ANNOUNCED_WAIT_MS || said.has(reason ?? '')) return;
          said.add(reason ?? '');
          const pace = { ...this.inner.limitOf(cls), intervalMs: this.inner.intervalOf(cls) };
          announce({ kind: 'pacing', call, waitMs, reason: pacingReason(reason, cls, pace) });
        },
      });
      if (waits?.length) traceWaits(waits, cls, parent);
      const waited = Math.round(this.#clock.now() - started);
      if (waited > 0)
        log?.info?.({ call, rateClass: cls, waitedMs: waited }, `paced: waited ${waited} ms for a class ${cls} slot`);
      return ticket;
    } catch (e) {
      if (!(e instanceof PacerWaitError)) throw e;
      throw new RateLimitError(e.message, {
        status: 429,
        retryable: false,
        cause: e,
        error: e.message,
        retryAfter: e.retryAfter,
        retryAfterMs: e.retryAfterMs,
      });
    }
  }

  /** Tells the pacer what the request met (no response: a network error). */
  async settle(req: { url: string; method: string }, ticket: Ticket, res?: Response): Promise<void> {
    if (!res) return ticket.settle();
    const { counts, id } = route(req);
    // Only bodies that can change the pacer's view are read: an error's code, a start's id, a status view.
    const read = !res.ok || counts || id !== undefined;
    const body = read
      ? await res
          .clone()
          .json()
          .catch(() => undefined)
      : undefined;
    ticket.settle({
      status: res.status,
      headers: res.headers,
      error_code: typeof body?.error_code === 'string' ? body.error_code : undefined,
      video_id: counts && typeof body?.video_id === 'string' ? body.video_id : undefined,
      videoStatus: !counts && typeof body?.status === 'string' ? body.status : undefined,
    });
  }
}

/**
 * The spans of one acquire's waits: consecutive waits of one kind are one span, from the first's start to
 * the next kind's (or now); `videogen.pacer.wait_ms` sums what the pacer planned (a test's clock waits no real time).
 */
function traceWaits(waits: Array<{ reason: WaitSpan; at: number; ms: number }>, cls: RateClass, parent?: Context) {
  const end = Date.now();
  for (let i = 0; i < waits.length; ) {
    const first = waits[i] as (typeof waits)[number];
    let planned = 0;
    let j = i;
    for (; j < waits.length && (waits[j] as (typeof waits)[number]).reason === first.reason; j++)
      planned += (waits[j] as (typeof waits)[number]).ms;
    const until = j < waits.length ? (waits[j] as (typeof waits)[number]).at : end;
    recordWait(WAIT_SPAN[first.reason], parent, first.at, until, {
      'videogen.rate_class': cls,
      'videogen.pacer.wait_ms': Math.round(planned),
    });
    i = j;
  }
}

const pacers = new WeakMap<Clock, Map<string, Pacer>>();
const storeIds = new WeakMap<PacerStore, number>();
let stores = 0;
/**
 * The pacer of an account (keyed by base URL and account id or key hash), shared by its clients that
 * share a clock and a store: a schedule lives in one time line, so a client given another clock (a
 * test's, a new sandbox's `sb.clock` on a reused port) gets its own. Real-time clients all share `realClock`.
 */
export const pacerFor = (key: string, clock: Clock, config: PacerConfig = {}) => {
  let byKey = pacers.get(clock);
  if (!byKey) pacers.set(clock, (byKey = new Map()));
  const { store } = config;
  if (store && !storeIds.has(store)) storeIds.set(store, ++stores);
  const id = `${store ? storeIds.get(store) : 'memory'} ${key}`;
  let p = byKey.get(id);
  if (!p) byKey.set(id, (p = new Pacer(clock, key, config)));
  return p;
};
