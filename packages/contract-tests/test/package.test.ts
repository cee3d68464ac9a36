// The published shape: a package users install, with a bin that runs on plain Node from
// dist/ (no build step, no vitest, no workspace), only run-time dependencies. publint, attw and a run from
// the installed tarball are packages/release's, with the other published packages.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entries } from '../tsup.config.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('package', () => {
  it('is publishable, with a committed bin that runs dist/ and only what a run needs as dependencies', () => {
    expect(pkg.private).toBeUndefined();
    // A committed launcher: npm ci (before any build) links it, so `npx videogen-contract` resolves in a clone.
    expect(pkg.bin).toEqual({ 'videogen-contract': 'bin/videogen-contract.js' });
    expect(readFileSync(join(root, 'bin/videogen-contract.js'), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node\n[\s\S]*'\.\.\/dist\/cli\.js'/,
    );
    const deps = Object.keys(pkg.dependencies);
    for (const dev of [
      'vitest',
      'vite',
      '@stoplight/prism-cli',
      'playwright-core',
      '@redocly/cli',
      'tsup',
      'typescript',
    ])
      expect(deps).not.toContain(dev);
    // The dist imports nothing it does not declare (node: built-ins aside).
    const dist = readFileSync(
      join(root, 'dist', readdir(join(root, 'dist')).find((f) => f.startsWith('chunk-'))!),
      'utf8',
    );
    const imported = new Set(
      [...dist.matchAll(/(?:from |import\()['"]([^'".][^'"]*)['"]/g)].map((m) =>
        m[1]
          .split('/')
          .slice(0, m[1].startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    );
    for (const name of imported) if (!name.startsWith('node:')) expect(deps, name).toContain(name);
    // Prism is only resolved at run time, and only for --prism.
    expect(dist).not.toMatch(/from ['"]@stoplight/);
  });

  it('ships dist and the README, no sources, tests or reports', { tags: ['full/packed'] }, () => {
    const files: string[] = JSON.parse(run('npm', ['pack', '--dry-run', '--json']))[0].files.map(
      (f: { path: string }) => f.path,
    );
    expect(files).toContain('bin/videogen-contract.js');
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('README.md');
    expect(files.filter((f) => /^(src|test|test-results)\//.test(f))).toEqual([]);
  });

  it('dispatches `proxy` to dist/proxy/index.js when the build has it (src/proxy/ belongs to the pacing proxy)', {
    tags: ['full/processes'],
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-proxy-'));
    cpSync(join(root, 'dist'), join(dir, 'dist'), {
      recursive: true,
      filter: (src) => !src.includes(join('dist', 'proxy')),
    });
    cpSync(join(root, 'package.json'), join(dir, 'package.json'));
    // Its dependencies, as an installed package finds them.
    symlinkSync(join(root, '../../node_modules'), join(dir, 'node_modules'));
    const without = spawnSync(process.execPath, [join(dir, 'dist/cli.js'), 'proxy', '--port', '0'], {
      encoding: 'utf8',
    });
    expect(without.status).toBe(2);
    expect(without.stderr).toBe('proxy: not available in this build\n');
    mkdirSync(join(dir, 'dist/proxy'), { recursive: true });
    writeFileSync(
      join(dir, 'dist/proxy/index.js'),
      'export async function proxyCommand(argv) { process.stdout.write(JSON.stringify(argv)); return 7; }\n',
    );
    const withProxy = spawnSync(process.execPath, [join(dir, 'dist/cli.js'), 'proxy', '--port', '0'], {
      encoding: 'utf8',
    });
    expect({ status: withProxy.status, out: withProxy.stdout }).toEqual({ status: 7, out: '["--port","0"]' });
  });

  it('runs the pacing proxy of this build: videogen-contract proxy --help', { tags: ['full/processes'] }, () => {
    const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'proxy', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--target/);
  });

  it('builds src/proxy/index.ts as its own entry once it exists (tsup.config.ts)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-entry-'));
    expect(Object.keys(entries(dir))).toEqual(['index', 'cli']);
    mkdirSync(join(dir, 'src/proxy'), { recursive: true });
    writeFileSync(join(dir, 'src/proxy/index.ts'), '');
    expect(entries(dir)['proxy/index']).toBe('src/proxy/index.ts');
  });
});

function readdir(dir: string): string[] {
  return execFileSync('ls', [dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
}
