// @module-tag full/tools
// Spectral's OpenAPI ruleset (`spectral:oas`) on the document: no problem of any severity. When the
// document commits a ruleset of its own (rules turned off, each with its reason), that one is used, and it
// must still extend `spectral:oas`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { TOOLS, versionOf } from '../scripts/tools.mjs';
import { run, type Ran } from './run.js';

const openapiDir = dirname(createRequire(import.meta.url).resolve('@videogen/openapi/package.json'));
const committed = ['.spectral.yaml', '.spectral.yml', '.spectral.json']
  .map((f) => join(openapiDir, f))
  .find(existsSync);

let dir: string;
let ruleset: string;
let ran: Ran;
let problems: Array<{ code: string; severity: number; path: string[]; message: string }>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vg-spectral-'));
  ruleset = committed ?? join(dir, '.spectral.yaml');
  if (!committed) writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const out = join(dir, 'spectral.json');
  ran = await run(
    process.execPath,
    [
      TOOLS.spectral.bin,
      'lint',
      join(openapiDir, 'openapi.yaml'),
      '--ruleset',
      ruleset,
      '--format',
      'json',
      '--output',
      out,
    ],
    { cwd: dir },
  );
  problems = JSON.parse(readFileSync(out, 'utf8'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`Spectral ${versionOf('spectral')}, spectral:oas${committed ? ' (with openapi/' + committed.split('/').at(-1) + ')' : ''}`, () => {
  it('the ruleset is spectral:oas', () => {
    const extended = [parse(readFileSync(ruleset, 'utf8')).extends].flat(2);
    expect(extended).toContain('spectral:oas');
  });

  it('finds no problem of any severity in openapi.yaml', () => {
    expect(problems.map((p) => `${p.code} at ${p.path.join('.')}: ${p.message}`)).toEqual([]);
    expect(ran.code, ran.stderr).toBe(0);
  });
});
