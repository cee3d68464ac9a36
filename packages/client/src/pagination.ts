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
    for (let n = page ?? 1; ; n++) {
      const p = await load(n, signal);
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
