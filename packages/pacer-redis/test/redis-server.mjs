// A real redis-server on a free port, started and stopped by the test (Debian's package; .ci/run
// installs it). Also used by packages/replica-tests and the replica benchmark.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** `redis-server --port P --save '' --appendonly no`: kill() is kill -9, restart() starts it again, empty, on P. */
export async function startRedis() {
  const port = await freePort();
  let child;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const c = child;
    await new Promise((resolve, reject) => {
      let out = '';
      const deadline = setTimeout(() => reject(new Error(`redis-server did not start on ${port}: ${out}`)), 20_000);
      c.stdout.on('data', (d) => {
        out += d;
        if (/Ready to accept connections/i.test(out)) {
          clearTimeout(deadline);
          resolve();
        }
      });
      c.once('exit', (code) => {
        clearTimeout(deadline);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}/0`, kill, restart: launch, stop: kill };
}
