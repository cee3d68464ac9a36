// createRelay: the assembly. Options → a client (every call to the API goes through it: paced on the
// account's shared schedule, retried as the interface says) → a state store (Redis shared by every relay
// of the account, or a file) → the loop: claim due work, run it (a video: deliver, poll; the discovery:
// list), wait until the next is due or someone wakes the relay (an announce, a replay, another relay).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import {
  activeTracer,
  type Announcement,
  AuthenticationError,
  createClient,
  relayToken,
  traceHeaders,
  type VideoClient,
} from '@videogen/client';
import { keyFingerprint, PRODUCTION_BASE_URL, scheduleName, sleep } from '@videogen/openapi/rules';
import type { DeliveryTarget } from './delivery.js';
import { runDiscovery, watchRecord } from './discovery.js';
import { FileRelayStore } from './file-store.js';
import { type Listener, listen } from './listener.js';
import { createLog, type Log } from './log.js';
import { DEFAULTS, type RelayOptions, type Resolved, resolveOptions } from './options.js';
import { RedisRelayStore } from './redis-store.js';
import {
  DISCOVERY_ID,
  type DeadLetter,
  type RelayStore,
  type StoreStatus,
  type Task,
  type WatchResult,
} from './store.js';
import { Durations } from './durations.js';
import { formatMs, mergeAnnounce, nextDueAt, nextPoll, runVideo } from './video-task.js';

/** What a relay has done since it started (its status, and the benchmark's counts). */
export interface RelayCounts {
  delivered: number;
  failedAttempts: number;
  dead: number;
  made: number;
  polls: number;
  lists: number;
}

export interface RelayStatus {
  /** The store: where, how many videos it watches or delivers for, how many dead letters. */
  store: StoreStatus;
  /** This process: tasks in flight, what it did. */
  inFlight: number;
  counts: RelayCounts;
  /** The announce endpoint, when listening. */
  url?: string;
}

export interface Relay {
  /** The announce endpoint (`http://host:port`) when `listen` was given: the clients' VIDEO_RELAY_URL. */
  readonly url: string | undefined;
  /** Where the state lives (a Redis URL without its password, or the state file). */
  readonly where: string;
  /** Resolves when the relay stops; rejects when it had to stop (the API key refused: 401/403). */
  readonly done: Promise<void>;
  /** Watch a video at once (what `POST /announce` does). */
  announce(a: Announcement): Promise<WatchResult>;
  /** The dead-letter list, newest first. */
  failed(): Promise<DeadLetter[]>;
  /** Requeues a dead letter (same webhook id, attempts from the start): `requeued`, `unknown` id, or `busy` (try again). */
  replay(eventId: string): Promise<'requeued' | 'unknown' | 'busy'>;
  status(): Promise<RelayStatus>;
  /** Stops claiming, lets the work in flight finish (bounded by the lease), closes the endpoint and the store. */
  stop(): Promise<void>;
}

/** The relay's version, for its User-Agent. */
const VERSION = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0';
  }
})();

/** How long an idle relay waits before it looks at the store again, at most (a wake-up comes sooner). */
const IDLE_MS = 1_000;
/** After the store failed: how long before trying again. */
const STORE_RETRY_MS = 1_000;
/** An announce of a video a relay is working on waits this long between tries to add what it knows, this many times. */
const MERGE_WAIT_MS = 100;
const MERGE_TRIES = 50;
/** A replay of an event whose video a relay works on looks again this often. */
const REPLAY_WAIT_MS = 100;

/** Starts a relay: it runs until `stop()` (or a refused key). Throws at once for options that cannot work. */
export async function createRelay(options: RelayOptions): Promise<Relay> {
  const o = resolveOptions(options);
  const log = createLog(options);
  const env = process.env;
  const apiKey = options.apiKey ?? env.VIDEO_API_KEY;
  if (!apiKey) throw new AuthenticationError('No API key: pass apiKey or set VIDEO_API_KEY');
  const baseUrl = (options.baseUrl ?? env.VIDEO_API_BASE_URL ?? PRODUCTION_BASE_URL).replace(/\/+$/, '');
  const client = createClient({
    ...options.client,
    apiKey,
    baseUrl,
    ...(options.pacingUrl && { pacingUrl: options.pacingUrl }),
    // The relay announces to nobody: it is the one announced to.
    relayUrl: undefined,
  });
  const account = accountOf(apiKey, client.baseUrl);
  const store: RelayStore = o.redisUrl
    ? new RedisRelayStore({ url: o.redisUrl, account, prefix: options.redisPrefix })
    : new FileRelayStore({ path: o.stateFile });
  return start(o, log, client, store, account, await relayToken(apiKey));
}

/** The account's name, as the client's pacer names its schedule: event ids and Redis keys hang on it. */
function accountOf(apiKey: string, baseUrl: string): string {
  return scheduleName(baseUrl.replace(/\/+$/, ''), keyFingerprint(createHash('sha256').update(apiKey).digest('hex')));
}

