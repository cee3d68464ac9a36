// The twin file format: the built-in twins validate, a file with a wrong field is refused naming the
// field and the reason (never echoing a key), the keys follow the document, and every provenance
// points at a DECISIONS.md entry or an interface section that exists.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec } from '../../lib/index.js';
import { MAX_RUNNING, RATE_LIMITS } from '../../rules/src/index.js';
import {
  BEHAVIOUR_KEYS,
  BUILTIN_TWINS,
  TWIN_SCHEMA,
  TwinError,
  builtinTwin,
  builtinTwinPath,
  parseTwin,
  readTwin,
  validateTwin,
  type TwinFile,
} from '../src/index.js';

const spec = loadSpec();
const fileOf = (name: (typeof BUILTIN_TWINS)[number]): TwinFile =>
  JSON.parse(readFileSync(builtinTwinPath(name), 'utf8'));
/** The problems of the default twin with one change made by `edit`. */
function problemsAfter(edit: (b: Record<string, any>, file: Record<string, any>) => void) {
  const file = fileOf('default') as unknown as Record<string, any>;
  edit(file.behaviours, file);
  return validateTwin(file);
}
const refusedWith = (input: unknown): TwinError => {
  try {
    parseTwin(input, { source: 'edited.twin.json' });
  } catch (err) {
    if (err instanceof TwinError) return err;
    throw err;
  }
  throw new Error('the twin was accepted');
};

describe('the built-in twins', () => {
  for (const name of BUILTIN_TWINS) {
    it(`${name} validates, with every behaviour of the format`, () => {
      expect(validateTwin(fileOf(name))).toEqual([]);
      const twin = builtinTwin(name);
      expect(Object.keys(twin.behaviours)).toEqual([...BEHAVIOUR_KEYS]);
      // The values the interface states come from the document, not from the file.
      for (const [cls, limit] of Object.entries(RATE_LIMITS)) {
        expect(fileOf(name).behaviours[`rate_limit.${cls}.limit` as 'rate_limit.A.limit'].value).toBeUndefined();
        expect(twin.behaviours[`rate_limit.${cls}.limit` as 'rate_limit.A.limit'].value).toBe(limit.requests);
        expect(twin.behaviours[`rate_limit.${cls}.window_seconds` as 'rate_limit.A.window_seconds'].value).toBe(
          limit.windowMs / 1000,
        );
      }
      expect(twin.behaviours['concurrency.limit'].value).toBe(MAX_RUNNING);
    });
  }

  it('name only DECISIONS.md entries and interface sections that exist', () => {
    const decisions = readFileSync(fileURLToPath(new URL('../../DECISIONS.md', import.meta.url)), 'utf8');
    const entries = new Set([...decisions.matchAll(/^\| ([ST]?\d+) \|/gm)].map((m) => m[1]));
    const sections = new Set(['8.1', '8.2']);
    for (const name of BUILTIN_TWINS) {
      for (const [key, { provenance }] of Object.entries(fileOf(name).behaviours)) {
        if (provenance.source === 'decision') expect(entries, `${name} ${key}`).toContain(String(provenance.decision));
        if (provenance.source === 'interface') expect(sections, `${name} ${key}`).toContain(provenance.section);
        expect(provenance.source, `${name} ${key}: a built-in twin observes nothing`).not.toBe('observed');
      }
    }
  });

  it('differ where the alternative chooses otherwise, and only there', () => {
    const d = builtinTwin('default').behaviours as Record<string, { value: unknown }>;
    const a = builtinTwin('alternative').behaviours as Record<string, { value: unknown }>;
    const differ = BEHAVIOUR_KEYS.filter((k) => JSON.stringify(d[k].value) !== JSON.stringify(a[k].value));
    expect(differ).toContain('success.status.generateVideo');
    expect(differ).toContain('rate_limit.headers');
    expect(differ).not.toContain('rate_limit.A.style');
    expect(differ).not.toContain('refusal.unknown_id');
  });
});

