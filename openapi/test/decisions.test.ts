// Two tiers: every `x-decision: N` names an entry of DECISIONS.md, every entry is named by
// some node, and each sits on a kind of node the contract suite's classifier reads (CONVENTIONS.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createAjv, loadSpec, validatorFor } from '../lib/index.js';

const root = join(import.meta.dirname, '..');
const source = parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
const decisionsText = readFileSync(join(root, 'DECISIONS.md'), 'utf8');

/** Entry numbers of DECISIONS.md: the first cell of each table row. */
export function decisionEntries(text: string): number[] {
  return [...text.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1]));
}

type Placement = { path: (string | number)[]; value: unknown };
/** Every `x-decision` in a document, with the path of the node that carries it. */
export function placements(node: unknown, path: (string | number)[] = [], out: Placement[] = []): Placement[] {
  if (Array.isArray(node)) for (const [i, v] of node.entries()) placements(v, [...path, i], out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'x-decision') out.push({ path, value: v });
      else placements(v, [...path, k], out);
    }
  return out;
}

const SCHEMA_CHILD = new Set([
  'items',
  'if',
  'then',
  'else',
  'not',
  'additionalProperties',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
]);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Is `rest` (the path below a schema root) a path through schema keywords only? */
function schemaPath(rest: (string | number)[]): boolean {
  for (let i = 0; i < rest.length; i++) {
    const k = rest[i];
    if (SCHEMA_CHILD.has(k as string)) continue;
    if ((SCHEMA_LIST.has(k as string) || SCHEMA_MAP.has(k as string)) && i + 1 < rest.length) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/** The kind of node a path leads to, or undefined when no x-decision may sit there. */
export function nodeKind(path: (string | number)[]): string | undefined {
  const p = path.map(String);
  if (p.length === 0) return 'root';
  if (p[0] === 'servers' && p.length === 2) return 'server';
  if (p[0] === 'x-retry-policy' && p[1] === 'rules' && p.length === 3) return 'retry-rule';
  if (p[0] === 'paths' && p.length === 3) return 'operation';
  const last = p.length - 1;
  if (p[0] === 'components' && p.length === 3) {
    const kinds: Record<string, string> = {
      responses: 'response',
      headers: 'header',
      parameters: 'parameter',
      schemas: 'schema',
    };
    return kinds[p[1]];
  }
  if (p[0] === 'components' && p[1] === 'schemas' && schemaPath(path.slice(3))) return 'schema';
  if (p[last - 1] === 'responses' && /^(\d{3}|[1-5]XX|default)$/.test(p[last])) return 'response';
  if (p[last - 1] === 'headers' && p[last - 2] !== 'encoding') return 'header';
  if (p[last - 1] === 'parameters') return 'parameter';
  const s = p.lastIndexOf('schema');
  if (s >= 0 && schemaPath(path.slice(s + 1))) return 'schema';
  return undefined;
}

const found = placements(source);
const numbers = (v: unknown) => (Array.isArray(v) ? v : [v]);
const entries = decisionEntries(decisionsText);

describe('x-decision placements', () => {
  it('are integers or non-empty lists of distinct integers', () => {
    expect(found.length).toBeGreaterThan(20);
    for (const { path, value } of found) {
      const list = numbers(value);
      expect(list.length, path.join('/')).toBeGreaterThan(0);
      expect(
        list.every((n) => Number.isInteger(n) && n > 0),
        path.join('/'),
      ).toBe(true);
      expect(new Set(list).size, path.join('/')).toBe(list.length);
    }
  });

  it('name entries of DECISIONS.md, and every entry is named by some node', () => {
    expect(entries).toEqual([...entries].sort((a, b) => a - b));
    expect(entries).toEqual(entries.map((_, i) => i + 1)); // appended, never renumbered, no gaps
    const named = new Set(found.flatMap((f) => numbers(f.value) as number[]));
    expect(
      [...named].filter((n) => !entries.includes(n)),
      'x-decision naming no entry',
    ).toEqual([]);
    expect(
      entries.filter((n) => !named.has(n)),
      'entries referenced by nothing',
    ).toEqual([]);
  });

  it('sit only on responses, schemas, headers, parameters, operations, servers, retry rules or the root', () => {
    const misplaced = found.filter((f) => nodeKind(f.path) === undefined).map((f) => f.path.join('/'));
    expect(misplaced).toEqual([]);
  });

  it('the kind classifier rejects what it should (so the check above can fail)', () => {
    expect(nodeKind(['paths', '/videos/', 'get', 'responses', '200', 'content', 'application/json'])).toBeUndefined();
    expect(nodeKind(['paths', '/videos/', 'get', 'x-rate-limit'])).toBeUndefined();
    expect(nodeKind(['components', 'schemas', 'Video', 'example'])).toBeUndefined();
    expect(nodeKind(['info'])).toBeUndefined();
    expect(nodeKind(['components', 'schemas', 'Video', 'properties', 'copyright', 'items'])).toBe('schema');
    expect(nodeKind(['paths', '/videos/', 'get', 'responses', '5XX'])).toBe('response');
    const planted = placements({
      paths: { '/x/': { get: { responses: { '200': { content: { 'application/json': { 'x-decision': 1 } } } } } } },
    });
    expect(planted.map((f) => nodeKind(f.path))).toEqual([undefined]);
  });

  it('do not sit on what the interface states', () => {
    const at = (...path: string[]) => path.reduce((o: any, k) => o?.[k], source);
    const S = source.components.schemas;
    for (const name of [
      'VideoState',
      'Language',
      'AspectRatio',
      'Video',
      'VideoListItem',
      'VideoSetting',
      'ConversionOptions',
      'ErrorBody',
      'PageEnvelope',
    ])
      expect(S[name]['x-decision'], name).toBeUndefined();
    expect(at('components', 'responses', 'TooManyRequests', 'x-decision')).toBeUndefined();
    expect(at('paths', '/videos/{video_id}/conversions/', 'post', 'responses', '404', 'x-decision')).toBeUndefined();
    const generic = source['x-retry-policy'].rules.filter((r: any) => !r.error_code);
    expect(generic.map((r: any) => r['x-decision'])).toEqual(generic.map(() => undefined));
  });

  it('cover the choices the interface leaves open (success statuses, 401, 413, headers, page past the end, request_fields)', () => {
    const ops = Object.values(source.paths).flatMap((item: any) => Object.values(item)) as any[];
    for (const op of ops) expect(op.responses['200']['x-decision'], op.operationId).toBe(2);
    const R = source.components.responses;
    expect(numbers(R.Unauthorized['x-decision'])).toContain(29);
    expect(numbers(R.PayloadTooLarge['x-decision'])).toContain(24);
    for (const h of Object.values(source.components.headers) as any[]) expect(numbers(h['x-decision'])).toContain(12);
    const byId = Object.fromEntries(ops.map((o) => [o.operationId, o]));
    expect(numbers(byId.listVideos['x-decision'])).toContain(30);
    expect(numbers(byId.generateVideo['x-decision'])).toContain(26);
    expect(numbers(byId.generateVideo.responses['400']['x-decision'])).toContain(5);
    const credit = source['x-retry-policy'].rules.findIndex((r: any) => r.error_code === 'INSUFFICIENT_CREDIT');
    const generic429 = source['x-retry-policy'].rules.findIndex((r: any) => r.status === '429' && !r.error_code);
    expect(credit).toBeGreaterThanOrEqual(0);
    expect(credit).toBeLessThan(generic429);
    expect(source['x-retry-policy'].rules[credit]).toMatchObject({ retry: false, 'x-decision': 31 });
  });

  it('survive bundling (the suite reads dist/openapi.json)', () => {
    const bundled = placements(loadSpec()).map((f) => `${f.path.join('/')}=${JSON.stringify(f.value)}`);
    expect(bundled.sort()).toEqual(found.map((f) => `${f.path.join('/')}=${JSON.stringify(f.value)}`).sort());
  });

  it('leave the Ajv setup working (x-decision is an annotation)', () => {
    const ajv = createAjv(loadSpec());
    const v = validatorFor(ajv, '#/components/schemas/Video');
    expect(
      v({ video_id: '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10', status: 'running', download_url: '', copyright: [] }),
    ).toBe(true);
  });
});

describe('opened error codes', () => {
  const spec = loadSpec();
  const ajv = createAjv(spec);
  const conv = spec.paths['/videos/{video_id}/conversions/'].post.responses;
  const schemaOf = (status: string) => conv[status].content['application/json'].schema.$ref as string;

  it('accept an unknown code wherever the interface gives a status another cause (400, 403, 429, 503, every ErrorBody)', () => {
    for (const status of ['400', '403', '429', '503']) {
      const v = validatorFor(ajv, schemaOf(status));
      expect(v({ error_code: 'SOMETHING_ELSE', error: 'x' }), status).toBe(true);
      expect(v({ error_code: 42, error: 'x' }), status).toBe(false);
    }
    expect(validatorFor(ajv, '#/components/schemas/ErrorBody')({ error_code: 'TOO_MANY_REQUESTS', error: 'x' })).toBe(
      true,
    );
  });

  it('keep the conversion 404 and 500 codes the interface fixes', () => {
    expect(validatorFor(ajv, schemaOf('404'))({ error_code: 'VIDEO_NOT_FOUND', error: 'x' })).toBe(false);
    expect(validatorFor(ajv, schemaOf('500'))({ error_code: 'INTERNAL', error: 'x' })).toBe(false);
  });

  it('every operation declares 5XX', () => {
    for (const item of Object.values(spec.paths) as any[])
      for (const op of Object.values(item) as any[]) expect(Object.keys(op.responses), op.operationId).toContain('5XX');
  });
});
