// At most once for every POST: a generation whose attempt may have created a video
// without saying so (its answer was lost, or a 5xx other than 503) is looked for in the account's list,
// the way the client looks (the rules' newestPages and findCreated), instead of being sent again blindly.
import { findCreated, newestPages } from '@videogen/openapi/rules';
import type { RequestOptions } from '../shapes.ts';

/** Reads one page of GET /videos/ with the request's key: its status and parsed body. */
export type ListPage = (page: number) => Promise<{ status: number; body: unknown }>;

/** What the look found: the video the attempt made, none (`absent`), or nothing it can tell (`unknown`). */
export type Looked = { video_id: string } | 'absent' | 'unknown';

/**
 * The video a create may have made. Only a generation with a `text` can be recognised (by its prompt
 * and creation time, less the videos the run already knows); a conversion's new video, or a generation
 * from files alone, cannot be told apart from the account's others.
 */
export async function lookForCreated(
  operationId: string | undefined,
  opts: RequestOptions,
  list: ListPage,
  wanted: { sentAt: number; known: ReadonlySet<string> },
): Promise<Looked> {
  const text = operationId === 'generateVideo' ? opts.form?.get('text') : undefined;
  if (typeof text !== 'string') return 'unknown';
  try {
    const first = await list(1);
    const pages = [first];
    const body = (first.body ?? {}) as { total_count?: unknown; items_per_page?: unknown };
    for (const n of newestPages(body).slice(1)) pages.push(await list(n));
    if (pages.some((p) => p.status !== 200)) return 'unknown';
    const items = pages.flatMap((p) => ((p.body as { results?: unknown[] })?.results ?? []) as unknown[]);
    const hit = findCreated(items, { prompt: text, sentAt: wanted.sentAt, known: wanted.known });
    return hit ? { video_id: hit.video_id } : 'absent';
  } catch {
    return 'unknown';
  }
}
