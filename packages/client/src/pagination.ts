import { UnexpectedResponseError } from './errors.js';

/** The paged list envelope (interface 2.5). */
export interface Page<T> {
  results: T[];
  has_next: boolean;
  total_count: number;
  page: number;
  items_per_page: number;
}
export interface ListOptions {
  /** Only this page (1-based) instead of every page from the first. */
  page?: number;
  signal?: AbortSignal;
}
export interface Paginated<T> extends AsyncIterable<T> {
  /** The envelopes, one per page, fetched lazily. */
  pages(): AsyncIterableIterator<Page<T>>;
}

/** Items of a list endpoint, page by page, each page fetched only when iteration reaches it. */
export function paginate<T>(load: (page: number, signal?: AbortSignal) => Promise<Page<T>>, { page, signal }: ListOptions = {}): Paginated<T> {
  async function* pages() {
    let seen = 0, previous: string | undefined;
    for (let n = page ?? 1; ; n++) {
      const p = await load(n, signal);
      if (!p || !Array.isArray(p.results) || typeof p.has_next != 'boolean')
        throw new UnexpectedResponseError(`Page ${n} is not a paged list (results array, has_next boolean)`);
      // A list that never ends would loop forever: stop on a page that does not advance or repeats.
      if (typeof p.page == 'number' && p.page != n) throw new UnexpectedResponseError(`Asked for page ${n}, the service answered page ${p.page}`);
      const fingerprint = JSON.stringify(p.results);
      if (n > (page ?? 1) && fingerprint == previous) throw new UnexpectedResponseError(`Page ${n} repeats page ${n - 1}`);
      previous = fingerprint;
      seen += p.results.length;
      if (p.has_next && typeof p.total_count == 'number' && seen >= p.total_count)
        throw new UnexpectedResponseError(`Page ${n} says has_next, but its ${seen} items already reach total_count ${p.total_count}`);
      yield p;
      if (page || !p.has_next || !p.results.length) return;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const p of pages()) yield* p.results;
    },
  };
}
