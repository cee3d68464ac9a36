// Every example in the document must validate against the schema it illustrates.
import { describe, expect, it } from 'vitest';
import { checkResponse, createAjv, deref, listOperations, loadSpec, validatorFor } from '../lib/index.js';

const spec = loadSpec();
const ajv = createAjv(spec);

type Case = { where: string; schema: any; value: unknown };
const cases: Case[] = [];

function validate(schema: any, value: unknown) {
  const v = schema.$ref ? validatorFor(ajv, schema.$ref) : ajv.compile(schema);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

for (const [name, schema] of Object.entries<any>(spec.components.schemas)) {
  if ('example' in schema)
    cases.push({
      where: `components.schemas.${name}.example`,
      schema: { $ref: `#/components/schemas/${name}` },
      value: schema.example,
    });
}
for (const [name, p] of Object.entries<any>(spec.components.parameters)) {
  if ('example' in p)
    cases.push({ where: `components.parameters.${name}.example`, schema: p.schema, value: p.example });
}
for (const [name, h] of Object.entries<any>(spec.components.headers)) {
  if ('example' in h) cases.push({ where: `components.headers.${name}.example`, schema: h.schema, value: h.example });
}
for (const op of listOperations(spec)) {
  const body = deref(spec, op.operation.requestBody);
  for (const [mt, media] of Object.entries<any>(body?.content ?? {})) {
    for (const [exName, ex] of Object.entries<any>(media.examples ?? {}))
      cases.push({ where: `${op.operationId} request ${mt} example ${exName}`, schema: media.schema, value: ex.value });
  }
  for (const [status, r] of Object.entries<any>(op.operation.responses)) {
    const response = deref(spec, r);
    for (const [mt, media] of Object.entries<any>(response.content ?? {})) {
      const examples = Object.entries<any>(media.examples ?? {});
      cases.push({
        where: `${op.operationId} ${status} ${mt} has examples`,
        schema: { type: 'integer', minimum: 1 },
        value: examples.length,
      });
      for (const [exName, ex] of examples)
        cases.push({
          where: `${op.operationId} ${status} ${mt} example ${exName}`,
          schema: media.schema,
          value: ex.value,
        });
    }
  }
}

describe('every example validates against its schema', () => {
  it('finds examples to check', () => {
    expect(cases.length).toBeGreaterThan(60);
  });
  it.each(cases.map((c) => [c.where, c] as const))('%s', (_where, c) => {
    expect(validate(c.schema, c.value)).toEqual([]);
  });
  it('rejects a broken example (the check can fail)', () => {
    expect(
      validate({ $ref: '#/components/schemas/Video' }, { video_id: 'nope', status: 'done', download_url: 1 }),
    ).not.toEqual([]);
    expect(
      validate(
        { $ref: '#/components/schemas/Video' },
        {
          video_id: '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10',
          status: 'running',
          download_url: 'https://x/y',
          copyright: [],
        },
      ),
    ).not.toEqual([]);
  });
});

describe('validatorFor', () => {
  it('refuses a ref that is not in the document, with its name (registered, it would recurse forever)', () => {
    expect(() => validatorFor(ajv, '#/components/schemas/Error')).toThrow(
      '#/components/schemas/Error is not in the OpenAPI document',
    );
    expect(validatorFor(ajv, '#/components/schemas/ErrorBody')({ error_code: 'NOT_FOUND', error: 'x' })).toBe(true);
  });
});

describe('checkResponse validates declared headers', () => {
  const op = listOperations(spec).find((o) => o.operationId === 'getVideo')!.operation;
  const body = { video_id: '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10', status: 'running', download_url: '', copyright: [] };
  const run = (headers: Record<string, string>) =>
    checkResponse(ajv, spec, op, { status: 200, contentType: 'application/json', body, headers: new Headers(headers) });
  it('accepts valid and absent optional headers', () => {
    expect(run({ 'RateLimit-Remaining': '4', 'RateLimit-Reset': '0.25', 'RateLimit-Policy': '5;w=0.1' })).toEqual([]);
    expect(run({})).toEqual([]);
  });
  it('reports a malformed header', () => {
    expect(run({ 'RateLimit-Remaining': 'lots' })).toEqual([
      expect.objectContaining({ kind: 'header', message: expect.stringContaining('header RateLimit-Remaining') }),
    ]);
    expect(run({ 'RateLimit-Policy': 'five per ten' })).toEqual([
      expect.objectContaining({ kind: 'header', message: expect.stringContaining('header RateLimit-Policy') }),
    ]);
  });
});
