// The work on one claimed video, while its lease is held: deliver its due events in order (each attempt
// one POST; a failure waits its turn on the retry schedule, the last one dead-letters the event), read its
// status when a poll is due (a terminal state makes its event, delivered at once), then write it back,
// due again when its next event or poll is, or done. The lease is renewed meanwhile; a relay that lost it
// writes nothing (the newer holder does the work again, with the same event ids).
import { type Context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  activeTracer,
  AuthenticationError,
  contextFromTraceHeaders,
  NotFoundError,
  ValidationError,
  type Video,
  type VideoClient,
  type WebhookEvent,
  type WebhookEventType,
} from '@videogen/client';
import { attempt, type DeliveryTarget } from './delivery.js';
import { EVENT_OF, makeEvent } from './events.js';
import type { Log } from './log.js';
import type { Resolved } from './options.js';
import type { Durations } from './durations.js';
import type { DeadLetter, RelayStore, Task, VideoRecord } from './store.js';

/** What the work on a video needs from its relay. */
export interface TaskContext {
  client: VideoClient;
  store: RelayStore;
  /** The account's name: part of every event id. */
  account: string;
  target: DeliveryTarget;
  o: Resolved;
  log: Log;
  /** Called for each event delivered (the relay's counters). */
  counted: (what: 'delivered' | 'failed-attempt' | 'dead' | 'made' | 'poll') => void;
  /** The relay is stopping: finish the step in hand, write the video back, take no other step. */
  stopping: () => boolean;
  /** What the account's generations take, as this relay has seen them. */
  durations: Durations;
}

/**
 * When to read a running video next: one interval on, and not before it is as old as every generation
 * seen lately was still running (a read before then would say `running`).
 */
export function nextPoll(
  rec: VideoRecord,
  now: number,
  o: Pick<Resolved, 'pollIntervalMs'>,
  durations: Durations,
): number {
  const floor = durations.floor();
  const next = now + o.pollIntervalMs;
  if (floor === undefined || rec.createdAt === undefined) return next;
  return Math.max(next, rec.createdAt + floor);
}

/** The most steps (deliveries, polls) one claim makes before it writes the video back. */
const MAX_STEPS = 20;
/** The longest wait between two status reads after failed ones (their backoff). */
const MAX_POLL_BACKOFF_MS = 5 * 60_000;

/** A video's trace: the create's (from its announce), else the relay's own root for it. */
export function videoContext(rec: VideoRecord): Context {
  return rec.traceparent
    ? contextFromTraceHeaders({ traceparent: rec.traceparent, tracestate: rec.tracestate }, ROOT_CONTEXT)
    : ROOT_CONTEXT;
}

