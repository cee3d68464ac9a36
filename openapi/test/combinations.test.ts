// The valid field combinations of POST /videos/generate/ are stated twice in the document: as standard
// JSON Schema (`GenerateVideoRequest.oneOf`, read by validators and generators) and as
// `x-valid-combinations` (the source of the generated constants). They must say the same thing on every
// form a client can send.
import { describe, expect, it } from 'vitest';
import { createAjv, loadSpec, validatorFor } from '../lib/index.js';
import { INPUT_MODES, VALID_COMBINATIONS } from '../rules/src/generated/constants.js';

type Combination = { fields: string[]; optional?: string[]; mode: string };
const spec = loadSpec();

/** Every subset of a list. */
function subsets<T>(items: T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((s) => [...s, item])], [[]]);
}

/** The input fields of the form (every property but video_setting_id). */
const inputFields = (doc: any) =>
  Object.keys(doc.components.schemas.GenerateVideoRequest.properties).filter((f) => f !== 'video_setting_id');

/** A form with the given input fields, as Ajv sees a multipart body (files as strings, images as a list). */
function formWith(doc: any, fields: string[]) {
  const props = doc.components.schemas.GenerateVideoRequest.properties;
  const form: Record<string, unknown> = { video_setting_id: '5e77a000-0000-4000-8000-000000000001' };
  for (const f of fields) form[f] = props[f].type === 'array' ? ['a.png'] : f === 'text' ? 'Explain tides.' : `a-${f}`;
  return form;
}

/** x-valid-combinations' verdict: the fields given are a combination's fields plus some of its optional ones. */
function allowedByExtension(combinations: Combination[], given: string[]) {
  return combinations.some(
    (c) =>
      c.fields.every((f) => given.includes(f)) &&
      given.every((g) => c.fields.includes(g) || (c.optional ?? []).includes(g)),
  );
}

/** Every subset on which the JSON Schema and x-valid-combinations disagree (empty when they agree). */
function disagreements(doc: any): string[] {
  const validate = validatorFor(createAjv(doc), '#/components/schemas/GenerateVideoRequest');
  const combinations: Combination[] = doc.components.schemas.GenerateVideoRequest['x-valid-combinations'];
  const out: string[] = [];
  for (const given of subsets(inputFields(doc))) {
    const bySchema = validate(formWith(doc, given)) as boolean;
    const byExtension = allowedByExtension(combinations, given);
    if (bySchema !== byExtension)
      out.push(`[${given.join(', ')}]: schema ${bySchema}, x-valid-combinations ${byExtension}`);
  }
  return out;
}

describe('the valid field combinations', () => {
  const form = spec.components.schemas.GenerateVideoRequest;
  const combinations: Combination[] = form['x-valid-combinations'];

  it('JSON Schema and x-valid-combinations accept the same forms, on every subset of the input fields', () => {
    expect(inputFields(spec)).toHaveLength(6);
    expect(disagreements(spec)).toEqual([]);
  });

  it('accept the six combinations of interface 4.1 and refuse a form with no input field', () => {
    const validate = validatorFor(createAjv(spec), '#/components/schemas/GenerateVideoRequest');
    const accepted = subsets(inputFields(spec)).filter((given) => validate(formWith(spec, given)));
    expect(accepted.map((g) => g.join('+')).sort()).toEqual(
      ['text', 'text+image_files', 'pdf_file', 'pptx_file', 'text+pdf_file', 'audio_file', 'video_file'].sort(),
    );
  });

  it('one oneOf branch per combination, in the same order, naming the same required and allowed fields', () => {
    const branches = form.oneOf;
    expect(branches).toHaveLength(combinations.length);
    branches.forEach((b: any, i: number) => {
      const c = combinations[i];
      expect(b.required, c.mode).toEqual(c.fields);
      const allowed = Object.keys(b.properties).filter((f) => b.properties[f] !== false && f !== 'video_setting_id');
      expect(allowed.sort(), c.mode).toEqual([...c.fields, ...(c.optional ?? [])].sort());
      // Every branch names every field: a validator that closes unevaluated properties reads it as Ajv does.
      expect(Object.keys(b.properties).sort(), c.mode).toEqual(Object.keys(form.properties).sort());
    });
  });

  it('each valid form matches exactly one branch', () => {
    const ajv = createAjv(spec);
    const branches = form.oneOf.map((b: any) => ajv.compile({ type: 'object', ...b }));
    for (const given of subsets(inputFields(spec)).filter((g) => allowedByExtension(combinations, g))) {
      expect(branches.filter((v: any) => v(formWith(spec, given))).length, given.join('+')).toBe(1);
    }
  });

  it('the generated constants are x-valid-combinations', () => {
    expect(VALID_COMBINATIONS).toEqual(combinations.map((c) => [c.fields, c.optional ?? []]));
    expect(INPUT_MODES.map((m) => m.mode)).toEqual(combinations.map((c) => c.mode));
  });

  it('a branch that stops forbidding a field is caught (the check can fail)', () => {
    const broken = structuredClone(spec);
    broken.components.schemas.GenerateVideoRequest.oneOf[3].properties.pdf_file = false; // text + pdf_file no longer valid
    expect(disagreements(broken)).toEqual(['[text, pdf_file]: schema false, x-valid-combinations true']);
    const looser = structuredClone(spec);
    looser.components.schemas.GenerateVideoRequest.oneOf[4].properties.image_files = {}; // audio_file + images
    expect(disagreements(looser)).toEqual(['[audio_file, image_files]: schema true, x-valid-combinations false']);
  });
});
