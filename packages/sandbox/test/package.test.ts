// The published package's manifest: only run-time dependencies (every one imported by dist, Prism not
// among them) and the files it packs. As users meet it (publint, attw, installed from its tarball into a
// fresh project: the bin on a port, createSandbox in-process) it is tested in packages/release.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('the package', () => {
  it('depends on exactly what dist imports at run time; Prism stays a devDependency', () => {
    const dist = readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.js'));
    const bare = new Set<string>();
    for (const f of dist) {
      // Static imports and the CLI's createRequire(...)('name') calls.
      for (const m of readFileSync(join(root, 'dist', f), 'utf8').matchAll(
        /(?:(?:^|\n)(?:import|export)[^'"]*?from |createRequire\([^)]*\)\()["']([^"'.][^"']*)["']/g,
      )) {
        if (m[1].startsWith('node:')) continue;
        bare.add(m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0]);
      }
    }
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...bare].sort());
    expect(pkg.devDependencies).toHaveProperty('@stoplight/prism-cli');
    expect(JSON.stringify(pkg.dependencies)).not.toMatch(/prism|vitest|tsup|typescript/);
    expect(pkg.private).toBeUndefined();
    expect(readFileSync(join(root, pkg.bin['videogen-sandbox']), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('packs dist, its bin, the sample MP4, the control API document, the README, the CHANGELOG and nothing else', {
    tags: ['full/packed'],
  }, () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    const files = packed.files.map((f: { path: string }) => f.path).sort();
    expect(files.filter((f: string) => !f.startsWith('dist/'))).toEqual([
      'CHANGELOG.md',
      'README.md',
      'assets/sample.mp4',
      // The bin: a committed launcher of dist/cli.js, which npm ci links before any build.
      'bin/videogen-sandbox.js',
      'package.json',
      'sandbox-api.yaml',
    ]);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/cli.js');
  });
});
