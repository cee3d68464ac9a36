// Packages as users meet them: packed as npm would publish them, installed from the tarballs into a
// fresh project outside the workspace. Shared by the consumer tests, the size benchmark and
// packages/runtime-tests.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PUBLISHED, ROOT } from './published.mjs';

const execFileAsync = promisify(execFile);

/** Runs npm quietly; resolves to its stdout. Errors carry npm's stderr. */
export async function npm(args, cwd, env = {}) {
  try {
    const { stdout } = await execFileAsync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      maxBuffer: 1 << 26,
    });
    return stdout;
  } catch (e) {
    throw new Error(`npm ${args.join(' ')} (in ${cwd}) failed:\n${e.stderr || e.message}`);
  }
}

/**
 * Packs workspace packages (by name) into `dest` with one `npm pack`, as `npm publish` would pack them.
 * Resolves to, by package name: `{ name, version, file, filename, size, unpackedSize, entryCount, files }`.
 */
export async function pack(names, dest, root = ROOT) {
  mkdirSync(dest, { recursive: true });
  const dirs = names.map((name) => {
    const p = PUBLISHED.find((x) => x.name === name);
    if (!p) throw new Error(`${name} is not a published package (packages/release/lib/published.mjs)`);
    return p.dir;
  });
  const out = JSON.parse(
    await npm(['pack', '--json', '--pack-destination', dest, ...dirs.flatMap((d) => ['-w', d])], root),
  );
  return Object.fromEntries(
    out.map((p) => [p.name, { ...p, file: join(dest, p.filename), files: p.files.map((f) => f.path) }]),
  );
}

/**
 * A new npm project in `dir` (outside any workspace) that installs `install` (package names, from their
 * tarballs) and `extra` (registry specs, e.g. `vitest@4.1.12`). Every packed package is also pinned to its
 * tarball through `overrides`, so that the packages' dependencies on each other come from the tarballs,
 * never from the registry. `strategy` 'nested' gives each package its own node_modules with only what it
 * declares, so a missing dependency fails instead of being found by hoisting.
 * @param {string} dir
 * @param {{ tarballs: Record<string, { file: string }>, install: string[], extra?: string[], strategy?: 'nested' | 'hoisted' | 'shallow', name?: string }} options
 */
export async function freshProject(dir, { tarballs, install, extra = [], strategy = 'nested', name = 'consumer' }) {
  mkdirSync(dir, { recursive: true });
  const spec = (n) => `file:${tarballs[n].file}`;
  const overrides = Object.fromEntries(Object.keys(tarballs).map((n) => [n, spec(n)]));
  const dependencies = Object.fromEntries(install.map((n) => [n, spec(n)]));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name, private: true, type: 'module', dependencies, overrides }, null, 2)}\n`,
  );
  // --prefer-offline: what npm's cache holds (the workspace's own install filled it) is not fetched again.
  // --ignore-scripts: our packages have no install scripts; the only ones (lmdb's and msgpackr-extract's,
  // under the sandbox) look for the prebuilt binary that lmdb loads at run time anyway, and started two
  // processes each per project. --no-package-lock: only node_modules/.package-lock.json is read.
  await npm(
    [
      'install',
      '--prefer-offline',
      '--ignore-scripts',
      '--no-package-lock',
      `--install-strategy=${strategy}`,
      ...extra,
    ],
    dir,
  );
  return dir;
}