describe('the keys follow the document', () => {
  it('one success status, latency and extra fields per operation; one duration per valid combination; one limiter per class', () => {
    for (const { operationId } of listOperations(spec))
      for (const prefix of ['success.status', 'latency', 'body.extra_fields'])
        expect(BEHAVIOUR_KEYS).toContain(`${prefix}.${operationId}`);
    for (const c of spec.components.schemas.GenerateVideoRequest['x-valid-combinations'] as Array<{ fields: string[] }>)
      expect(BEHAVIOUR_KEYS).toContain(`duration.generation.${c.fields.join('+')}`);
    for (const cls of Object.keys(RATE_LIMITS)) expect(BEHAVIOUR_KEYS).toContain(`rate_limit.${cls}.style`);
  });

  it('the published schema file is the schema the reader uses', () => {
    const published = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../dist/twin.schema.json', import.meta.url)), 'utf8'),
    );
    expect(published).toEqual(TWIN_SCHEMA);
    expect(published.$id).toBe('https://videogen.local/twin/v1.schema.json');
    expect(published.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});

describe('a file with a wrong field is refused, naming the field and the reason', () => {
  it('a value out of its enum', () => {
    expect(problemsAfter((b) => (b['rate_limit.A.style'].value = 'burst'))).toEqual([
      {
        path: 'behaviours["rate_limit.A.style"].value',
        reason: 'must be one of "sliding", "fixed", "even", "token-bucket" (got "burst")',
      },
    ]);
  });

  it('an unknown key, and a missing one', () => {
    const problems = problemsAfter((b) => {
      b['paging.order'] = b['paging.videos_order'];
      delete b['paging.videos_order'];
    });
    expect(problems).toContainEqual({
      path: 'behaviours["paging.order"]',
      reason: 'is not a behaviour of this format (a typo, or a key of a newer format)',
    });
    expect(problems).toContainEqual({ path: 'behaviours["paging.videos_order"]', reason: 'is missing' });
    expect(problemsAfter((_b, f) => (f.colour = 'blue'))).toEqual([{ path: 'colour', reason: 'is not a field here' }]);
    expect(problemsAfter((b) => (b['paging.past_end'].valeu = 1))).toEqual([
      { path: 'behaviours["paging.past_end"].valeu', reason: 'is not a field here' },
    ]);
  });

  it('a value missing without the interface to state it, and an interface value that is not the document’s', () => {
    expect(problemsAfter((b) => delete b['success.status.getVideo'].value)).toEqual([
      { path: 'behaviours["success.status.getVideo"].value', reason: 'is missing' },
    ]);
    const stated = problemsAfter((b) => (b['concurrency.limit'].value = MAX_RUNNING + 1));
    expect(stated).toHaveLength(1);
    expect(stated[0].path).toBe('behaviours["concurrency.limit"].value');
    expect(stated[0].reason).toMatch(new RegExp(`^the interface states ${MAX_RUNNING} \\(section 8\\.2\\)`));
    expect(
      problemsAfter((b) => (b['paging.past_end'].provenance = { source: 'interface', section: '2.5' }))[0],
    ).toEqual({
      path: 'behaviours["paging.past_end"].value',
      reason: 'is required: the interface states no value for this behaviour',
    });
  });

  it('a distribution in the wrong unit, incomplete, or out of order', () => {
    expect(problemsAfter((b) => (b['latency.getVideo'].value = { family: 'constant', unit: 's', value: 1 }))).toEqual([
      { path: 'behaviours["latency.getVideo"].value.unit', reason: 'must be "ms" (got "s")' },
    ]);
    expect(
      problemsAfter((b) => (b['duration.conversion'].value = { family: 'lognormal', unit: 's', p50: 40 })),
    ).toEqual([{ path: 'behaviours["duration.conversion"].value.p95', reason: 'is missing' }]);
    expect(
      problemsAfter((b) => (b['duration.conversion'].value = { family: 'lognormal', unit: 's', p50: 40, p95: 20 })),
    ).toEqual([{ path: 'behaviours["duration.conversion"].value.p95', reason: 'must be at least p50 (40), got 20' }]);
    expect(problemsAfter((b) => (b['duration.conversion'].value = { family: 'weibull', unit: 's' }))[0]).toMatchObject({
      path: 'behaviours["duration.conversion"].value.family',
    });
  });

  it('a form of a field that does not exist', () => {
    expect(problemsAfter((b) => (b['paging.past_end'].value = { answer: 'wrap_around' }))).toEqual([
      {
        path: 'behaviours["paging.past_end"].value.answer',
        reason: 'is not one of the forms of this field (got "wrap_around")',
      },
    ]);
  });

  it('a key in the evidence: refused, and never echoed', () => {
    const secret = 'sk-live-0123456789abcdef';
    const problems = problemsAfter((b) => {
      b['success.status.getVideo'].provenance = {
        source: 'observed',
        target: 'https://staging.example/v1',
        observed_at: '2026-11-02T09:00:00Z',
        evidence: [
          { method: 'GET', url: '/videos/', status: 200, request_headers: { Authorization: `Bearer ${secret}` } },
        ],
      };
    });
    expect(problems).toEqual([
      {
        path: 'behaviours["success.status.getVideo"].provenance.evidence[0].request_headers.Authorization',
        reason: 'must be "[redacted]": a key never travels in a twin',
      },
    ]);
    expect(JSON.stringify(problems)).not.toContain(secret);
    // Credentials in the target's URL are refused too.
    expect(
      problemsAfter((_b, f) => (f.target = { base_url: `https://user:${secret}@staging.example/v1` }))[0].path,
    ).toBe('target.base_url');
  });

  it('another major version, once and clearly; not JSON; a missing file', () => {
    expect(refusedWith({ ...fileOf('default'), twin_version: 2 }).message).toBe(
      'edited.twin.json is not a valid twin (format 1):\n  twin_version: this reader reads twin format 1, not 2 (written by a newer tool: upgrade @videogen/openapi)',
    );
    expect(refusedWith('{"twin_version": 1,').problems[0]).toMatchObject({
      path: '(file)',
      reason: expect.stringMatching(/^is not JSON/),
    });
    const dir = mkdtempSync(join(tmpdir(), 'twin-'));
    expect(() => readTwin(join(dir, 'none.twin.json'))).toThrow(
      /none\.twin\.json is not a valid twin[\s\S]*cannot be read/,
    );
    const broken = join(dir, 'broken.twin.json');
    writeFileSync(broken, JSON.stringify({ ...fileOf('default'), name: 'Not A Name' }));
    expect(() => readTwin(broken)).toThrow(`${broken} is not a valid twin (format 1):\n  name: must match pattern`);
  });

  it('parseTwin leaves the object it is given as it was', () => {
    const file = fileOf('default');
    const before = JSON.stringify(file);
    const twin = parseTwin(file);
    expect(JSON.stringify(file)).toBe(before);
    expect(twin.behaviours['concurrency.limit'].value).toBe(MAX_RUNNING);
  });
});
