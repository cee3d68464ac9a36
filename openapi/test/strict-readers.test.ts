// Validators that close unevaluated properties by default must read the document as our Ajv does.
// `redocly respect` checks every response with Redocly's Ajv fork and the options below
// (@redocly/cli 2.77's respect; Redocly lint's strict example check does the same): a schema with
// `properties` that says nothing about unevaluated properties is closed, outside `allOf` branches. Our
// Ajv reads it open (DECISIONS.md #21). So every response body the document allows, with extra
// properties at every level, must pass both, and every body that breaks a per-state rule must fail both.
import Ajv2020Fork from '@redocly/ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createAjv, deref, listOperations, loadSpec, validatorFor } from '../lib/index.js';
// @ts-expect-error: plain ESM script without types
import { dereference } from '../scripts/spec-diff.mjs';

const spec = loadSpec();
const ours = createAjv(spec);

/** A validator as `redocly respect` builds it: the fork, its options, the response's dereferenced schema. */
function respectValidator(schema: unknown) {
  const ajv = new (Ajv2020Fork as any)({
    schemaId: '$id',
    meta: true,
    allErrors: true,
    strictSchema: false,
    inlineRefs: false,
    validateSchema: false,
    discriminator: true,
    allowUnionTypes: true,
    validateFormats: true,
    passContext: true,
    logger: false,
    verbose: true,
    defaultUnevaluatedProperties: false,
  });
  return ajv.compile(schema);
}

type Case = { where: string; ref: string; schema: unknown; body: unknown };
/** Every JSON response example of the document, with the ref of the schema it illustrates. */
function responseExamples(doc: any): Case[] {
  const full = dereference(doc);
  const cases: Case[] = [];
  for (const op of listOperations(doc)) {
    for (const [status, r] of Object.entries<any>(op.operation.responses)) {
      const media = deref(doc, r).content?.['application/json'];
      if (!media?.schema?.$ref) continue;
      const schema = full.paths[op.path][op.method.toLowerCase()].responses[status].content['application/json'].schema;
      for (const [name, ex] of Object.entries<any>(media.examples ?? {}))
        cases.push({ where: `${op.operationId} ${status} ${name}`, ref: media.schema.$ref, schema, body: ex.value });
    }
  }
  return cases;
}

/** The body with an extra property in every object it contains (what #21 allows a service to add). */
function withExtras(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtras);
  if (value && typeof value === 'object')
    return {
      ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withExtras(v)])),
      x_added_by_the_service: 1,
    };
  return value;
}

const verdicts = (c: Case, body: unknown) => ({
  ours: validatorFor(ours, c.ref)(body) as boolean,
  respect: respectValidator(c.schema)(body) as boolean,
});

describe('response schemas under a validator that closes unevaluated properties by default (redocly respect)', () => {
  const cases = responseExamples(spec);

  it('finds the examples of every operation', () => {
    expect(new Set(cases.map((c) => c.where.split(' ')[0])).size).toBe(listOperations(spec).length);
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases.map((c) => [c.where, c] as const))(
    '%s: valid as it is and with extra properties, for both',
    (_w, c) => {
      expect(verdicts(c, c.body)).toEqual({ ours: true, respect: true });
      expect(verdicts(c, withExtras(c.body))).toEqual({ ours: true, respect: true });
    },
  );

  it('both refuse a body that breaks a per-state rule (the if/then branches apply under respect too)', () => {
    const find = (where: string) => cases.find((c) => c.where === where)!;
    const running = find('getVideo 200 running');
    const completed = find('getVideo 200 completed');
    const convertible = find('getConversionOptions 200 convertible');
    const broken: Array<[Case, unknown]> = [
      [running, { ...(running.body as object), download_url: 'https://x.example/v.mp4' }],
      [running, { ...(running.body as object), copyright: ['music'] }],
      [completed, { ...(completed.body as object), download_url: '' }],
      [convertible, { ...(convertible.body as object), available_aspect_ratios: ['16:9'] }],
      [running, { ...(running.body as object), status: 'done' }],
    ];
    for (const [c, body] of broken) {
      expect(verdicts(c, body), JSON.stringify(body)).toEqual({ ours: false, respect: false });
      expect(verdicts(c, withExtras(body)), JSON.stringify(body)).toEqual({ ours: false, respect: false });
    }
  });

  it('a branch without unevaluatedProperties: true makes respect refuse valid bodies (the check can fail)', () => {
    const broken = structuredClone(spec);
    delete broken.components.schemas.Video.allOf[1].then.unevaluatedProperties;
    const c = responseExamples(broken).find((x) => x.where === 'getVideo 200 completed')!;
    expect(respectValidator(c.schema)(c.body)).toBe(false);
    const open = structuredClone(spec);
    delete open.components.schemas.VideoListItem.unevaluatedProperties;
    const list = responseExamples(open).find((x) => x.where === 'listVideos 200 page')!;
    expect(respectValidator(list.schema)(list.body)).toBe(true);
    expect(respectValidator(list.schema)(withExtras(list.body))).toBe(false);
  });
});
