// Child processes of the benches: started with a readiness pattern on their output, stopped cleanly.
import { spawn } from 'node:child_process';

/** Starts `node ARGS`; resolves once `ready(output)` returns something (the child's origin, say). */
export function startChild(args, ready) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not start: ${out}`)), 30_000);
    const onData = (d) => {
      out += d;
      const m = ready(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: m });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
}

export const stop = (child) =>
  new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
