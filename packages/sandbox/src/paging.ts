// The paged list envelope of interface 2.5 / 8.3: PAGE_SIZE items per page (the spec's items_per_page), pages start at 1.
import { PAGE_SIZE } from '@videogen/openapi/rules';
import type { Schemas } from '@videogen/openapi/types';

export const ITEMS_PER_PAGE = PAGE_SIZE;

/** The envelope of one page, with its items (the document's VideoList and VideoSettingList are this). */
export type Page<T> = Schemas['PageEnvelope'] & { results: T[] };

export function pageOf<T>(items: T[], page: number): Page<T> {
  const start = (page - 1) * ITEMS_PER_PAGE;
  return {
    results: items.slice(start, start + ITEMS_PER_PAGE),
    has_next: page * ITEMS_PER_PAGE < items.length,
    total_count: items.length,
    page,
    items_per_page: ITEMS_PER_PAGE,
  };
}

/** The envelope of one page read from a store: `results` is that page alone, `total` the item count. */
export function pageFrom<T>(results: T[], total: number, page: number): Page<T> {
  return { results, has_next: page * ITEMS_PER_PAGE < total, total_count: total, page, items_per_page: ITEMS_PER_PAGE };
}
