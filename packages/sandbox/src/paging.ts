// The paged list envelope of interface 2.5 / 8.3: PAGE_SIZE items per page (the spec's items_per_page), pages start at 1.
import { PAGE_SIZE } from '@videogen/openapi/rules';

export const ITEMS_PER_PAGE = PAGE_SIZE;

export function pageOf<T>(items: T[], page: number) {
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
export function pageFrom<T>(results: T[], total: number, page: number) {
  return { results, has_next: page * ITEMS_PER_PAGE < total, total_count: total, page, items_per_page: ITEMS_PER_PAGE };
}
