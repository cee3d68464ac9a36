// checkResponse's typed findings and their tier (owned by suite): an element carrying x-decision
// makes its own failures decision mismatches; anything else, even inside it, stays interface.
import { describe, expect, it } from 'vitest';
import { checkResponse, createAjv, listOperations, loadSpec } from '../lib/index.js';

const spec = loadSpec();
const ajv = createAjv(spec);
const op = (id: string) => listOperations(spec).find((o) => o.operationId === id)!.operation;
const json = 'application/json';
const id = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';

describe('checkResponse findings', () => {
  it('a conforming response has none', () => {
    expect(
      checkResponse(ajv, spec, op('generateVideo'), { status: 200, contentType: json, body: { video_id: id } }),
    ).toEqual([]);
  });
  it('201 for a declared 200 that carries x-decision: a decision mismatch, body still judged', () => {
    const ok = checkResponse(ajv, spec, op('generateVideo'), {
      status: 201,
      contentType: json,
      body: { video_id: id },
    });
    expect(ok).toEqual([expect.objectContaining({ kind: 'status', decision: 2 })]);
    const bad = checkResponse(ajv, spec, op('generateVideo'), { status: 201, contentType: json, body: {} });
    expect(bad.map((f) => [f.kind, f.decision])).toEqual([
      ['status', 2],
      ['body', undefined],
    ]);
  });
  it('a body failure inside a decided response is interface', () => {
    const f = checkResponse(ajv, spec, op('generateVideo'), {
      status: 200,
      contentType: json,
      body: { video_id: 'nope' },
    });
    expect(f).toEqual([expect.objectContaining({ kind: 'body', pointer: '/video_id' })]);
    expect(f[0].decision).toBeUndefined();
  });
  it('a status no declared response of its class stands in for is interface', () => {
    const f = checkResponse(ajv, spec, op('getVideo'), { status: 302, contentType: json, body: {} });
    expect(f).toEqual([expect.objectContaining({ kind: 'status' })]);
    expect(f[0].decision).toBeUndefined();
  });
  it('an undeclared error status stands in for the expected one', () => {
    const f = checkResponse(
      ajv,
      spec,
      op('generateVideo'),
      { status: 422, contentType: json, body: { error_code: 'X', error: 'no' } },
      { expectedStatus: 400 },
    );
    expect(f).toEqual([expect.objectContaining({ kind: 'status', decisions: expect.arrayContaining([8]) })]);
  });
  it('an undeclared 4xx on a conversion stands in for its 400 and cites #10 (its INVALID_REQUEST), not the 401 of #29', () => {
    const f = checkResponse(ajv, spec, op('createConversion'), {
      status: 422,
      contentType: json,
      body: { error_code: 'X', error: 'no' },
    });
    expect(f).toEqual([expect.objectContaining({ kind: 'status', decision: 10, decisions: [10] })]);
    // (an expected 400, which is the conversion's, the same)
    expect(
      checkResponse(
        ajv,
        spec,
        op('createConversion'),
        { status: 422, contentType: json, body: { error_code: 'X', error: 'no' } },
        { expectedStatus: 400 },
      )[0].decisions,
    ).toEqual([10]);
  });
  it('a decision between two declared statuses stands in only for its own: a 419 for an expected 401 is #29, for an expected 404 of the interface no decision', () => {
    const body = { error_code: 'X', error: 'no' };
    expect(
      checkResponse(
        ajv,
        spec,
        op('createConversion'),
        { status: 419, contentType: json, body },
        { expectedStatus: 401 },
      )[0].decisions,
    ).toEqual([29]);
    const f = checkResponse(
      ajv,
      spec,
      op('createConversion'),
      { status: 419, contentType: json, body },
      { expectedStatus: 404 },
    );
    expect(f).toEqual([expect.objectContaining({ kind: 'status' })]);
    expect(f[0].decision).toBeUndefined();
  });
  it('content type and header kinds', () => {
    expect(checkResponse(ajv, spec, op('getVideo'), { status: 200, contentType: 'text/html', body: '' })[0].kind).toBe(
      'content-type',
    );
  });
});
