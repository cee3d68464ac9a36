// The outside verifiers of the relay's deliveries (verifiers/package.json + its lock: svix and the stock
// standardwebhooks), installed on demand into verifiers/node_modules, once per checkout, like the pinned
// runtimes of packages/runtime-tests. Kept out of the workspace: svix declares Node >= 22, and `npm ci`
// of the workspace on Node 20 would warn EBADENGINE; the test runs it on the pinned Node 22.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'verifiers');
const modules = join(root, 'node_modules');
const stamp = join(modules, '.videogen-verifiers');

/** Installs the pinned verifiers unless this exact lock is installed already; returns their node_modules. */
export function ensureVerifiers() {
  const lock = createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
    // --prefer-offline: a second checkout on the same machine installs from npm's cache, not the network.
    // --loglevel=error: svix's engines field (Node >= 22) is honoured by running it on Node 22 only.
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    writeFileSync(stamp, lock);
  }
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