async function start(
  o: Resolved,
  log: Log,
  client: VideoClient,
  store: RelayStore,
  account: string,
  token: string,
): Promise<Relay> {
  const counts: RelayCounts = { delivered: 0, failedAttempts: 0, dead: 0, made: 0, polls: 0, lists: 0 };
  const counted = (what: 'delivered' | 'failed-attempt' | 'dead' | 'made' | 'poll' | 'list') => {
    if (what === 'delivered') counts.delivered++;
    else if (what === 'failed-attempt') counts.failedAttempts++;
    else if (what === 'dead') counts.dead++;
    else if (what === 'made') counts.made++;
    else if (what === 'poll') counts.polls++;
    else counts.lists++;
  };
  const target: DeliveryTarget = {
    url: o.forwardTo,
    secrets: o.secrets,
    timeoutMs: o.deliveryTimeoutMs,
    userAgent: `videogen-relay/${VERSION}`,
  };
  const inFlight = new Map<string, Promise<void>>();
  const durations = new Durations();
  let stopping = false;
  let wake: (() => void) | undefined;
  const nudge = () => wake?.();
  store.onWake(nudge);
  // The epoch this relay knows: the store's once read; on a first start, now less the backfill. Kept in
  // memory so that a Redis that restarted empty gets it back (the listing then finds every video since).
  let epoch = Date.now() - o.backfillMs;
  let storeDown: number | undefined;
  let fatal: unknown;

  const run = (task: Task) => {
    const tracer = activeTracer('@videogen/relay');
    const work =
      task.id === DISCOVERY_ID
        ? runDiscovery({ client, store, o, log, epoch, counted }, task)
        : runVideo(
            {
              client,
              store,
              account,
              target: { ...target, tracer },
              o,
              log,
              counted,
              stopping: () => stopping,
              durations,
            },
            task,
          );
    const p = work
      .catch((e) => {
        if (e instanceof AuthenticationError) {
          fatal = e;
          stopping = true;
          log.error({ status: e.status }, `the API key was refused (${e.message}): the relay stops`);
        } else
          log.error(
            { task: task.id, error: (e as Error)?.message },
            `work on ${task.id} failed: ${(e as Error)?.message}`,
          );
      })
      .finally(() => {
        inFlight.delete(task.id);
        nudge();
      });
    inFlight.set(task.id, p);
  };

  const loop = async () => {
    let first = true;
    while (!stopping) {
      let waitMs = IDLE_MS;
      const free = o.concurrency - inFlight.size;
      if (free > 0) {
        try {
          const claimed = await store.claim(free, o.leaseMs, epoch);
          if (storeDown !== undefined) {
            log.info(
              { store: store.where },
              `the relay's state at ${store.where} answers again after ${formatMs(Date.now() - storeDown)}`,
            );
            storeDown = undefined;
          }
          if (claimed.initialized && !first)
            log.warn(
              { store: store.where, epoch: new Date(claimed.epoch).toISOString() },
              `the relay's state at ${store.where} was empty (a Redis that restarted without persistence?): videos created since ${new Date(claimed.epoch).toISOString()} are listed again, their events sent again with the same ids`,
            );
          first = false;
          epoch = claimed.epoch;
          for (const task of claimed.tasks) if (!inFlight.has(task.id)) run(task);
          if (claimed.nextDueInMs !== undefined) waitMs = Math.min(waitMs, claimed.nextDueInMs);
        } catch (e) {
          if (storeDown === undefined) {
            storeDown = Date.now();
            log.warn(
              { store: store.where, error: (e as Error)?.message },
              `the relay's state at ${store.where} does not answer (${(e as Error)?.message}); trying again`,
            );
          }
          waitMs = STORE_RETRY_MS;
        }
      }
      if (stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(waitMs, 5));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  let listener: Listener | undefined;
  const announce = async (a: Announcement): Promise<WatchResult> => {
    const now = Date.now();
    const record = watchRecord(a.video_id, now, {
      ...(a.source_video_id && { source_video_id: a.source_video_id }),
      ...(a.traceparent && { traceparent: a.traceparent }),
      ...(a.tracestate && { tracestate: a.tracestate }),
    });
    const tracer = activeTracer('@videogen/relay');
    if (!record.traceparent && tracer) {
      const span = tracer.startSpan(
        'relay.watch',
        { kind: SpanKind.INTERNAL, attributes: { 'videogen.video_id': a.video_id, 'videogen.found_by': 'announce' } },
        ROOT_CONTEXT,
      );
      Object.assign(record, traceHeaders(trace.setSpan(ROOT_CONTEXT, span)));
      span.end();
    }
    // Just created: it is running; the first read one polling interval on (or once as old as the
    // shortest generation seen, less an interval).
    record.createdAt = now;
    record.nextPollAt = nextPoll(record, now, o, durations);
    const state = await store.watch(record, record.nextPollAt - now);
    if (state === 'known') await merge(a);
    log.info({ video_id: a.video_id, state }, `announced: ${a.video_id} (${state === 'added' ? 'watching' : state})`);
    return state;
  };
  /** A listing found the video first: its source and trace, which only the announce knows, are added (waiting out a relay working on it). */
  const merge = async (a: Announcement) => {
    if (!a.source_video_id && !a.traceparent) return;
    for (let i = 0; i < MERGE_TRIES; i++) {
      const taken = await store.take(a.video_id, o.leaseMs);
      if (!taken) {
        await sleep(MERGE_WAIT_MS);
        continue;
      }
      const rec = taken.record;
      if (rec?.kind !== 'video') {
        // Done meanwhile, or gone: the lease taken goes back unused.
        await store.release(a.video_id, taken.fence, undefined, undefined);
        return;
      }
      mergeAnnounce(rec, a);
      const next = nextDueAt(rec);
      await store.release(a.video_id, taken.fence, rec, Number.isFinite(next) ? Math.max(0, next - Date.now()) : 0);
      return;
    }
  };
  const status = async (): Promise<RelayStatus> => ({
    store: await store.status(),
    inFlight: inFlight.size,
    counts: { ...counts },
    ...(listener && { url: listener.url }),
  });
  if (o.listen)
    listener = await listen(o.listen, {
      token,
      announce,
      status: async () => ({ ...(await status()) }),
      health: async () => {
        try {
          const s = await store.status();
          return { ok: !stopping, detail: { store: s.where, watching: s.records, dead: s.dead } };
        } catch (e) {
          return { ok: false, detail: { store: store.where, error: (e as Error)?.message } };
        }
      },
    });
  if (o.plainHttp)
    log.warn(
      { forwardTo: o.forwardTo },
      `deliveries go to ${o.forwardTo} over plain HTTP: signed, but readable on the way; use https`,
    );
  log.info(
    { forwardTo: o.forwardTo, store: store.where, ...(listener && { url: listener.url }) },
    `relay: forwarding to ${o.forwardTo}; state at ${store.where}${listener ? `; announces at ${listener.url}` : ''}`,
  );

  const done = loop().then(async () => {
    await Promise.allSettled(inFlight.values());
    await listener?.close();
    await store.close();
    if (fatal) throw fatal;
  });
  // A rejection is the caller's to read (through `done`); never an unhandled one meanwhile.
  done.catch(() => {});

  return {
    get url() {
      return listener?.url;
    },
    where: store.where,
    done,
    announce,
    failed: () => store.failed(),
    replay: (eventId) => replay(store, eventId, o),
    status,
    stop: async () => {
      stopping = true;
      nudge();
      // Work in flight ends by itself (a delivery's deadline, a paced poll); what outlasts the lease is another relay's by then.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        done.catch(() => {}),
        new Promise((resolve) => {
          timer = setTimeout(resolve, o.leaseMs);
        }),
      ]);
      clearTimeout(timer);
      await listener?.close();
      await store.close();
    },
  };
}

