// Finding the videos nobody announced (created by curl, another tool, a process without a relay URL) by
// listing `GET /videos/`, in whatever order the service lists them: the interface does not say (4.2;
// DECISIONS 18). Each listing reads page 1 and tells the order from its `created_at`s:
//
// - newest first: the new videos are on the first pages; it reads on while a page holds nothing older
//   than what it has seen (the new ones fill it);
// - oldest first: the new videos are on the last pages; it reads the last page (`total_count` says which)
//   and the ones before it while they hold new videos;
// - an order it cannot tell: `total_count` says how many are new; it scans the other pages for them, at
//   most `maxListPages` a listing, and goes on from there at the next listing. Nothing new: page 1 only.
//
// A listed video is new when the store does not know it, it was created after the relay's epoch (its
// first start, less the backfill) and not long before the newest video already listed (videos listed
// lately are remembered for SEEN_WINDOW_MS; an older unknown one was seen before that). New videos are
// watched: each is read at once (it may be done already). Listings that find nothing come less often
// (QUIET_STEPS), back to the interval when one finds a video.
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { activeTracer, traceHeaders, type VideoClient, type VideoListItem } from '@videogen/client';
import { PAGE_SIZE } from '@videogen/openapi/rules';
import type { Log } from './log.js';
import type { Resolved } from './options.js';
import type { DiscoveryRecord, ListOrder, RelayStore, Task, VideoRecord } from './store.js';

/** How long before the newest listed video a video is still remembered as listed (service clock, ms). */
export const SEEN_WINDOW_MS = 3600_000;

/**
 * While listings find nothing that announces did not tell (every process announces, or nothing is made),
 * the interval between them doubles, up to 2^QUIET_STEPS times `listIntervalMs` (4×: 80 s by default);
 * a listing that finds a video goes back to the interval.
 */
export const QUIET_STEPS = 2;

export interface DiscoveryContext {
  client: VideoClient;
  store: RelayStore;
  o: Resolved;
  log: Log;
  /** The time (ms) from which listed videos are watched. */
  epoch: number;
  counted: (what: 'list') => void;
}

/** The order a page's items are in, by `created_at`, when the page can tell (two different times). */
export function orderOf(items: VideoListItem[]): ListOrder | undefined {
  const times = items.map((i) => Date.parse(i.created_at)).filter(Number.isFinite);
  let up = false;
  let down = false;
  for (let i = 1; i < times.length; i++) {
    if (times[i] > times[i - 1]) up = true;
    if (times[i] < times[i - 1]) down = true;
  }
  if (up && down) return 'unknown';
  if (down) return 'newest-first';
  if (up) return 'oldest-first';
  return undefined;
}

/**
 * When a listed video was created (ms), as late as its `created_at` allows: a time given to the second
 * (`…T09:00:00Z`, as many services write it) may be up to 999 ms later, and a video made just after the
 * relay's epoch must not pass for one made before it. A `created_at` that is no time: now (it is watched).
 */
export function createdAt(item: Pick<VideoListItem, 'created_at'>): number {
  const t = Date.parse(item.created_at);
  if (!Number.isFinite(t)) return Date.now();
  return /T\d{2}:\d{2}:\d{2}(?![.,]\d)/.test(item.created_at) ? t + 999 : t;
}

/** A new record for a video to watch (from a listing, or an announce). */
export function watchRecord(
  videoId: string,
  now: number,
  more: Partial<Pick<VideoRecord, 'source_video_id' | 'traceparent' | 'tracestate'>> = {},
): VideoRecord {
  return {
    kind: 'video',
    video_id: videoId,
    ...more,
    watching: true,
    polls: 0,
    pollErrors: 0,
    since: now,
    nextPollAt: now,
    emitted: [],
    events: [],
  };
}

