// The outside verifiers of the relay's deliveries (verifiers/package.json + its lock: svix and the stock
// standardwebhooks), installed on demand into verifiers/node_modules, once per checkout, like the pinned
// runtimes of packages/runtime-tests. Kept out of the workspace: svix declares Node >= 22, and `npm ci`
// of the workspace on Node 20 would warn EBADENGINE; the test runs it on the pinned Node 22.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePinned } from '../../../scripts/pinned-install.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'verifiers');

/** Installs the pinned verifiers unless this exact lock is installed already; returns their node_modules. */
export function ensureVerifiers() {
  const modules = ensurePinned(root, '.videogen-verifiers');
  for (const name of ['svix', 'standardwebhooks'])
    if (!existsSync(join(modules, name, 'package.json'))) throw new Error(`verifier ${name} missing after install`);
  return modules;
}

// CLI: `node scripts/verifiers.mjs` installs and prints each verifier's version.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const modules = ensureVerifiers();
  for (const name of ['svix', 'standardwebhooks'])
    console.log(`${name} ${JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version}`);
}
