// @module-tag full/packed
// The packages still being made publishable on other branches (the sandbox and the contract
// suite): none may stay private, and each must pass the same tarball checks as the others. This file
// fails until they land; tarballs.test.ts takes each over once it is no longer private.
import { describe, expect, it } from 'vitest';
import { PUBLISHED, manifest } from '../lib/published.mjs';
import { describeTarball } from './tarball-checks.ts';

describe('every user-facing package', () => {
  it('is publishable (not private)', () => {
    expect(PUBLISHED.filter((p) => manifest(p.dir).private).map((p) => p.name)).toEqual([]);
  });

  // The fresh projects install with --ignore-scripts (lib/pack.mjs): that skips nothing of ours only while
  // none of our packages runs a script at install.
  it('runs no script at install', () => {
    const atInstall = PUBLISHED.flatMap(({ name, dir }) =>
      ['preinstall', 'install', 'postinstall']
        .filter((hook) => manifest(dir).scripts?.[hook])
        .map((hook) => `${name} ${hook}`),
    );
    expect(atInstall).toEqual([]);
  });
});

for (const { name, dir } of PUBLISHED) if (manifest(dir).private) describeTarball(name, dir);
