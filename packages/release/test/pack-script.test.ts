// @module-tag full/packed
// npm run release:pack (scripts/pack.mjs), the way the README uses the toolkit before its first release:
// the pacer alone is asked for, the set comes with the @videogen/openapi it needs (packing the pacer alone
// and installing it asked the registry for '@videogen/openapi@2.0.0', which it does not have), and the
// install line it prints installs it in a fresh project outside the workspace, the registry asked for
// nothing of ours (npm's cache serves ioredis: --prefer-offline).
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../lib/published.mjs';
import { removeTree, scratchDir } from '../lib/scratch.mjs';
import { documentVersion } from '../lib/versions.mjs';

const work = scratchDir('vg-release-pack-');
afterAll(() => removeTree(work));

describe('npm run release:pack', () => {
  it('packs the pacer with what it needs of ours, and its install line works in a fresh project', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'packages/release/scripts/pack.mjs'), 'pacer-redis'], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const version = documentVersion();
    expect(readdirSync(join(work, 'packed')).sort()).toEqual([
      `videogen-openapi-${version}.tgz`,
      `videogen-pacer-redis-${version}.tgz`,
    ]);
    const line = /^ {4}(npm install \S.*)$/m.exec(out)?.[1];
    expect(line).toBe(
      `npm install ./packed/videogen-pacer-redis-${version}.tgz ./packed/videogen-openapi-${version}.tgz`,
    );
    const app = join(work, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    const args = (line ?? '')
      .split(' ')
      .slice(2)
      .map((f) => join('..', f));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const loaded = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('@videogen/pacer-redis'); console.log(typeof m.createRedisPacerStore)",
      ],
      { cwd: app, encoding: 'utf8' },
    );
    expect(loaded.trim()).toBe('function');
  });

  it('refuses a name that is not a published package, naming them', () => {
    let failure: { status?: number; stderr?: string } = {};
    try {
      execFileSync(process.execPath, [join(ROOT, 'packages/release/scripts/pack.mjs'), 'pacer'], {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    } catch (err) {
      failure = err as typeof failure;
    }
    expect(failure.status).toBe(2);
    expect(failure.stderr).toMatch(
      /@videogen\/pacer: not a published package \(@videogen\/openapi, @videogen\/pacer-redis/,
    );
  });
});
