// Packs the client as it would be published and installs the tarball into a fresh project outside
// the workspace (so nothing resolves by hoisting), and installs the pinned runtimes. Both are shared
// by the test files through `inject`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureRuntimes } from '../scripts/runtimes.mjs';

const here = new URL('..', import.meta.url).pathname;
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 2] });

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'vg-consumer-'));
  const [{ filename }] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], join(here, '../client')));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The registry serves openapi-fetch and @types/node (from npm's cache when it has them).
  npm(['install', '--prefer-offline', `./${filename}`, '@types/node@20.19.43'], dir);
  for (const f of readdirSync(join(here, 'scenario'))) copyFileSync(join(here, 'scenario', f), join(dir, f));
  project.provide('consumerDir', dir);
  project.provide('tarball', filename);
  project.provide('runtimes', ensureRuntimes());
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    consumerDir: string;
    tarball: string;
    runtimes: Record<'node22' | 'node24' | 'bun' | 'deno', string>;
  }
}
