// Running the installed packages' commands as a user would (`npx …` inside a fresh project).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * An installed package's command in a fresh project, run as npm scripts run it (the link npm made in
 * node_modules/.bin). Each documented `npx` form is run through npx once in these tests; the other runs
 * skip npx's own start (about a second of CPU each), which they do not test.
 */
export const installedBin = (dir: string, command: string) => join(dir, 'node_modules/.bin', command);

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in its own process group to completion. `hangAfterMs` only guards against a hang
 * (the whole group is killed and the result says so); it is never a measure of speed.
 */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined>; hangAfterMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[killed: still running after ${opts.hangAfterMs} ms]`;
      killGroup(child.pid);
    }, opts.hangAfterMs ?? 480_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A failed command's output, for an assertion message. Each line is quoted ("│ "), so that a nested test
 * run's own "Tests  N passed" line is not read as this run's by the CI summary (scripts/test-summary.mjs).
 */
export const show = (r: RunResult) =>
  `exit ${r.code}\n--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-6000)}`.replace(/^/gm, '│ ');

function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export interface SandboxProcess {
  baseUrl: string;
  origin: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * `videogen-sandbox --port 0 …` in a project where @videogen/sandbox is installed: resolves once it
 * prints its base URL (port 0: a free port, chosen by the system). stop() ends its process group.
 * `via: 'npx'` starts it as the README does (sandbox.test.ts); the other files, which only need a sandbox
 * to talk to, start the installed bin itself.
 */
export function startSandboxBin(
  cwd: string,
  args: string[] = [],
  { via = 'bin' }: { via?: 'npx' | 'bin' } = {},
): Promise<SandboxProcess> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = via === 'npx' ? ['npx', 'videogen-sandbox'] : [installedBin(cwd, 'videogen-sandbox')];
    const child = spawn(command, [...prefix, '--port', '0', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    const stop = async () => {
      killGroup(child.pid);
      const forced = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    };
    const onData = (d: Buffer) => {
      out += d;
      const m = /base URL\s+(http:\/\/\S+\/v1)/.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        child.stdout.on('data', (more) => (out += more));
        resolve({ baseUrl: m[1]!, origin: new URL(m[1]!).origin, output: () => out, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      reject(new Error(`videogen-sandbox exited (${code}) before printing its base URL:\n${out}`)),
    );
  });
}
