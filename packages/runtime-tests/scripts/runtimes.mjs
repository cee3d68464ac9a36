// The pinned runtimes (runtimes/package.json + its lock) installed on demand into runtimes/node_modules,
// once per checkout: the CI matrix and the runtime tests share that one copy. Kept out of the workspace
// on purpose: two `node` bins in the workspace's node_modules/.bin would shadow the machine's Node in
// every npm script.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePinned } from '../../../scripts/pinned-install.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'runtimes');
const modules = join(root, 'node_modules');

/** Absolute paths of each runtime's binary, by name. */
export const BINARIES = {
  node22: join(modules, 'node22/bin/node'),
  node24: join(modules, 'node24/bin/node'),
  bun: join(modules, '@oven/bun-linux-x64/bin/bun'),
  deno: join(modules, '@deno/linux-x64-glibc/deno'),
};
export const MINIFLARE = join(modules, 'miniflare/dist/src/index.js');

/** Installs the pinned runtimes unless this exact lock is already installed; returns BINARIES. */
export function ensureRuntimes() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`The pinned runtimes are linux-x64 builds; this is ${process.platform}-${process.arch}`);
  ensurePinned(root, '.videogen-runtimes');
  for (const [name, bin] of Object.entries(BINARIES))
    if (!existsSync(bin)) throw new Error(`runtime ${name} missing after install: ${bin}`);
  return BINARIES;
}

// CLI: `node scripts/runtimes.mjs` installs; `node scripts/runtimes.mjs node22` prints that binary's path.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bins = ensureRuntimes();
  const name = process.argv[2];
  if (name) {
    if (!(name in bins)) throw new Error(`unknown runtime ${name}: one of ${Object.keys(bins).join(', ')}`);
    console.log(bins[name]);
  }
}
