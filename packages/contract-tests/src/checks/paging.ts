// Paging of the two list operations (interface 2.5 and 8.3): 50 per page, has_next exactly when
// page × 50 < total_count, page echoed, the default page 1; a page past the end empty (our choice,
// DECISIONS #30); bad pages refused.
import { PAGE_SIZE } from '@videogen/openapi/rules';
import { ok } from '../scenarios/videos.ts';
import type { Answered } from '../engine/bodies.ts';
import { need, probe, type Check } from '../engine/catalogue.ts';
import { operationEntry } from '../engine/http.ts';
import { ensure, type Judge } from '../engine/judge.ts';
import type { Exchange } from '../shapes.ts';

/** The list operations, with the path a message names them by (the document's). */
const LISTS = (['listVideoSettings', 'listVideos'] as const).map((operation) => ({
  operation,
  path: operationEntry(operation).path,
}));
type List = (typeof LISTS)[number]['operation'];

/** The envelope of page `n` (2.5), read from a 200 answer. */
function envelope(j: Judge, ex: Exchange, n: number, body: Answered<List> | undefined): void {
  ensure(body && Array.isArray(body.results), 'results is not an array', ex);
  ensure(body.items_per_page === PAGE_SIZE, `items_per_page is ${body.items_per_page}, not ${PAGE_SIZE}`, ex);
  ensure(body.results.length <= PAGE_SIZE, `results holds ${body.results.length} items, more than ${PAGE_SIZE}`, ex);
  ensure(body.page === n, `page is ${body.page}, not the requested ${n}`, ex);
  const total = body.total_count;
  ensure(
    typeof total === 'number' && Number.isInteger(total) && total >= 0,
    `total_count ${body.total_count} is not a count`,
    ex,
  );
  const expectNext = n * PAGE_SIZE < total;
  ensure(
    body.has_next === expectNext,
    `has_next is ${body.has_next} but page ${n} × ${PAGE_SIZE} ${expectNext ? '<' : '≥'} total_count ${body.total_count}`,
    ex,
  );
  const expectLen = Math.max(0, Math.min(PAGE_SIZE, total - (n - 1) * PAGE_SIZE));
  ensure(
    body.results.length === expectLen,
    `page ${n} holds ${body.results.length} items; with total_count ${body.total_count} it should hold ${expectLen}`,
    ex,
  );
}

const page = (j: Judge, ex: Exchange<List>, n: number, path: string) => {
  const body = j.success(ex, `GET ${path}?page=${n}`);
  envelope(j, ex, n, body);
  return body as Answered<List> & { total_count: number };
};

export const pagingChecks: Check[] = LISTS.flatMap(({ operation, path }) => [
  probe(operation, 'paging_first_page', {
    cost: { B: 2 },
    send: async (s) => ({
      explicit: await s.main.call(operation, { query: { page: 1 } }),
      implicit: await s.main.call(operation, {}),
    }),
    judge: (r, j) => {
      page(j, r.explicit, 1, path);
      // Without `page` the first page is served (default 1).
      page(j, r.implicit, 1, path);
    },
  }),
  probe(operation, 'paging_past_the_end', {
    needs: [need.stateful('it answers the same example whatever the page')],
    cost: { B: 3, upTo: true },
    send: async (s) => {
      const first = await s.main.call(operation, { query: { page: 1 } });
      const total = (first.body as { total_count?: unknown })?.total_count;
      if (!ok(first) || typeof total !== 'number') return { first };
      const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
      const lastPage = last > 1 ? await s.main.call(operation, { query: { page: last } }) : undefined;
      return { first, last, lastPage, past: await s.main.call(operation, { query: { page: last + 1 } }) };
    },
    judge: (r, j) => {
      const first = page(j, r.first, 1, path);
      const last = j.present(r.last, `page ${Math.ceil(first.total_count / PAGE_SIZE)}`);
      if (r.lastPage) page(j, r.lastPage, last, path);
      const past = j.present(r.past, 'the page past the end');
      // What a page past the end holds is our choice (the page parameter's x-decision), not the interface's:
      // another answer that the interface allows (404 as Django REST Framework gives, the last page) is a mismatch.
      const decided = j.contract.parameterDecision(operation, 'page');
      const what = `page ${last + 1} past the end (total_count ${first.total_count})`;
      const body = j.success(past, `GET ${path}?page=${last + 1}, ${what}`, decided);
      const results = body?.results as unknown[] | undefined;
      if (results?.length !== 0 || body.page !== last + 1) {
        const found = `${what} answered page ${body?.page} with ${results?.length} results`;
        if (!decided) ensure(false, found, past);
        j.mismatch(decided, 'value', found, past);
        envelope(j, past, body.page as number, body);
      } else envelope(j, past, last + 1, body);
    },
  }),
  probe(operation, 'negative_data_rejection_page', {
    cost: { B: 4 },
    // page starts at 1 and is an integer (8.3): each of these is refused, never served or a server error.
    send: async (s) => {
      const answers: Exchange<List>[] = [];
      for (const bad of ['0', '-1', 'abc', '1.5']) answers.push(await s.main.call(operation, { query: { page: bad } }));
      return answers;
    },
    judge: (answers, j) => {
      for (const ex of answers) j.refusal(ex, [400]);
    },
    answers: [{ status: 400 }],
  }),
]);
