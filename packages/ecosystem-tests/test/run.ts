import { execFile } from 'node:child_process';

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion and answers its exit code and output; never throws for a non-zero exit. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: { ...process.env, ...opts.env }, timeout: opts.timeoutMs ?? 110_000, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (error && code === -1) reject(new Error(`${cmd} ${args.join(' ')}: ${error.message}\n${stderr}`));
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The last line a program printed, parsed as JSON (the sample flows print their result so). */
export function lastJsonLine(out: string) {
  return JSON.parse(out.trim().split('\n').at(-1)!);
}
