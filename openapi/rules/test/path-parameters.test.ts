// Path parameters are checked as the document types them, from the generated table.
import { randomUUID } from 'node:crypto';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec } from '../../lib/index.js';
import { PATH_PARAMETERS, STRING_FORMATS, UUID_PATTERN, pathParameterProblem } from '../src/index.js';

const spec = loadSpec();
const pathParams = listOperations(spec).flatMap((o) => o.parameters.filter((p) => p.in === 'path'));

describe('path parameters', () => {
  it('the generated table has every path parameter of the document, and the rules know every format it uses', () => {
    expect(pathParams.length).toBeGreaterThan(0);
    for (const p of pathParams) {
      expect(PATH_PARAMETERS).toHaveProperty(p.name);
      expect((PATH_PARAMETERS as any)[p.name]).toEqual({ type: p.schema.type, format: p.schema.format });
      expect(STRING_FORMATS).toHaveProperty(p.schema.format);
      // The document's own example passes.
      expect(pathParameterProblem(p.name, p.example)).toBeUndefined();
    }
  });

  it("UUID_PATTERN agrees with ajv-formats' uuid (an independent reading of format: uuid), bare ids only", () => {
    const ajvUuid = fullFormats.uuid as RegExp;
    const values = [
      ...Array.from({ length: 50 }, () => randomUUID()),
      randomUUID().toUpperCase(),
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '71de0a00-0000-4000-8000-00000000000g',
      '71de0a00-0000-4000-8000-0000000000001',
      '71de0a0-0000-4000-8000-000000000001',
      '71de0a00000040008000000000000001',
      '{71de0a00-0000-4000-8000-000000000001}',
      ' 71de0a00-0000-4000-8000-000000000001',
      '71de0a00-0000-4000-8000-000000000001\n',
      '.',
      '..',
      '',
      'a/b',
      '%2e',
    ];
    for (const v of values) expect({ v, ours: UUID_PATTERN.test(v) }).toEqual({ v, ours: ajvUuid.test(v) });
    // ajv-formats also takes a urn:uuid: prefix; a path segment is the bare id.
    const urn = `urn:uuid:${randomUUID()}`;
    expect(ajvUuid.test(urn)).toBe(true);
    expect(UUID_PATTERN.test(urn)).toBe(false);
  });

  it('names the parameter, the rule and the value; judges no name the document lacks', () => {
    expect(pathParameterProblem('video_id', '.')).toBe(
      'video_id must be a UUID (8-4-4-4-12 hexadecimal digits), not "."',
    );
    expect(pathParameterProblem('video_id', 42)).toMatch(/^video_id must be a UUID .*, not number$/);
    expect(pathParameterProblem('video_id', undefined)).toMatch(/not undefined$/);
    expect(pathParameterProblem('video_id', 'x'.repeat(500))).toMatch(/…$/);
    expect(pathParameterProblem('video_id', randomUUID())).toBeUndefined();
    expect(pathParameterProblem('no_such_parameter', '.')).toBeUndefined();
  });
});
