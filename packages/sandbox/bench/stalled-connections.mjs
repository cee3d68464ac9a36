// Stalled connections: while an attacker process holds STALLED (default 10,000) connections open on the
// sandbox (bodies that never end, with and without a key, headers that never end, idle sockets: each
// re-opened when the sandbox cuts it), a well-behaved client's GET /v1/videos/{id}/ p99 is measured and
// printed beside the unloaded p99 of the same run. Sandbox with its default limits, no rate limits.
// Run alone: node bench/stalled-connections.mjs (STALLED=N, STALLED_SECONDS=S to change it).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startChild, stop } from './children.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const VIDEO = '71de0a00-0000-4000-8000-000000000001';
const KEY = 'sandbox-key-acme';

/** The attacker, in its own process (its own event loop and file descriptors). */
const ATTACKER = `
const net = require('node:net');
const [port, target] = process.argv.slice(1).map(Number);
const key = ${JSON.stringify(KEY)};
// [first bytes, the byte trickled every 5 s to stay under the idle limit]
const kinds = [
  ['POST /v1/videos/generate/ HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer ' + key + '\\r\\nContent-Type: multipart/form-data; boundary=b\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n', '1\\r\\n-\\r\\n'],
  ['POST /v1/videos/${VIDEO}/conversions/ HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer ' + key + '\\r\\nContent-Type: application/json\\r\\nContent-Length: 100000\\r\\n\\r\\n{', ' '],
  ['POST /nope HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n', '1\\r\\n \\r\\n'],
  ['GET /v1/videos/ HTTP/1.1\\r\\nHost: x\\r\\nX-Slow: ', 'a'],
  ['', ''],
];
const sockets = new Map(); // socket → the byte it trickles
let open = 0, connecting = 0, opened = 0, cut = 0, n = 0;
function one() {
  const kind = kinds[n++ % kinds.length];
  const s = net.connect(port, '127.0.0.1');
  connecting++;
  let up = false;
  s.on('connect', () => { connecting--; up = true; open++; opened++; s.write(kind[0]); sockets.set(s, kind[1]); });
  s.on('data', () => {});
  s.on('error', () => {});
  s.on('close', () => { sockets.delete(s); if (up) { open--; cut++; } else connecting--; });
}
// Keep \`target\` open: whatever the sandbox cuts is replaced, 500 at a time.
setInterval(() => { for (let k = 0; k < 500 && open + connecting < target; k++) one(); }, 20);
setInterval(() => { for (const [s, b] of sockets) if (b && s.writable) s.write(b); }, 5000);
setInterval(() => process.stdout.write('OPEN ' + open + ' ' + opened + ' ' + cut + '\\n'), 500);
process.on('SIGTERM', () => process.exit(0));
`;

const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const openFiles = () => Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0);

/** `count` sequential keep-alive GETs (a paced, well-behaved client): latencies in ms, and failures. */
async function client(origin, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let failures = 0;
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    const status = await new Promise((resolve) => {
      const req = http.get(
        `${origin}/v1/videos/${VIDEO}/`,
        { agent, headers: { authorization: `Bearer ${KEY}` }, timeout: 10_000 },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
    });
    if (status === 200) latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    else failures++;
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { n: latencies.length, failures, p50: q(0.5), p99: q(0.99), max: latencies[latencies.length - 1] };
}

export async function stalledConnectionsBench({
  stalled = Number(process.env.STALLED ?? 10_000),
  requests = Number(process.env.STALLED_REQUESTS ?? 2000),
} = {}) {
  const limit = openFiles();
  // Each stalled connection costs a descriptor on both sides; both children inherit this limit.
  if (limit && limit < stalled + 512) {
    console.log(
      `open-file limit ${limit} < ${stalled} + 512: holding ${limit - 512} instead (raise it with ulimit -n)`,
    );
    stalled = limit - 512;
  }
  const sandbox = await startChild(
    [here('./sandbox-child.mjs'), JSON.stringify({ rateLimits: false, validateResponses: false })],
    (o) => /ORIGIN (\S+)/.exec(o)?.[1],
  );
  const port = Number(new URL(sandbox.origin).port);
  let attacker;
  try {
    await client(sandbox.origin, 200); // warm-up
    const unloaded = await client(sandbox.origin, requests);
    const rssBefore = rss(sandbox.child.pid);

    attacker = spawn(process.execPath, ['-e', ATTACKER, String(port), String(stalled)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last = { open: 0, opened: 0, cut: 0 };
    attacker.stdout.on('data', (d) => {
      const m = /OPEN (\d+) (\d+) (\d+)\n[^\n]*$/.exec(String(d)) ?? /OPEN (\d+) (\d+) (\d+)/.exec(String(d));
      if (m) last = { open: Number(m[1]), opened: Number(m[2]), cut: Number(m[3]) };
    });
    const t0 = Date.now();
    while (last.open < stalled * 0.98 && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 200));
    const openAtStart = last.open;
    const loaded = await client(sandbox.origin, requests);
    const openAtEnd = last.open;
    const rssLoaded = rss(sandbox.child.pid);
    // The same client again once the attacker is gone: on a shared machine, the two unloaded runs show the noise.
    await stop(attacker);
    attacker = undefined;
    await new Promise((r) => setTimeout(r, 1000));
    const after = await client(sandbox.origin, requests);

    const f = (n) => (Number.isFinite(n) ? n.toFixed(2) : String(n));
    console.log(
      `\nstalled connections (attacker process holds them open, re-opening what the sandbox cuts; sandbox with default limits):`,
    );
    console.log(
      `  attacker connections open: ${openAtStart} when the loaded run started, ${openAtEnd} when it ended (target ${stalled}; ${last.opened} opened, ${last.cut} cut by the sandbox so far)`,
    );
    console.log(`  well-behaved client, ${requests} sequential keep-alive GET /v1/videos/{id}/:`);
    console.log(
      `    unloaded: p50 ${f(unloaded.p50)} ms, p99 ${f(unloaded.p99)} ms, max ${f(unloaded.max)} ms, failures ${unloaded.failures}`,
    );
    console.log(
      `    loaded:   p50 ${f(loaded.p50)} ms, p99 ${f(loaded.p99)} ms, max ${f(loaded.max)} ms, failures ${loaded.failures}`,
    );
    console.log(
      `    unloaded again after the attacker left: p50 ${f(after.p50)} ms, p99 ${f(after.p99)} ms, max ${f(after.max)} ms, failures ${after.failures}`,
    );
    const base = Math.min(unloaded.p99, after.p99);
    console.log(
      `  p99 ratio loaded / unloaded (the lower unloaded p99): ${(loaded.p99 / base).toFixed(1)}x; sandbox RSS ${rssBefore.toFixed(0)} MB → ${rssLoaded.toFixed(0)} MB with the connections open`,
    );
    return { unloaded, loaded, after, openAtStart, openAtEnd };
  } finally {
    if (attacker) await stop(attacker);
    await stop(sandbox.child);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  stalledConnectionsBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