/** Works on one claimed video; resolves once it is written back (or the lease was lost). */
export async function runVideo(ctx: TaskContext, task: Task): Promise<void> {
  const { store, o, log } = ctx;
  const rec = task.record as VideoRecord;
  const id = rec.video_id;
  const dead: DeadLetter[] = [];
  let lost = false;
  /** Writes what is done so far (a relay killed after this does not do it again); the dead letters with it. */
  const checkpoint = async () => {
    if (lost) return;
    try {
      if (!(await store.save(task.id, task.fence, rec, { dead: dead.splice(0) }))) lost = true;
    } catch (e) {
      log.warn(
        { video_id: id, error: (e as Error)?.message },
        `could not save ${id}'s progress (${(e as Error)?.message})`,
      );
    }
  };
  const renewal = setInterval(() => {
    store.renew(task.id, task.fence, o.leaseMs).then(
      (ok) => {
        if (!ok) lost = true;
      },
      () => {
        // Redis away for a moment: the lease holds until it lapses.
      },
    );
  }, o.leaseMs / 3);
  try {
    for (let step = 0; step < MAX_STEPS && !lost && !ctx.stopping(); step++) {
      const now = Date.now();
      const head = rec.events[0];
      if (head && head.nextAt <= now) {
        await refreshStale(ctx, rec, head.type === 'video.completed' && head.attempts > 0);
        log.debug(
          { event: head.id, type: head.type, video_id: id, attempt: head.attempts + 1 },
          `delivering ${head.type} of ${id} (${head.id}, attempt ${head.attempts + 1})`,
        );
        const out = await attempt(ctx.target, head, id, videoContext(rec));
        head.attempts++;
        if (out.ok) {
          rec.events.shift();
          ctx.counted('delivered');
          log.info(
            {
              event: head.id,
              type: head.type,
              video_id: id,
              attempt: head.attempts,
              status: out.status,
              ms: Math.round(out.ms),
            },
            `delivered ${head.type} of ${id} (${head.id}, attempt ${head.attempts}) → ${out.status}`,
          );
          continue;
        }
        head.lastError = out.error;
        ctx.counted('failed-attempt');
        const wait = o.retryScheduleMs[head.attempts];
        if (wait === undefined) {
          rec.events.shift();
          dead.push({ video_id: id, event: head, failedAt: Date.now() });
          ctx.counted('dead');
          log.error(
            { event: head.id, type: head.type, video_id: id, attempts: head.attempts, error: out.error },
            `gave up ${head.type} of ${id} (${head.id}) after ${head.attempts} attempts (${out.error}): dead-lettered; videogen relay --replay ${head.id}`,
          );
          await checkpoint();
          continue;
        }
        head.nextAt = Date.now() + wait;
        log.warn(
          { event: head.id, type: head.type, video_id: id, attempt: head.attempts, error: out.error, retryInMs: wait },
          `${head.type} of ${id} (${head.id}) attempt ${head.attempts} failed (${out.error}); next in ${formatMs(wait)}`,
        );
        await checkpoint();
        continue;
      }
      const due = rec.watching ? rec.nextPollAt <= now : rec.expiryCheckAt !== undefined && rec.expiryCheckAt <= now;
      if (due) {
        const before = rec.events.length;
        await poll(ctx, rec, rec.watching ? 'watch' : 'expiry');
        // A new event is saved before its first attempt: whoever delivers it sends these bytes.
        if (rec.events.length !== before) await checkpoint();
        continue;
      }
      break;
    }
  } finally {
    clearInterval(renewal);
  }
  const next = nextDueAt(rec);
  if (lost) return log.warn({ video_id: id }, `lost the lease of ${id} to another relay: its work goes on there`);
  const written = Number.isFinite(next)
    ? await store.release(task.id, task.fence, rec, Math.max(0, next - Date.now()), { dead })
    : await store.release(task.id, task.fence, undefined, undefined, { dead });
  if (!written) log.warn({ video_id: id }, `lost the lease of ${id} to another relay: its work goes on there`);
}

/** When a video has something to do next (an event's attempt, a poll, an expiry check): Infinity when done. */
export function nextDueAt(rec: VideoRecord): number {
  return Math.min(
    rec.events[0]?.nextAt ?? Number.POSITIVE_INFINITY,
    rec.watching ? rec.nextPollAt : Number.POSITIVE_INFINITY,
    rec.expiryCheckAt ?? Number.POSITIVE_INFINITY,
  );
}

/**
 * What an announce adds to a video already watched (found by a listing first): its source and its trace,
 * into the record and into its events not delivered yet (their next attempt says it, same id). False
 * when there is nothing to add.
 */
export function mergeAnnounce(
  rec: VideoRecord,
  a: { source_video_id?: string; traceparent?: string; tracestate?: string },
): boolean {
  let changed = false;
  if (a.source_video_id && !rec.source_video_id) {
    rec.source_video_id = a.source_video_id;
    for (const e of rec.events) {
      const body = JSON.parse(e.body) as { data: Record<string, unknown> };
      body.data.source_video_id = a.source_video_id;
      e.body = JSON.stringify(body);
    }
    changed = true;
  }
  if (a.traceparent && (!rec.traceparent || rec.ownTrace)) {
    rec.traceparent = a.traceparent;
    rec.tracestate = a.tracestate;
    rec.ownTrace = undefined;
    changed = true;
  }
  return changed;
}

/**
 * One status read, as `relay.poll` in the video's trace. `watch`: a running video (a terminal state makes
 * its event); `expiry`: a completed one read again to see it expire (`watchExpiryMs`).
 */
