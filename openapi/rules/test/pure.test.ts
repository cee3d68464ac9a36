// The rules are bundled into the client, which runs in Workers, Deno and Bun: no Node built-ins.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../src/', import.meta.url);
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

describe('rules/src is pure', () => {
  it.each(files)('%s imports only relative modules and uses no Node globals', (f) => {
    const text = readFileSync(new URL(f, dir), 'utf8');
    const imports = [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(imports.filter((s) => !s.startsWith('./') && !s.startsWith('../'))).toEqual([]);
    expect(text).not.toMatch(/\b(process|Buffer|require|__dirname)\b[.(]/);
  });
});
