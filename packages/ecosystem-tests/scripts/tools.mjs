// The outside tools of the compatibility matrix (tools/package.json + its lock), installed on demand into
// tools/node_modules once per checkout, like the pinned runtimes of packages/runtime-tests. Kept out of the
// workspace on purpose: about 600 packages and 300 MB that only this matrix uses, two of them (orval,
// @hey-api/openapi-ts) declaring Node >= 22.18, and a TypeScript of their own (5.9, which their compiler-API
// code needs) that must not be hoisted over the workspace's.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePinned } from '../../../scripts/pinned-install.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'tools');
const modules = join(root, 'node_modules');

/** Each tool's entry script (run with a Node binary) and its pinned version, by name. */
export const TOOLS = {
  heyApi: { bin: join(modules, '@hey-api/openapi-ts/bin/run.js'), pkg: '@hey-api/openapi-ts' },
  orval: { bin: join(modules, 'orval/dist/bin/orval.mjs'), pkg: 'orval' },
  portman: { bin: join(modules, '@apideck/portman/bin/portman'), pkg: '@apideck/portman' },
  newman: { bin: join(modules, 'newman/bin/newman.js'), pkg: 'newman' },
  spectral: { bin: join(modules, '@stoplight/spectral-cli/dist/index.js'), pkg: '@stoplight/spectral-cli' },
  tsc: { bin: join(modules, 'typescript/bin/tsc'), pkg: 'typescript' },
};
/** Type declarations of Node for the compiled sample flows. */
export const NODE_TYPES = join(modules, '@types');

/** The installed version of a tool's package. */
export function versionOf(name) {
  return JSON.parse(readFileSync(join(modules, TOOLS[name].pkg, 'package.json'), 'utf8')).version;
}

/** Installs the pinned tools unless this exact lock is already installed; returns TOOLS. */
export function ensureTools() {
  ensurePinned(root, '.videogen-tools');
  for (const [name, { bin }] of Object.entries(TOOLS))
    if (!existsSync(bin)) throw new Error(`tool ${name} missing after install: ${bin}`);
  return TOOLS;
}

// CLI: `node scripts/tools.mjs` installs and prints each tool's version.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureTools();
  for (const name of Object.keys(TOOLS)) console.log(`${TOOLS[name].pkg} ${versionOf(name)}`);
}
