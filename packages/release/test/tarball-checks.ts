// The checks of one packed tarball, as the registry would serve it: publint --strict, attw (ESM-only
// profile), the manifest users install (exact ranges, engines, bins), and what installing it brings.
import { execFileSync } from 'node:child_process';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from '../lib/published.mjs';
import { documentVersion, internalReferences } from '../lib/versions.mjs';

const { tarballs, projects } = inject('release');
const version = documentVersion();
/** A development tool of the workspace (its devDependencies), run with this Node. */
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
const exec = (file: string, args: string[]) => {
  try {
    return {
      code: 0,
      out: execFileSync(process.execPath, [file, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    };
  } catch (e) {
    const { status, stdout, stderr } = e as { status: number; stdout: string; stderr: string };
    return { code: status, out: `${stdout}\n${stderr}` };
  }
};
/** The manifest inside a tarball, as npm will read it on install. */
const packedManifest = (file: string) =>
  JSON.parse(execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }));

/**
 * The resolutions attw's `--profile esm-only` ignores (@arethetypeswrong/cli, profiles.js): our packages
 * are ESM only, so CommonJS resolution is not theirs to pass.
 */
const ESM_ONLY_IGNORES = ['node10', 'node16-cjs'];

/** Tools that belong to the repository's development, never to a user's install (no Chromium, Prism, docs toolchain). */
const DEVELOPMENT_ONLY = [
  'playwright-core',
  'playwright',
  '@stoplight/prism-cli',
  '@redocly/cli',
  'redoc',
  'turbo',
  'tsup',
  'openapi-typescript',
  'publint',
  '@arethetypeswrong/cli',
  'fast-check',
];

/**
 * Development tools a package uses at run time, so its users install them: the contract suite generates
 * requests with fast-check while it runs. Every other package keeps it out.
 */
const RUN_TIME_OF: Record<string, string[]> = { '@videogen/contract-tests': ['fast-check'] };

export function describeTarball(name: string, dir: string) {
  describe(name, () => {
    const tarball = () => tarballs[name]!;

    it('is clean under publint --strict', () => {
      const r = exec(bin('publint'), ['run', tarball().file, '--strict']);
      expect(r.code, r.out).toBe(0);
      expect(r.out).not.toMatch(/^(Errors|Warnings):/m);
    });

    it('resolves with its types under attw (ESM-only profile: node16 from ESM, bundler)', async () => {
      // attw's own checker, the one its CLI runs (checkPackage on the tarball's bytes), in this process: the
      // CLI loads TypeScript and its libraries again for each package, about 2 s of CPU each; its exit code
      // is "a problem outside the profile's ignored resolutions", which `kept` below asserts directly.
      // YAML files are exported as files to read, not modules to import: attw cannot resolve them as such.
      const yamlExports = tarball()
        .files.filter((f) => /^dist\/[^/]+\.yaml$/.test(f))
        .map((f) => `./${f.slice('dist/'.length)}`);
      const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball().file))), {
        excludeEntrypoints: yamlExports,
      });
      const pkg = packedManifest(tarball().file);
      if (!pkg.exports?.['.'] && !pkg.main) {
        // A command only (no JavaScript API): nothing to type.
        expect(analysis.types).toBe(false);
        return;
      }
      if (!analysis.types) throw new Error(`${name}: attw finds no types in the tarball`);
      const kept = analysis.problems.filter(
        (p) => !('resolutionKind' in p && ESM_ONLY_IGNORES.includes(p.resolutionKind)),
      );
      expect(kept).toEqual([]);
    });

    it('has a manifest users can install: the release version, exact ranges to the other packages, engines, README and CHANGELOG', () => {
      const pkg = packedManifest(tarball().file);
      expect(pkg.version).toBe(version);
      expect(pkg.engines?.node).toMatch(/20\.19/);
      expect(pkg.license).toBe('MIT');
      for (const r of internalReferences(pkg))
        expect(`${r.field} ${r.name}@${r.range}`).toBe(`${r.field} ${r.name}@${version}`);
      expect(tarball().files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'package.json']));
      // The README is the package's own, written for its users (not the repository's).
      expect(readFileSync(join(ROOT, dir, 'README.md'), 'utf8')).toMatch(new RegExp(`^# ${name.replace('/', '\\/')}`));
    });

    it('ships its bins as executable scripts', () => {
      const bins = packedManifest(tarball().file).bin ?? {};
      for (const [command, file] of Object.entries(bins as Record<string, string>)) {
        const path = (file as string).replace(/^\.\//, '');
        expect(tarball().files, `${command} → ${file}`).toContain(path);
        const installed = readFileSync(join(projects[name]!, 'node_modules', name, path), 'utf8');
        expect(installed.startsWith('#!/usr/bin/env node'), `${command} → ${file}`).toBe(true);
      }
    });

    it("brings no development tool into a user's install", () => {
      const lock = JSON.parse(readFileSync(join(projects[name]!, 'node_modules/.package-lock.json'), 'utf8'));
      const installed = Object.keys(lock.packages).map((p) =>
        p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length),
      );
      const own = RUN_TIME_OF[name] ?? [];
      expect(installed.filter((n) => DEVELOPMENT_ONLY.includes(n) && !own.includes(n))).toEqual([]);
    });
  });
}