async function poll(ctx: TaskContext, rec: VideoRecord, why: 'watch' | 'expiry'): Promise<void> {
  const { o, log } = ctx;
  const parent = videoContext(rec);
  const span = activeTracer('@videogen/relay')?.startSpan(
    'relay.poll',
    { kind: SpanKind.INTERNAL, attributes: { 'videogen.video_id': rec.video_id, 'videogen.poll': rec.polls + 1 } },
    parent,
  );
  const now = Date.now();
  let video: Video;
  ctx.counted('poll');
  log.debug({ video_id: rec.video_id, poll: rec.polls + 1 }, `polling ${rec.video_id} (${why})`);
  try {
    video = await ctx.client.videos.get(rec.video_id, { traceContext: span ? trace.setSpan(parent, span) : parent });
    log.debug({ video_id: rec.video_id, status: video.status }, `polled ${rec.video_id}: ${video.status}`);
  } catch (e) {
    log.debug(
      { video_id: rec.video_id, error: (e as Error)?.message },
      `polled ${rec.video_id}: ${(e as Error)?.message}`,
    );
    span?.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
    span?.end();
    if (e instanceof AuthenticationError) throw e;
    if (e instanceof NotFoundError || e instanceof ValidationError) {
      // Not the account's video (an announce of another's id), or gone: nothing to tell about it.
      rec.watching = false;
      rec.expiryCheckAt = undefined;
      rec.status = 'not found';
      log.warn(
        { video_id: rec.video_id, status: e.status },
        `${rec.video_id} is not a video of this account (${e.message}): not watched`,
      );
      return;
    }
    rec.pollErrors++;
    const wait = Math.min(o.pollIntervalMs * 2 ** rec.pollErrors, MAX_POLL_BACKOFF_MS);
    if (why === 'watch') rec.nextPollAt = now + wait;
    else rec.expiryCheckAt = now + wait;
    log.warn(
      { video_id: rec.video_id, error: (e as Error)?.message },
      `status of ${rec.video_id} not read (${(e as Error)?.message}); again in ${formatMs(wait)}`,
    );
    return;
  }
  rec.polls++;
  rec.pollErrors = 0;
  rec.status = video.status;
  span?.setAttribute('videogen.status', video.status);
  span?.end();
  const type = EVENT_OF[video.status];
  if (why === 'expiry') {
    if (type === 'video.expired') {
      rec.expiryCheckAt = undefined;
      addEvent(ctx, rec, type, video);
    } else if (video.status === 'completed' && o.watchExpiryMs !== undefined) rec.expiryCheckAt = now + o.watchExpiryMs;
    else rec.expiryCheckAt = undefined;
    return;
  }
  if (!type) {
    if (video.status !== 'running')
      log.warn(
        { video_id: rec.video_id, status: video.status },
        `${rec.video_id}: unknown status ${JSON.stringify(video.status)}, read again later`,
      );
    if (now - rec.since >= o.maxWatchMs) {
      rec.watching = false;
      log.warn(
        { video_id: rec.video_id },
        `${rec.video_id} still ${video.status} after ${formatMs(o.maxWatchMs)}: no longer polled (maxWatchMs)`,
      );
    } else {
      rec.runningAt = now;
      rec.nextPollAt = nextPoll(rec, now, o, ctx.durations);
    }
    return;
  }
  if (type === 'video.completed' && rec.createdAt !== undefined && rec.runningAt !== undefined)
    ctx.durations.observe(rec.runningAt - rec.createdAt);
  rec.watching = false;
  addEvent(ctx, rec, type, video);
  if (type === 'video.completed' && o.watchExpiryMs !== undefined) rec.expiryCheckAt = now + o.watchExpiryMs;
}

/** Appends a video's event (never twice the same type), due now. */
function addEvent(ctx: TaskContext, rec: VideoRecord, type: WebhookEventType, video: Video): void {
  if (rec.emitted.includes(type)) return;
  rec.emitted.push(type);
  rec.events.push(makeEvent(ctx.account, type, video, Date.now(), rec.source_video_id));
  ctx.counted('made');
}

/**
 * Before retrying a `video.completed` whose download address has expired, the status is
 * read again: the event (same id, same timestamp) then carries a fresh address; a video found expired
 * meanwhile gets its `video.expired` after it.
 */
async function refreshStale(ctx: TaskContext, rec: VideoRecord, retrying: boolean): Promise<void> {
  const head = rec.events[0];
  if (!retrying || !head) return;
  const event = JSON.parse(head.body) as WebhookEvent;
  if (event.type !== 'video.completed') return;
  const expires = event.data.download_url_expires_at ? Date.parse(event.data.download_url_expires_at) : Number.NaN;
  if (!(expires <= Date.now())) return;
  try {
    const video = await ctx.client.videos.get(rec.video_id, { traceContext: videoContext(rec) });
    ctx.counted('poll');
    if (video.status === 'completed') {
      const fresh = makeEvent(ctx.account, 'video.completed', video, Date.parse(event.timestamp), rec.source_video_id);
      head.body = fresh.body;
    } else if (video.status === 'expired') addEvent(ctx, rec, 'video.expired', video);
  } catch {
    // The old address goes out; the receiver's own status read gets a fresh one (client.download).
  }
}

/** 5 s, 2 min, 3 h: how a wait reads in a log line. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 2 * 3600_000) return `${Math.round(ms / 6_000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}
