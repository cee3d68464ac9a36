import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient as createNew } from './dist/index.js';
import { createClient as createOld } from '/tmp/mainclient/packages/client/dist/index.js';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
const srv = spawn(process.execPath, [fileURLToPath(new URL('./bench/json-server.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((r) => srv.stdout.once('data', (d) => r(Number(String(d)))));
const base = `http://127.0.0.1:${port}/v1`;
const id = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';
const oldC = createOld({ apiKey: 'bench', baseUrl: base, pacing: false });
const newC = createNew({ apiKey: 'bench', baseUrl: base, pacing: false });
const N = 1000, C = 16, ROUNDS = Number(process.env.ROUNDS ?? 9);
async function cpu(fn) {
  let i = 0; const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: C }, async () => { while (i++ < N) await fn(); }));
  const { user, system } = process.cpuUsage(c0); return (user + system) / N;
}
const modes = { old: () => oldC.videos.get(id), new: () => newC.videos.get(id) };
for (const f of Object.values(modes)) await cpu(f);
const res = { old: [], new: [] };
for (let k = 0; k < ROUNDS; k++) for (const [name, f] of (k % 2 ? Object.entries(modes) : Object.entries(modes).reverse())) res[name].push(await cpu(f));
const med = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
console.log('no tracer: CPU µs per call, median of', ROUNDS, 'rounds: previous client', med(res.old).toFixed(1), 'this client', med(res.new).toFixed(1), 'ratio', (med(res.new) / med(res.old)).toFixed(3));
// With a provider registered (spans made and ended, no exporter): what tracing costs when on.
trace.setGlobalTracerProvider(new BasicTracerProvider());
const on = [];
await cpu(modes.new);
for (let k = 0; k < ROUNDS; k++) on.push(await cpu(modes.new));
console.log('with a provider: this client', med(on).toFixed(1), 'µs per call');
srv.kill();
