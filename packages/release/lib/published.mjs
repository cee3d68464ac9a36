// The packages users install from the registry, in publishing order: each after every package it
// depends on (openapi → pacer-redis → client → relay → sandbox → contract-tests, mcp → cli). One list, read by the version policy,
// the release dry run, the consumer tests and the size benchmark.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (the workspace). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export const PUBLISHED = [
  { name: '@videogen/openapi', dir: 'openapi' },
  { name: '@videogen/pacer-redis', dir: 'packages/pacer-redis' },
  { name: '@videogen/client', dir: 'packages/client' },
  { name: '@videogen/relay', dir: 'packages/relay' },
  { name: '@videogen/sandbox', dir: 'packages/sandbox' },
  { name: '@videogen/contract-tests', dir: 'packages/contract-tests' },
  { name: '@videogen/mcp', dir: 'packages/mcp' },
  { name: '@videogen/cli', dir: 'packages/cli' },
];

/** The fields of a manifest that name other packages. */
export const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** A package's manifest, by its directory relative to the root. */
export function manifest(dir, root = ROOT) {
  return readJson(join(root, dir, 'package.json'));
}

/** Every workspace package of the repository: `{ name, dir, pkg }`. */
export function workspaces(root = ROOT) {
  const out = [];
  for (const pattern of readJson(join(root, 'package.json')).workspaces) {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${pattern.slice(0, -2)}/${d.name}`)
      : [pattern];
    for (const dir of dirs)
      if (existsSync(join(root, dir, 'package.json')))
        out.push({ dir, pkg: manifest(dir, root), name: manifest(dir, root).name });
  }
  return out;
}
