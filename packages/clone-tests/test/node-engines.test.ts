// The README promises Node 20.19+. On Node 20, `npm ci` warns EBADENGINE for every package of the lock
// whose `engines.node` leaves 20.19 out: each must be named in the README's paragraph on those warnings,
// with why it is harmless, and none named there may be gone. A package that starts to declare a newer
// Node fails here until it is named (or replaced), instead of surprising a newcomer's first `npm ci`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from './clone.ts';

const PROMISED = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node as string;

describe('the Node the README promises', () => {
  it("is the root manifest's, and the README says it", () => {
    expect(semver.minVersion(PROMISED)?.version).toBe('20.19.0');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/Node\.js 20\.19\+/);
  });

  it('every package of the lock that declares a newer one is named in the README, and only those', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    const floor = semver.minVersion(PROMISED)?.version ?? '';
    const newer = new Set<string>();
    for (const [key, pkg] of Object.entries<{ engines?: { node?: string } }>(lock.packages ?? {})) {
      const range = pkg.engines?.node;
      if (!key.includes('node_modules/') || !range || semver.satisfies(floor, range)) continue;
      newer.add(key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    }
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const paragraph = readme.split(/\n\s*\n/).find((p) => p.includes('EBADENGINE')) ?? '';
    const named = new Set(
      [...paragraph.matchAll(/`(@?[a-z0-9][\w./-]*)`/g)]
        .map((m) => m[1] ?? '')
        .filter((n) => !/^(npm|EBADENGINE|packages\/)/.test(n)),
    );
    expect([...newer].sort()).toEqual([...named].sort());
  });
});
