// At most once for every POST: after a create that may have done its work (retryDecision's `lookFirst`),
// where to look for what it made, and how to recognise it. The client and the contract suite read the
// list with their own senders and ask these two functions; neither keeps a rule of its own.
//
// What can be recognised: a generation with a `text`, by its prompt (2.2 shows it in the list) and its
// creation time. A generation from files alone, and a conversion (4.5 does not say what its new video's
// prompt is), cannot be told apart from the caller's other videos: not re-sent, reported.
import { PAGE_SIZE } from './generated/constants.js';

/** How far the service's clock may be behind ours: a video created this long before the first attempt still matches. */
export const CLOCK_SKEW_MS = 60_000;

/** The pages of `GET /videos/` that hold the newest videos: the first and the last (the interface does not state the order). */
export function newestPages(first: { total_count?: unknown; items_per_page?: unknown }): number[] {
  const total = typeof first.total_count === 'number' ? first.total_count : 0;
  const perPage =
    typeof first.items_per_page === 'number' && first.items_per_page > 0 ? first.items_per_page : PAGE_SIZE;
  const last = Math.ceil(total / perPage);
  return last > 1 ? [1, last] : [1];
}

export interface CreatedItem {
  video_id: string;
  created_at: string;
  prompt: string;
}

/**
 * The video a create may have made, among list items: one with the request's prompt, created since the
 * first attempt was sent (less CLOCK_SKEW_MS), and none the caller already knows (its own earlier
 * videos with the same text). Undefined when no item matches; the newest when several do.
 */
export function findCreated(
  items: Iterable<unknown>,
  wanted: { prompt: string; sentAt: number; known?: ReadonlySet<string> },
): CreatedItem | undefined {
  let best: { item: CreatedItem; at: number } | undefined;
  for (const raw of items) {
    const item = raw as Partial<CreatedItem> | null;
    if (!item || typeof item.video_id !== 'string' || item.prompt !== wanted.prompt) continue;
    if (wanted.known?.has(item.video_id)) continue;
    const at = Date.parse(String(item.created_at));
    if (!(at >= wanted.sentAt - CLOCK_SKEW_MS)) continue;
    if (!best || at > best.at) best = { item: item as CreatedItem, at };
  }
  return best?.item;
}
