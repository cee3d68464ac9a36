// Pinned packages kept out of the workspace (a folder with its own package.json and lock: the runtimes of
// packages/runtime-tests, the outside tools of packages/ecosystem-tests, the webhook verifiers of
// packages/relay), installed on demand into that folder's node_modules, once per lock: a stamp there
// holds the lock's hash, and `npm ci` runs again only when the lock changed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Installs `root`'s lock unless this exact lock is installed already; returns its node_modules. */
export function ensurePinned(root, stampName) {
  const modules = join(root, 'node_modules');
  const stamp = join(modules, stampName);
  const lock = createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
    // --prefer-offline: a second checkout on the same machine installs from npm's cache, not the network.
    // --loglevel=error: packages that declare a newer Node are only ever run on the pinned Node 22/24.
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    writeFileSync(stamp, lock);
  }
  return modules;
}
