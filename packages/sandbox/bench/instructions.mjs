// node bench/instructions.mjs ['{"validateResponses":true}'] [--plain | --script FILE]: user-space CPU
// instructions per GET /v1/videos/{id}/, counted by valgrind's callgrind (Debian package valgrind), which
// a busy machine does not change: the figure to compare two versions of the hot path with. The server
// runs under valgrind; 30,000 requests warm its JIT up, then exactly INSTRUCTIONS_REQUESTS (default
// 20,000) are counted, over 4 keep-alive connections. Kernel time (the socket) is not counted. Runs of the
// same code agree within a few per cent.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLAIN_SERVER } from './plain-server.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const VIDEO = '71de0a00-0000-4000-8000-000000000001';
const COUNTED = Number(process.env.INSTRUCTIONS_REQUESTS ?? 20_000);

/** Exactly n GETs over c keep-alive connections, each sent when the previous answer is complete. */
function requests(url, n, c = 4) {
  const u = new URL(url);
  const request = Buffer.from(
    `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer sandbox-key-acme\r\n\r\n`,
  );
  let sent = 0;
  return Promise.all(
    Array.from(
      { length: c },
      () =>
        new Promise((resolve, reject) => {
          const socket = net.connect(Number(u.port), u.hostname);
          let buf = Buffer.alloc(0);
          const next = () => (sent >= n ? (socket.end(), resolve()) : (sent++, socket.write(request)));
          socket.on('connect', next);
          socket.on('error', reject);
          socket.on('data', (d) => {
            buf = buf.length ? Buffer.concat([buf, d]) : d;
            for (;;) {
              const head = buf.indexOf('\r\n\r\n');
              if (head < 0) return;
              const length = Number(/content-length: *(\d+)/i.exec(buf.subarray(0, head).toString('latin1'))?.[1] ?? 0);
              if (buf.length < head + 4 + length) return;
              buf = buf.subarray(head + 4 + length);
              next();
            }
          });
        }),
    ),
  );
}

export async function instructionsPerRequest({ options = {}, plain = false, script } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-instructions-'));
  const args = script
    ? [script]
    : plain
      ? ['-e', PLAIN_SERVER]
      : [here('./sandbox-child.mjs'), JSON.stringify({ rateLimits: false, validateResponses: false, ...options })];
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      process.execPath,
      '--single-threaded-gc',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const origin = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /ORIGIN (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`the server under valgrind exited ${code}: ${out}`)));
    });
    const url = `${origin}/v1/videos/${VIDEO}/`;
    await requests(url, 30_000);
    execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
    await requests(url, COUNTED);
    execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
  } finally {
    child.kill();
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
  let total = 0;
  for (const f of readdirSync(dir))
    total += Number(/^summary: (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? 0);
  rmSync(dir, { recursive: true, force: true });
  return total / COUNTED;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = process.argv.slice(2).find((a) => a.startsWith('{'));
  const script = process.argv.includes('--script') ? process.argv[process.argv.indexOf('--script') + 1] : undefined;
  instructionsPerRequest({ plain: process.argv.includes('--plain'), script, options: json ? JSON.parse(json) : {} })
    .then((n) =>
      console.log(
        `${Math.round(n).toLocaleString('en')} user-space instructions per request (${COUNTED} requests counted)`,
      ),
    )
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
