// The pacing proxy alone in a process (for proxy-keys.mjs): its memory is its own. Prints its URL on
// stdout, then answers "rss" on stdin with its resident set size in bytes.
import { startPacingProxy } from '@videogen/contract-tests/proxy';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [target, har] = process.argv.slice(2);
const proxy = await startPacingProxy({
  target,
  ...(har && { harFile: join(tmpdir(), `proxy-keys-${process.pid}.har`) }),
  // Each key is its own account: a thousand times faster than real time, the pacing waits vanish.
  timeScale: 1000,
});
process.stdout.write(`${proxy.url}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  if (String(d).trim() === 'rss') {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.stdout.write(`${rss} ${heapUsed}\n`);
  }
});
process.stdin.on('end', async () => {
  await proxy.close();
  process.exit(0);
});
