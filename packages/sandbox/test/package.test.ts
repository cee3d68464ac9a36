// The published package as users meet it: clean under publint and attw, only run-time dependencies
// (every one imported by dist, Prism not among them), and, packed and installed into a fresh project
// outside the workspace (no hoisting to hide a missing dependency), the bin answers on a port and
// createSandbox runs the client's flow in-process.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npx = (args: string[]) => execFileSync('npx', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const packageDir = (name: string) => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));

describe('the package', () => {
  it('passes publint --strict', () => {
    expect(npx(['publint', '--strict'])).not.toMatch(/error|warning|suggestion/i);
  }, 60_000);

  it('passes @arethetypeswrong/cli (ESM only)', () => {
    const out = npx(['attw', '--pack', '.', '--profile', 'esm-only', '--format', 'ascii']);
    expect(out).toMatch(/node16 \(from ESM\): 🟢 \(ESM\)/);
    expect(out).toMatch(/bundler: 🟢/);
    expect(out).not.toMatch(/❌/);
  }, 60_000);

  it('depends on exactly what dist imports at run time; Prism stays a devDependency', () => {
    const dist = readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.js'));
    const bare = new Set<string>();
    for (const f of dist) {
      // Static imports and the CLI's createRequire(...)('name') calls.
      for (const m of readFileSync(join(root, 'dist', f), 'utf8').matchAll(/(?:(?:^|\n)(?:import|export)[^'"]*?from |createRequire\([^)]*\)\()["']([^"'.][^"']*)["']/g)) {
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

  it('packs dist, the sample MP4, the control API document, the README, the CHANGELOG and nothing else', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const files = packed.files.map((f: { path: string }) => f.path).sort();
    expect(files.filter((f: string) => !f.startsWith('dist/'))).toEqual(['CHANGELOG.md', 'README.md', 'assets/sample.mp4', 'package.json', 'sandbox-api.yaml']);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/cli.js');
  });
});

describe('installed from its tarball into a fresh project', () => {
  let project: string;
  const run = promisify(execFile);

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'videogen-sandbox-consumer-'));
    const packs = join(project, 'packs');
    // @videogen/openapi (a dependency) and @videogen/client are packed from the workspace too: what
    // the registry will serve once they are published.
    mkdirSync(packs);
    const tarballs = [packageDir('@videogen/openapi'), root, packageDir('@videogen/client')].map((dir) => {
      const [packed] = JSON.parse(execFileSync('npm', ['pack', dir, '--json', '--pack-destination', packs], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      return join(packs, packed.filename);
    });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--install-strategy=nested', ...tarballs], { cwd: project });
  }, 180_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('brings no Prism, and prints its installed size and dependency count', () => {
    expect(existsSync(join(project, 'node_modules', '@stoplight'))).toBe(false);
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
    const sandboxDeps = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/@videogen/sandbox/node_modules/'));
    const bytes = (p: string): number => (statSync(p).isDirectory() ? readdirSync(p).reduce((n, f) => n + bytes(join(p, f)), 0) : statSync(p).size);
    console.log(`@videogen/sandbox installed: ${(bytes(join(project, 'node_modules', '@videogen', 'sandbox')) / 1e6).toFixed(1)} MB with ${sandboxDeps.length} packages beneath it (install strategy nested)`);
    expect(sandboxDeps.length).toBeGreaterThan(0);
  });

  it('videogen-sandbox answers on a free port with the documented keys', async () => {
    const child = spawn(join(project, 'node_modules', '.bin', 'videogen-sandbox'), ['--port', '0', '--quiet', '--time-scale', '60'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /listening on (\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`videogen-sandbox exited ${code}: ${out}`)));
      });
      const res = await fetch(`${origin}/v1/video-settings/`, { headers: { authorization: 'Bearer sandbox-key-acme' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).total_count).toBe(7);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('createSandbox runs the client flow in-process (no port)', async () => {
    writeFileSync(
      join(project, 'flow.mjs'),
      `import { createClient } from '@videogen/client';
import { createSandbox, FIXTURES, SANDBOX_KEYS } from '@videogen/sandbox';
const sb = await createSandbox({ validateResponses: true });
const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, fetch: sb.fetch, clock: sb.clock });
const video = await client.generateAndWait({ video_setting_id: FIXTURES.acme.settings.text, text: 'from the tarball' });
const converted = await client.convertAndWait(video.video_id, { language: 'fr' });
console.log(JSON.stringify({ port: sb.port ?? null, video: video.status, converted: converted.status, stats: sb.stats(), violations: sb.violations }));
await sb.close();
`,
    );
    const { stdout } = await run(process.execPath, ['flow.mjs'], { cwd: project });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ port: null, video: 'completed', converted: 'completed', violations: [] });
    expect(result.stats).not.toHaveProperty('429');
  }, 60_000);
});
