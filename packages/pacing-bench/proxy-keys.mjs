// npm run bench:keys -w @videogen/pacing-bench (also part of its `npm run bench`): what
// one more API key costs the pacing proxy. The proxy runs alone in a child process (its memory is its
// own), in front of a plain JSON server; after WARM_UP requests without a key (the code paths warm, no
// key learnt), the bench sends BENCH_KEYS requests one after another, each with a key the proxy has never
// seen, and compares the requests of the last 100 keys with those of the first 100, measured in the same
// run: the median time per request, and the proxy's memory after a GC (resident, and its JS heap). Goal:
// the 3,000th key costs the same as the 1st (ratio ≤ 1.5, noise included). With --har the HAR holds
// every exchange in memory by design (3,000 entries).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const KEYS = Number(process.env.BENCH_KEYS ?? 3000);
const SAMPLE = 100;
const WARM_UP = 300;
const GOAL = 1.5;

const body = JSON.stringify({ results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 });
const upstream = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const target = `http://127.0.0.1:${upstream.address().port}/v1`;

async function measure(har) {
  const child = spawn(
    process.execPath,
    ['--expose-gc', fileURLToPath(new URL('./proxy-keys-child.mjs', import.meta.url)), target, har ? 'har' : ''],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  child.stdout.setEncoding('utf8');
  const lines = [];
  let wake;
  child.stdout.on('data', (d) => {
    lines.push(...String(d).trim().split('\n'));
    wake?.();
  });
  const line = async () => {
    while (!lines.length) await new Promise((r) => (wake = r));
    return lines.shift();
  };
  const base = await line();
  const memory = async () => {
    child.stdin.write('rss\n');
    const [rss, heap] = (await line()).split(' ').map(Number);
    return { rss, heap };
  };
  for (let i = 0; i < WARM_UP; i++) await (await fetch(`${base}/videos/`)).arrayBuffer();
  const times = [];
  let m1;
  for (let i = 0; i < KEYS; i++) {
    const key = `sk-bench-${String(i).padStart(6, '0')}-${Math.random().toString(36).slice(2, 14)}`;
    const t0 = performance.now();
    const res = await fetch(`${base}/videos/`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`key ${i}: ${res.status}`);
    if (i === SAMPLE - 1) m1 = await memory();
  }
  const mN = await memory();
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const first = median(times.slice(0, SAMPLE));
  const last = median(times.slice(-SAMPLE));
  return { first, last, ratio: last / first, m1, mN };
}

const mb = (b) => (b / 1e6).toFixed(0);
const rows = [];
let missed = 0;
for (const har of [false, true]) {
  const m = await measure(har);
  const ok = m.ratio <= GOAL;
  if (!ok) missed++;
  rows.push({
    run: `${KEYS} new keys${har ? ', --har' : ''}`,
    'first 100 (ms/req)': m.first.toFixed(2),
    [`last 100 (ms/req)`]: m.last.toFixed(2),
    ratio: m.ratio.toFixed(2),
    goal: `<= ${GOAL}`,
    met: ok ? 'yes' : 'NO',
    'rss / heap after 100 keys': `${mb(m.m1.rss)} / ${mb(m.m1.heap)} MB`,
    [`after ${KEYS}`]: `${mb(m.mN.rss)} / ${mb(m.mN.heap)} MB`,
  });
}
upstream.close();
console.table(rows);
process.exitCode = missed ? 1 : 0;
