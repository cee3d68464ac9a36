// The built bin (dist/cli.js) as `npx videogen-contract` runs it: a plain Node process, no vitest, in a
// directory of its own, with the environment given and nothing of the test's (its VIDEO_API_* and
// CONTRACT_* variables are left out). Reports go to that directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface CliResult {
  code: number;
  out: string;
  err: string;
  junit: string;
  summary: string;
  drift: string;
  /** summary.json, parsed ({} when none was written). */
  json: any;
  dir: string;
}

export function cli(
  args: string[],
  env: Record<string, string> = {},
  /** The arguments as they are (the proxy subcommand takes no report options); `dir`: run there (an earlier run's reports in it). */
  { raw = false, dir = mkdtempSync(join(tmpdir(), 'contract-cli-')) }: { raw?: boolean; dir?: string } = {},
): Promise<CliResult> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VIDEO_API_') && !k.startsWith('CONTRACT_') && !k.startsWith('VITEST'),
    ),
  );
  // The report paths once as options, once as variables: both are read.
  const argv = raw ? args : ['--junit', join(dir, 'junit.xml'), ...args];
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), ...argv], {
    cwd: dir,
    env: {
      ...clean,
      ...env,
      CONTRACT_SUMMARY_FILE: join(dir, 'summary.txt'),
      CONTRACT_DRIFT_FILE: join(dir, 'drift.md'),
      NO_COLOR: '1',
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const read = (f: string) => {
    try {
      return readFileSync(join(dir, f), 'utf8');
    } catch {
      return '';
    }
  };
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        out,
        err,
        junit: read('junit.xml'),
        summary: read('summary.txt'),
        drift: read('drift.md'),
        json: JSON.parse(read('summary.json') || '{}'),
        dir,
      }),
    ),
  );
}
