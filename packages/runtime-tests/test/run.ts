import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Runs a program to completion and parses the last line it printed as JSON; its stderr is in the error.
 * The timeout only ends a hang (a session takes seconds; a loaded machine many times that).
 */
export async function runJson(cmd: string, args: string[], opts: { cwd: string; env?: Record<string, string> }) {
  try {
    const { stdout } = await exec(cmd, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      timeout: 480_000,
      maxBuffer: 1 << 22,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  } catch (e) {
    const { stderr, stdout } = e as { stderr?: string; stdout?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(e as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}
