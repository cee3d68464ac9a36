// The package's shape: no import circle (type-only imports count: madge sees them), and the folders in
// layers: shapes.ts imports nothing; engine/ imports no other folder; scenarios/ only engine/;
// generation/ only engine/ and scenarios/; checks/ only engine/, scenarios/ and generation/; report/ only
// engine/; commands/ and cli/ on top, and calibrate/ (calibrate and compare) beside them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const graph = (dir: string) => madge(dir, { fileExtensions: ['ts'], tsConfig: join(root, 'tsconfig.json') });
/** The graph of src/, built once for the tests that read it (madge parses every file: seconds of CPU). */
let srcGraph: ReturnType<typeof graph> | undefined;
const sourceGraph = () => (srcGraph ??= graph(join(root, 'src')));

const LAYERS: Record<string, string[]> = {
  engine: ['engine'],
  scenarios: ['engine', 'scenarios'],
  generation: ['engine', 'scenarios', 'generation'],
  checks: ['engine', 'scenarios', 'generation', 'checks'],
  report: ['engine', 'report'],
};

describe('module structure', () => {
  it('has no import circle', async () => {
    const g = await sourceGraph();
    expect(Object.keys(g.obj()).length).toBeGreaterThan(30);
    expect(g.circular()).toEqual([]);
  });

  it('would see a circle, a type-only one too (the check can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-circle-'));
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
    expect((await graph(dir)).circular()).toEqual([['a.ts', 'b.ts']]);
  });

  it('keeps its folders in layers, with shapes.ts as the leaf', async () => {
    const deps = (await sourceGraph()).obj();
    expect(deps['shapes.ts']).toEqual([]);
    const wrong: string[] = [];
    for (const [file, imports] of Object.entries(deps)) {
      const allowed = LAYERS[file.split('/')[0]];
      if (!allowed) continue;
      for (const i of imports) {
        // Outside src/ (madge may resolve a workspace package such as @videogen/openapi to its path): not a layer.
        if (i.startsWith('../')) continue;
        if (i !== 'shapes.ts' && !allowed.includes(i.split('/')[0])) wrong.push(`${file} → ${i}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
