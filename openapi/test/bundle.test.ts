// @module-tag full/tools
// The bundle step must be deterministic: two bundles are the same bytes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const bundle = (dir: string) =>
  execFileSync(process.execPath, [join(import.meta.dirname, '../scripts/bundle.mjs'), dir], { stdio: 'pipe' });

describe('bundle', () => {
  it('writes the same bytes twice, in JSON and YAML, with no external refs', () => {
    const a = mkdtempSync(join(tmpdir(), 'bundle-a-'));
    const b = mkdtempSync(join(tmpdir(), 'bundle-b-'));
    bundle(a);
    bundle(b);
    for (const f of ['openapi.json', 'openapi.yaml']) {
      expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
    }
    const text = readFileSync(join(a, 'openapi.json'), 'utf8');
    const refs = [...text.matchAll(/"\$ref":\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(10);
    expect(refs.filter((r) => !r.startsWith('#/'))).toEqual([]);
  }, 300_000); // four Redocly runs: a hang guard, not a measure
});
