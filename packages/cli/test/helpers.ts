import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  key?: string | null;
  baseUrl?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** A clean environment: only what the CLI reads, so the developer's own settings cannot leak in. */
export function cliEnv(opts: RunOptions): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TERM: 'xterm-256color',
  };
  if (opts.key) env.VIDEO_API_KEY = opts.key;
  if (opts.baseUrl) env.VIDEO_API_BASE_URL = opts.baseUrl;
  return { ...env, ...opts.env };
}

/** Run the built binary as a child process (stdout and stderr are pipes: not a TTY). */
export function run(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(opts), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // A hang guard only: a CLI run takes seconds, a loaded machine many times that.
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 480_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      assertNoSecret(result, opts.key);
      resolve(result);
    });
  });
}

/** The key must never be printed, whatever happened. */
export function assertNoSecret(result: { stdout: string; stderr: string }, key?: string | null): void {
  if (!key) return;
  expect(result.stdout).not.toContain(key);
  expect(result.stderr).not.toContain(key);
}

/** An MP4 starts with a box whose type, at bytes 4..8, is "ftyp". */
export const isMp4 = (bytes: Buffer) => bytes.length > 8 && bytes.subarray(4, 8).toString('latin1') === 'ftyp';

/** The single error line of a failed command (progress lines may come before it). */
export const errorLine = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('videogen: '))
    .at(-1) ?? '';
