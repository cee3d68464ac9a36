// Paging of the two list operations (interface 2.5 and 8.3): 50 per page, has_next exactly when
// page × 50 < total_count, page echoed, a page past the end empty; bad pages → 400.
import { decisionsOf } from '@videogen/openapi';
import { PAGE_SIZE } from '@videogen/openapi/rules';
import { loadContract } from '../spec.ts';
import { check, ensure, mismatch, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';

const LISTS = [
  { operation: 'listVideoSettings', path: '/video-settings/' },
  { operation: 'listVideos', path: '/videos/' },
];

const PER_PAGE = PAGE_SIZE;

async function page(ctx: CheckContext, path: string, n?: number) {
  const ex = await ctx.main.get(path, n === undefined ? {} : { query: { page: n } });
  const body = ensureStatus(ex, 200, `GET ${path}${n === undefined ? '' : `?page=${n}`}`);
  ensure(body && Array.isArray(body.results), 'results is not an array', ex);
  return { ex, body };
}

function ensureEnvelope(ex: any, body: any, n: number) {
  ensure(body.items_per_page === PER_PAGE, `items_per_page is ${body.items_per_page}, not ${PER_PAGE}`, ex);
  ensure(body.results.length <= PER_PAGE, `results holds ${body.results.length} items, more than ${PER_PAGE}`, ex);
  ensure(body.page === n, `page is ${body.page}, not the requested ${n}`, ex);
  ensure(Number.isInteger(body.total_count) && body.total_count >= 0, `total_count ${body.total_count} is not a count`, ex);
  const expectNext = n * PER_PAGE < body.total_count;
  ensure(body.has_next === expectNext, `has_next is ${body.has_next} but page ${n} × ${PER_PAGE} ${expectNext ? '<' : '≥'} total_count ${body.total_count}`, ex);
  const expectLen = Math.max(0, Math.min(PER_PAGE, body.total_count - (n - 1) * PER_PAGE));
  ensure(body.results.length === expectLen, `page ${n} holds ${body.results.length} items; with total_count ${body.total_count} it should hold ${expectLen}`, ex);
}

export const pagingChecks: Check[] = LISTS.flatMap(({ operation, path }) => [
  check(operation, 'paging_first_page', async (ctx) => {
    const explicit = await page(ctx, path, 1);
    ensureEnvelope(explicit.ex, explicit.body, 1);
    // Without `page` the first page is served (default 1).
    const implicit = await page(ctx, path);
    ensureEnvelope(implicit.ex, implicit.body, 1);
  }),
  check(operation, 'paging_past_the_end', async (ctx) => {
    ctx.requireStateful('it answers the same example whatever the page');
    const first = await page(ctx, path, 1);
    const last = Math.max(1, Math.ceil(first.body.total_count / PER_PAGE));
    if (last > 1) {
      const l = await page(ctx, path, last);
      ensureEnvelope(l.ex, l.body, last);
    }
    const past = await page(ctx, path, last + 1);
    // What a page past the end holds is our choice (x-decision on the page parameter), not the interface's.
    if (past.body.results.length !== 0 || past.body.page !== last + 1) {
      const decision = decisionsOf(loadContract().spec.components.parameters.Page);
      const what = `page ${last + 1} past the end (total_count ${first.body.total_count}) answered page ${past.body.page} with ${past.body.results.length} results`;
      if (!decision) ensure(false, what, past.ex);
      mismatch(decision!, 'value', what, past.ex);
      ensureEnvelope(past.ex, past.body, past.body.page);
    } else ensureEnvelope(past.ex, past.body, last + 1);
  }),
  check(operation, 'negative_data_rejection_page', async (ctx) => {
    // page starts at 1 and is an integer (8.3): each of these is a bad request, not a server error.
    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const ex = await ctx.main.get(path, { query: { page: bad } });
      ensureError(ex, [400]);
    }
  }),
]);