/** One listing, while the discovery record's lease is held. */
export async function runDiscovery(ctx: DiscoveryContext, task: Task): Promise<void> {
  const { client, store, o, log } = ctx;
  const rec = task.record as DiscoveryRecord;
  const list = async (page: number) => {
    const p = await client.videos.list({ page });
    ctx.counted('list');
    return p;
  };
  let first: Awaited<ReturnType<typeof list>>;
  try {
    first = await list(1);
  } catch (e) {
    log.warn(
      { error: (e as Error)?.message },
      `listing the videos failed (${(e as Error)?.message}); again in ${o.listIntervalMs} ms`,
    );
    await store.release(task.id, task.fence, rec, o.listIntervalMs);
    if ((e as { kind?: string })?.kind === 'auth') throw e;
    return;
  }
  const order = orderOf(first.results) ?? rec.order ?? 'unknown';
  const lastPage = Math.max(1, Math.ceil(first.total_count / PAGE_SIZE));
  const newCount = rec.total === undefined ? undefined : Math.max(0, first.total_count - rec.total);
  // Older than this and unknown: listed before, or before the relay's time.
  const threshold = Math.max(ctx.epoch, (rec.watermark ?? Number.NEGATIVE_INFINITY) - SEEN_WINDOW_MS);
  const items: VideoListItem[] = [...first.results];
  const read = new Set([1]);
  const budget = () => read.size < o.maxListPages;
  const created = createdAt;
  // The sweep of an unknown order: new videos not found yet (-1: unknown), pages left to look at.
  let missing = rec.missing ?? 0;
  let scanLeft = rec.scanLeft ?? 0;
  let scanPage = rec.scanPage;
  try {
    if (first.has_next && order === 'newest-first') {
      // The new videos fill the first pages: read on while a page ends with a video not older than the threshold.
      let page = first;
      for (let n = 2; n <= lastPage && budget() && page.results.length > 0; n++) {
        if (created(page.results[page.results.length - 1]) < threshold) break;
        page = await list(n);
        read.add(n);
        items.push(...page.results);
      }
    } else if (first.has_next && order === 'oldest-first') {
      // The new videos are at the end: the last page, and the ones before it while they begin with new ones.
      for (let n = lastPage; n > 1 && budget(); n--) {
        const page = await list(n);
        read.add(n);
        items.push(...page.results);
        if (page.results.length === 0 || created(page.results[0]) < threshold) break;
      }
    } else if (first.has_next) {
      // No order to go by: the count says how many are new; a sweep of the other pages looks for them, a
      // few pages each listing, until it has found them or seen every page once.
      if (newCount === undefined || newCount > 0) {
        missing = newCount === undefined || missing < 0 ? -1 : missing + newCount;
        scanLeft = lastPage - 1;
      }
      const found = async (results: VideoListItem[]) => {
        const k = await store.known(results.map((i) => i.video_id));
        const n = results.filter((i, j) => !k[j] && created(i) >= threshold).length;
        if (missing > 0) missing = Math.max(0, missing - n);
      };
      await found(first.results);
      while (scanLeft > 0 && missing !== 0 && budget()) {
        const n = scanPage && scanPage >= 2 && scanPage <= lastPage ? scanPage : 2;
        scanPage = n >= lastPage ? 2 : n + 1;
        scanLeft--;
        const page = await list(n);
        read.add(n);
        items.push(...page.results);
        await found(page.results);
      }
      if (scanLeft === 0) missing = 0;
    }
  } catch (e) {
    log.warn(
      { error: (e as Error)?.message },
      `listing stopped at a page (${(e as Error)?.message}); what was read is used`,
    );
  }

  // What is new: unknown to the store, and not older than the threshold.
  const unique = [...new Map(items.map((i) => [i.video_id, i])).values()];
  const known = await store.known(unique.map((i) => i.video_id));
  const now = Date.now();
  const tracer = activeTracer('@videogen/relay');
  const watch: Array<{ record: VideoRecord; dueInMs: number }> = [];
  for (const [k, item] of unique.entries()) {
    if (known[k] || created(item) < threshold) continue;
    const record = watchRecord(item.video_id, now);
    record.createdAt = created(item);
    if (tracer) {
      // A video nobody announced begins its own trace here.
      const span = tracer.startSpan(
        'relay.watch',
        { kind: SpanKind.INTERNAL, attributes: { 'videogen.video_id': item.video_id, 'videogen.found_by': 'listing' } },
        ROOT_CONTEXT,
      );
      Object.assign(record, traceHeaders(trace.setSpan(ROOT_CONTEXT, span)), { ownTrace: true });
      span.end();
    }
    watch.push({ record, dueInMs: 0 });
  }
  const newest = Math.max(rec.watermark ?? Number.NEGATIVE_INFINITY, ...unique.map(created));
  const next: DiscoveryRecord = {
    kind: 'discovery',
    ...(Number.isFinite(newest) && { watermark: newest }),
    total: first.total_count,
    order,
    ...(scanPage !== undefined && { scanPage }),
    ...(missing !== 0 && { missing }),
    ...(scanLeft > 0 && { scanLeft }),
    // Listings in a row that found nothing announces had not told: the next waits longer (at most 4×).
    ...(watch.length === 0 && { quiet: Math.min((rec.quiet ?? 0) + 1, QUIET_STEPS) }),
  };
  const dueInMs = o.listIntervalMs * 2 ** (next.quiet ?? 0);
  const written = await store.release(task.id, task.fence, next, dueInMs, {
    watch,
    seen: unique.filter((i) => created(i) >= newest - SEEN_WINDOW_MS).map((i) => [i.video_id, created(i)]),
    ...(Number.isFinite(newest) && { forgetSeenBefore: newest - SEEN_WINDOW_MS }),
  });
  if (!written) return;
  const pages = [...read].sort((a, b) => a - b);
  log.debug(
    { pages, order, total: first.total_count, found: watch.length },
    `listed pages ${pages.join(', ')} (${order})`,
  );
  if (watch.length)
    log.info(
      { found: watch.length, pages, order },
      `listing found ${watch.length} video${watch.length === 1 ? '' : 's'} to watch (pages ${pages.join(', ')}, ${order})`,
    );
  if (watch.length) await store.wake();
}
