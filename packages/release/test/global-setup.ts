// Packs every published package as `npm publish` would, and installs the tarballs the way users meet
// them: one fresh project per package, outside the workspace (in memory when the machine allows:
// lib/scratch.mjs), nested (each package sees only what it declares), the packages' dependencies on each
// other served by the other tarballs (they are not on the registry). Plus an application project (client,
// sandbox, vitest) for the in-process sandbox test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pMap from 'p-map';
import type { TestProject } from 'vitest/node';
import { freshProject, pack } from '../lib/pack.mjs';
import { PUBLISHED } from '../lib/published.mjs';
import { removeTree, scratchDir } from '../lib/scratch.mjs';

export interface Packed {
  name: string;
  version: string;
  file: string;
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: string[];
}

/** The versions the workspace itself tests with, so that the fresh projects install the same. */
const workspaceVersion = (name: string) =>
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`${name}/package.json`), 'utf8')).version;

/** Installs running at once: npm mostly waits on its cache and the disk, so a few side by side finish sooner. */
const INSTALLS_AT_ONCE = 3;

export default async function setup(project: TestProject) {
  const work = scratchDir('vg-release-');
  const started = Date.now();
  const tarballs: Record<string, Packed> = await pack(
    PUBLISHED.map((p) => p.name),
    join(work, 'tarballs'),
  );
  const wanted: Record<string, { install: string[]; extra?: string[] }> = {};
  for (const { name } of PUBLISHED) wanted[name.split('/')[1]!] = { install: [name] };
  // An agent's machine: the CLI with the MCP server beside it (its optional peer), as README and guide say.
  wanted.agent = { install: ['@videogen/cli', '@videogen/mcp'] };
  wanted.app = {
    install: ['@videogen/client', '@videogen/sandbox'],
    extra: [`vitest@${workspaceVersion('vitest')}`, `@types/node@${workspaceVersion('@types/node')}`],
  };
  const dirs: Record<string, string> = {};
  await pMap(
    Object.entries(wanted),
    async ([dir, options]) => {
      dirs[dir] = await freshProject(join(work, dir), { tarballs, ...options });
    },
    { concurrency: INSTALLS_AT_ONCE },
  );
  // Keyed as the tests read them: a published package by its name, the others by theirs.
  const projects: Record<string, string> = { agent: dirs.agent!, app: dirs.app! };
  for (const { name } of PUBLISHED) projects[name] = dirs[name.split('/')[1]!]!;
  console.log(
    `release: packed ${PUBLISHED.length} packages and installed ${Object.keys(projects).length} fresh projects in ${((Date.now() - started) / 1000).toFixed(1)} s (${work})`,
  );
  for (const t of Object.values(tarballs))
    console.log(
      `  ${t.filename}: ${(t.size / 1024).toFixed(1)} KiB packed, ${(t.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${t.entryCount} files`,
    );
  project.provide('release', { work, tarballs, projects });
  return () => removeTree(work);
}

declare module 'vitest' {
  export interface ProvidedContext {
    release: { work: string; tarballs: Record<string, Packed>; projects: Record<string, string> };
  }
}
