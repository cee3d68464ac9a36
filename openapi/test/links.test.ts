// OpenAPI links let workflow and stateful tools chain calls: from the answers that carry a
// video_id to the operations that take one. Each link must name a real operation and parameter, and
// its runtime expression must find a video id in every example of the response it sits on.
import { describe, expect, it } from 'vitest';
import { deref, linkParameters, listOperations, loadSpec } from '../lib/index.js';

const spec = loadSpec();
const ops = Object.fromEntries(listOperations(spec).map((o) => [o.operationId, o]));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every link of every 200: [source operationId, link name, link]. */
const links = listOperations(spec).flatMap((op) =>
  Object.entries<any>(deref(spec, op.operation.responses['200']).links ?? {}).map(
    ([name, l]) => [op.operationId, name, deref(spec, l)] as const,
  ),
);

describe('links', () => {
  it('lead from each answer with a video id to the operations that take one', () => {
    const targets = (id: string) =>
      links
        .filter(([from]) => from === id)
        .map(([, , l]) => l.operationId)
        .sort();
    for (const from of ['generateVideo', 'createConversion', 'listVideos'])
      expect(targets(from), from).toEqual(['getConversionOptions', 'getVideo']);
    expect(targets('getVideo')).toEqual(['createConversion', 'getConversionOptions']);
    expect(targets('getConversionOptions')).toEqual(['createConversion', 'getVideo']);
  });

  it.each(links.map(([from, name, link]) => [`${from} → ${name}`, from, link] as const))(
    '%s names a real operation and parameter, and resolves on every example',
    (_n, from, link) => {
      const target = ops[link.operationId];
      expect(target, link.operationId).toBeDefined();
      const source = ops[from];
      const examples = Object.values<any>(
        deref(spec, source.operation.responses['200']).content['application/json'].examples,
      );
      expect(examples.length).toBeGreaterThan(0);
      for (const param of Object.keys(link.parameters))
        expect(
          target.parameters.map((p: any) => p.name),
          link.operationId,
        ).toContain(param);
      const pathParams = Object.fromEntries(
        source.parameters.filter((p: any) => p.in === 'path').map((p: any) => [p.name, p.example]),
      );
      for (const ex of examples) {
        // A page past the end has no first item: nothing to follow, which is what a tool finds too.
        if (Array.isArray(ex.value.results) && ex.value.results.length === 0) continue;
        for (const value of Object.values(linkParameters(link, { body: ex.value, pathParams })))
          expect(value, `${JSON.stringify(link.parameters)} on ${JSON.stringify(ex.value).slice(0, 80)}`).toMatch(UUID);
      }
    },
  );

  it('linkParameters reads what it should (the check can fail)', () => {
    const link = (video_id: string) => ({ parameters: { video_id } });
    expect(
      linkParameters(link('$response.body#/results/0/video_id'), { body: { results: [{ video_id: 'a' }] } }),
    ).toEqual({ video_id: 'a' });
    expect(linkParameters(link('$response.body#/video_id'), { body: {} })).toEqual({ video_id: undefined });
    expect(linkParameters(link('$request.path.video_id'), { body: {}, pathParams: { video_id: 'b' } })).toEqual({
      video_id: 'b',
    });
    expect(linkParameters(link('fixed'), { body: {} })).toEqual({ video_id: 'fixed' });
  });
});