/**
 * Requeues a dead letter on its video (same id, attempts from the start), due now. A relay working on
 * that video holds it for a moment (at most its lease): the replay waits for it, then says `busy`.
 */
export async function replay(
  store: RelayStore,
  eventId: string,
  o: Pick<Resolved, 'leaseMs'>,
): Promise<'requeued' | 'unknown' | 'busy'> {
  const letter = (await store.failed()).find((d) => d.event.id === eventId);
  if (!letter) return 'unknown';
  for (const until = Date.now() + o.leaseMs; ; ) {
    const taken = await store.take(letter.video_id, o.leaseMs);
    if (!taken) {
      if (Date.now() > until) return 'busy';
      await sleep(REPLAY_WAIT_MS);
      continue;
    }
    const now = Date.now();
    const record =
      taken.record?.kind === 'video' ? taken.record : { ...watchRecord(letter.video_id, now), watching: false };
    record.events.push({ ...letter.event, attempts: 0, nextAt: now, lastError: undefined });
    const ok = await store.release(letter.video_id, taken.fence, record, 0, { undead: [eventId] });
    if (ok) await store.wake();
    return ok ? 'requeued' : 'busy';
  }
}

/** Opens the state of a relay without running one (`videogen relay --failed`, `--replay`). */
export function openStore(
  options: Pick<RelayOptions, 'apiKey' | 'baseUrl' | 'pacingUrl' | 'redisUrl' | 'stateFile' | 'redisPrefix'>,
): RelayStore {
  const env = process.env;
  const apiKey = options.apiKey ?? env.VIDEO_API_KEY;
  if (!apiKey) throw new AuthenticationError('No API key: pass apiKey or set VIDEO_API_KEY');
  const account = accountOf(apiKey, options.baseUrl ?? env.VIDEO_API_BASE_URL ?? PRODUCTION_BASE_URL);
  const redisUrl = options.redisUrl ?? options.pacingUrl ?? (env.VIDEO_API_PACING_URL || undefined);
  return redisUrl
    ? new RedisRelayStore({ url: redisUrl, account, prefix: options.redisPrefix })
    : new FileRelayStore({ path: options.stateFile ?? DEFAULTS.stateFile });
}
