// A fresh clone of this checkout, as a newcomer gets it: `git clone`, then the files changed and not yet
// committed laid over it (so that a change is walked before its commit), then `npm ci` and the build
// without the registry. npm reads its cache only (`offline`), and every proxy variable points at a closed
// port, so a command that needs the network fails instead of fetching. The build replays turbo's cache of
// this checkout when the inputs are the same (the workspace built them moments before in `npm test`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTree, scratchDir } from '@videogen/release/scratch';
import { run, show, type RunResult } from '../../release/test/helpers.ts';

export const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** No network for npm or anything that honours the proxy variables; loopback stays reachable. */
export const CLOSED = 'http://127.0.0.1:9';
export const OFFLINE_ENV: Record<string, string> = {
  npm_config_offline: 'true',
  npm_config_proxy: CLOSED,
  npm_config_https_proxy: CLOSED,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  HTTP_PROXY: CLOSED,
  HTTPS_PROXY: CLOSED,
  http_proxy: CLOSED,
  https_proxy: CLOSED,
  NO_PROXY: '127.0.0.1,localhost,::1',
  no_proxy: '127.0.0.1,localhost,::1',
  TURBO_TELEMETRY_DISABLED: '1',
  REDOCLY_TELEMETRY: 'off',
  DO_NOT_TRACK: '1',
};

const git = (args: string[], cwd = ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** turbo's cache of this checkout (a worktree's lives with the main one, beside its git directory). */
export function turboCacheDir(): string {
  const common = resolve(ROOT, git(['rev-parse', '--git-common-dir']).trim());
  return join(dirname(common), '.turbo', 'cache');
}

export interface Clone {
  dir: string;
  env: Record<string, string>;
  /** What each setup step took, in seconds (reported, never asserted). */
  timings: Record<string, number>;
  install: RunResult;
  build: RunResult;
  remove(): void;
}

/** Clones, lays the uncommitted changes over, installs and builds, offline. */
export async function freshClone(): Promise<Clone> {
  // In memory when the machine allows (scratchDir): npm ci writes ~30,000 files, which on a shared disk cost
  // 25–45 s of the kernel's CPU, in memory under 10.
  const base = scratchDir('vg-clone-');
  const dir = join(base, 'videogen');
  const timings: Record<string, number> = {};
  let t = Date.now();
  git(['clone', '--quiet', '--no-hardlinks', ROOT, dir], base);
  // The working tree as it is: files changed since HEAD (staged or not) and new ones copied, deleted ones removed.
  const lines = (args: string[]) => git(args).split('\0').filter(Boolean);
  const changed = [
    ...lines(['diff', '-z', '--name-only', '--diff-filter=d', 'HEAD']),
    ...lines(['ls-files', '-z', '-o', '--exclude-standard']),
  ];
  for (const f of changed) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  for (const f of lines(['diff', '-z', '--name-only', '--diff-filter=D', 'HEAD']))
    rmSync(join(dir, f), { force: true });
  timings.clone = (Date.now() - t) / 1000;
  const env = { ...OFFLINE_ENV, TURBO_CACHE_DIR: turboCacheDir() };
  t = Date.now();
  const install = await run('npm', ['ci'], { cwd: dir, env, hangAfterMs: 900_000 });
  timings.install = (Date.now() - t) / 1000;
  t = Date.now();
  const build =
    install.code === 0
      ? await run('npm', ['run', 'build', '--', '--output-logs=errors-only'], { cwd: dir, env, hangAfterMs: 900_000 })
      : { code: null, stdout: '', stderr: 'not built: npm ci failed' };
  timings.build = (Date.now() - t) / 1000;
  const remove = () => removeTree(base);
  return { dir, env, timings, install, build, remove };
}

export { run, show, type RunResult };
