// @videogen/openapi/types: generated from the document in one place (moved here from the client with
// its two checks), and keyed by operationId as the packages read it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { OPERATIONS } from '../rules/src/generated/constants.js';
import type {
  ErrorStatus,
  FilledQueryParams,
  JsonOperationId,
  MethodOf,
  OperationId,
  OperationIdOf,
  PathOf,
  PathParams,
  paths,
  QueryParams,
  RequestBody,
  Schemas,
  SuccessBody,
  SuccessStatus,
} from '../types/src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('@videogen/openapi/types', () => {
  it('has types/src/generated/ in sync with the spec', () => {
    const out = execFileSync('node', ['scripts/generate-types.mjs', '--check'], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/matches the spec/);
  });

  it('marks generated files as generated', () => {
    for (const f of ['openapi.ts'])
      expect(readFileSync(`${root}types/src/generated/${f}`, 'utf8')).toMatch(/^\/\/ GENERATED .* Do not edit/);
  });

  it('names every operation of the generated table, with its method and path', () => {
    expectTypeOf<OperationId>().toEqualTypeOf<(typeof OPERATIONS)[number]['operationId']>();
    expectTypeOf<MethodOf<'getVideo'>>().toEqualTypeOf<'get'>();
    expectTypeOf<PathOf<'createConversion'>>().toEqualTypeOf<'/videos/{video_id}/conversions/'>();
    expectTypeOf<OperationIdOf<'post', '/videos/{video_id}/conversions/'>>().toEqualTypeOf<'createConversion'>();
    expectTypeOf<paths[PathOf<'getVideo'>]['get']>().toEqualTypeOf<
      import('../types/src/index.js').operations['getVideo']
    >();
  });

  it('types each operation by its id: parameters, bodies and answers', () => {
    expectTypeOf<PathParams<'getVideo'>>().toEqualTypeOf<{ video_id: string }>();
    expectTypeOf<keyof PathParams<'listVideos'>>().toEqualTypeOf<never>();
    expectTypeOf<QueryParams<'listVideos'>>().toEqualTypeOf<{ page?: number }>();
    // The server's view: the default of `page` filled in.
    expectTypeOf<FilledQueryParams<'listVideos'>['page']>().toEqualTypeOf<number>();
    expectTypeOf<RequestBody<'createConversion'>>().toEqualTypeOf<Schemas['ConversionRequest']>();
    expectTypeOf<JsonOperationId>().toEqualTypeOf<'createConversion'>();
    expectTypeOf<SuccessStatus<'getVideo'>>().toEqualTypeOf<200>();
    expectTypeOf<SuccessBody<'getVideo'>>().toEqualTypeOf<Schemas['Video']>();
    expectTypeOf<SuccessBody<'listVideos'>['results'][number]>().toEqualTypeOf<Schemas['VideoListItem']>();
    expectTypeOf<404>().toExtend<ErrorStatus<'getVideo'>>();
    expectTypeOf<200>().not.toExtend<ErrorStatus<'getVideo'>>();
  });
});
