import type { Schemas } from '@videogen/openapi/types';
import type { APIPromise, WithResponse } from './api-promise.js';
import { UnexpectedResponseError } from './errors.js';
import type { RequestOptions } from './transport.js';

/** The paged list envelope (interface 2.5): the document's paging fields, and the page's items. */
export type Page<T> = Schemas['PageEnvelope'] & { results: T[] };
export interface ListOptions extends RequestOptions {
  /** Only this page (1-based) instead of every page from the first. */
  page?: number;
}

/**
 * A list call: iterate it for every item (each page fetched only when iteration reaches it), `.pages()`
 * for the envelopes, or await it (or `.withResponse()`) for one page: the first, or `{ page }`.
 */
export class Paginated<T> implements AsyncIterable<T>, PromiseLike<Page<T>> {
  #first?: APIPromise<Page<T>>;
  readonly #load: (page: number) => APIPromise<Page<T>>;
  readonly #page?: number;

  constructor(load: (page: number) => APIPromise<Page<T>>, { page }: { page?: number } = {}) {
    this.#load = load;
    this.#page = page;
  }

  /** The envelopes, one per page, fetched lazily. */
  async *pages(): AsyncIterableIterator<Page<T>> {
    const from = this.#page ?? 1;
    let seen = 0,
      previous: string | undefined;
    for (let n = from; ; n++) {
      const p = checked(await this.#load(n), n);
      // A list that never ends would loop forever: stop on a page that does not advance or repeats.
      const fingerprint = JSON.stringify(p.results);
      if (n > from && fingerprint === previous) throw new UnexpectedResponseError(`Page ${n} repeats page ${n - 1}`);
      previous = fingerprint;
      seen += p.results.length;
      if (p.has_next && typeof p.total_count === 'number' && seen >= p.total_count)
        throw new UnexpectedResponseError(
          `Page ${n} says has_next, but its ${seen} items already reach total_count ${p.total_count}`,
        );
      yield p;
      if (this.#page || !p.has_next || !p.results.length) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const p of this.pages()) yield* p.results;
  }

  /** The first page (or the one asked for), fetched once however often it is awaited (iterating fetches afresh). */
  #one(): Promise<Page<T>> {
    const n = this.#page ?? 1;
    return (this.#first ??= this.#load(n)).then((p) => checked(p, n));
  }

  // biome-ignore lint/suspicious/noThenProperty: a page promise is awaited for its first page, and iterated for every item
  then<A = Page<T>, B = never>(
    onfulfilled?: ((value: Page<T>) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature (lib.es5.d.ts): a caller's .catch((e) => e.status) compiles as on any promise
    onrejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#one().then(onfulfilled, onrejected);
  }

  // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature (lib.es5.d.ts): a caller's .catch((e) => e.status) compiles as on any promise
  catch<B = never>(onrejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#one().catch(onrejected);
  }
  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#one().finally(onfinally);
  }

  /** One page (the first, or `{ page }`) and its raw Response. */
  async withResponse(): Promise<WithResponse<Page<T>>> {
    const { response } = await (this.#first ??= this.#load(this.#page ?? 1)).withResponse();
    return { data: await this.#one(), response };
  }
}

/** A page must be a paged list, and the one asked for. */
function checked<T>(p: Page<T>, n: number): Page<T> {
  if (!p || !Array.isArray(p.results) || typeof p.has_next !== 'boolean')
    throw new UnexpectedResponseError(`Page ${n} is not a paged list (results array, has_next boolean)`);
  if (typeof p.page === 'number' && p.page !== n)
    throw new UnexpectedResponseError(`Asked for page ${n}, the service answered page ${p.page}`);
  return p;
}
