// Packs the client as it would be published and installs the tarball into a fresh project outside
// the workspace (nested: the client sees only what it declares), with the release package's helper
// that the consumer tests of every published package use; and installs the pinned runtimes. Both are
// shared by the test files through `inject`.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freshProject, pack } from '@videogen/release/pack';
import { ensureRuntimes } from '../scripts/runtimes.mjs';

const here = new URL('..', import.meta.url).pathname;

export default async function setup(project: TestProject) {
  // The temporary directory, not release's scratchDir (/dev/shm): Deno's --allow-write of a path under /dev
  // is refused without --allow-all, which the Deno session must not need.
  const dir = mkdtempSync(join(tmpdir(), 'vg-consumer-'));
  const tarballs = await pack(['@videogen/client'], join(dir, 'tarballs'));
  // The registry serves openapi-fetch and @types/node (from npm's cache when it has them).
  await freshProject(dir, { tarballs, install: ['@videogen/client'], extra: ['@types/node@20.19.43'] });
  for (const f of readdirSync(join(here, 'scenario'))) copyFileSync(join(here, 'scenario', f), join(dir, f));
  project.provide('consumerDir', dir);
  project.provide('runtimes', ensureRuntimes());
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    consumerDir: string;
    runtimes: Record<'node22' | 'node24' | 'bun' | 'deno', string>;
  }
}
