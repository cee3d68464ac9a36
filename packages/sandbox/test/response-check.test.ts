// The test-mode checker finds real violations (so "zero violations" in the other tests means something).
import { expect, it } from 'vitest';
import { specModel } from '../src/spec.js';
import { responseProblems } from '../src/response-check.js';

const model = specModel();
const op = (id: string) => model.operations.find((o) => o.operationId === id)!;
const json = 'application/json; charset=utf-8';

it('accepts a conforming answer and reports each kind of violation', () => {
  const running = {
    video_id: '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10',
    status: 'running',
    download_url: '',
    copyright: [],
  };
  expect(responseProblems(model, op('getVideo'), 200, json, JSON.stringify(running))).toEqual([]);
  expect(
    responseProblems(model, op('getVideo'), 200, json, JSON.stringify({ ...running, download_url: 'http://x/y' }))
      .length,
  ).toBeGreaterThan(0);
  expect(
    responseProblems(model, op('getVideo'), 200, json, JSON.stringify({ ...running, status: 'done' })).length,
  ).toBeGreaterThan(0);
  // An undeclared error status is a mismatch with the decided 400 (typed findings, suite): the body is still judged.
  expect(responseProblems(model, op('getVideo'), 418, json, '{}')[0]).toMatch(
    /^status 418 is not declared for getVideo/,
  );
  expect(responseProblems(model, op('getVideo'), 200, 'text/plain', 'hi')[0]).toMatch(/content type/);
  // Conversion codes are open (known codes + any string) except 404 NOT_FOUND, fixed by 7.2.
  expect(
    responseProblems(model, op('createConversion'), 400, json, JSON.stringify({ error_code: 42, error: 'x' })).length,
  ).toBeGreaterThan(0);
  expect(
    responseProblems(
      model,
      op('createConversion'),
      404,
      json,
      JSON.stringify({ error_code: 'VIDEO_NOT_FOUND', error: 'x' }),
    ).length,
  ).toBeGreaterThan(0);
  expect(
    responseProblems(
      model,
      op('listVideos'),
      200,
      json,
      JSON.stringify({ results: [], has_next: false, total_count: 0, page: 1, items_per_page: 20 }),
    ).length,
  ).toBeGreaterThan(0);
});
