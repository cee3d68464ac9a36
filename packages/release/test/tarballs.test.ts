// @module-tag full/packed
// Every published package that can be published today, packed and installed as users meet it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { PUBLISHED, ROOT, manifest } from '../lib/published.mjs';
import { describeTarball } from './tarball-checks.ts';

const { projects } = inject('release');

for (const { name, dir } of PUBLISHED) if (!manifest(dir).private) describeTarball(name, dir);

describe('the fresh projects', () => {
  it('are outside the workspace, one per package, with the packages nested (nothing hoisted to the top)', () => {
    for (const { name } of PUBLISHED) {
      const dir = projects[name]!;
      expect(dir.startsWith(ROOT)).toBe(false);
      // Only the package itself at the top: its dependencies live in its own node_modules.
      const top = readdirSync(join(dir, 'node_modules')).filter((n) => !n.startsWith('.'));
      expect(top).toEqual(['@videogen']);
      expect(readdirSync(join(dir, 'node_modules/@videogen'))).toEqual([name.split('/')[1]]);
    }
  });

  it("take the packages' dependencies on each other from the tarballs, never from the registry", () => {
    for (const { name } of PUBLISHED) {
      const lock = JSON.parse(readFileSync(join(projects[name]!, 'node_modules/.package-lock.json'), 'utf8'));
      for (const [path, entry] of Object.entries(lock.packages as Record<string, { resolved?: string }>))
        if (/node_modules\/@videogen\/[^/]+$/.test(path))
          expect(entry.resolved, `${name}: ${path}`).toMatch(/^file:.*\.tgz$/);
    }
  });
});
