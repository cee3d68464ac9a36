import { spawn } from 'node:child_process';
import createFetchClient from 'openapi-fetch';
const srv = spawn(process.execPath, ['/work/wt/client/packages/client/bench/json-server.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((r) => srv.stdout.once('data', (d) => r(Number(String(d)))));
const base = `http://127.0.0.1:${port}/v1`;
const id = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';
const url = `${base}/videos/${id}/`;
const H = { authorization: 'Bearer bench' };
const of = createFetchClient({ baseUrl: base, headers: H });
const fns = {
  bare: () => fetch(url, { headers: H }).then((r) => r.json()),
  signal: () => { const ac = new AbortController(); const t = setTimeout(() => ac.abort(), 60000); return fetch(url, { headers: H, signal: ac.signal }).then((r) => r.json()).finally(() => clearTimeout(t)); },
  timeoutSig: () => fetch(url, { headers: H, signal: AbortSignal.timeout(60000) }).then((r) => r.json()),
  reqObj: () => fetch(new Request(url, { headers: H })).then((r) => r.json()),
  reqObjSig: () => { const ac = new AbortController(); const t = setTimeout(() => ac.abort(), 60000); return fetch(new Request(url, { headers: H }), { signal: ac.signal }).then((r) => r.json()).finally(() => clearTimeout(t)); },
  reqWithSig: () => { const ac = new AbortController(); const t = setTimeout(() => ac.abort(), 60000); return fetch(new Request(url, { headers: H, signal: ac.signal })).then((r) => r.json()).finally(() => clearTimeout(t)); },
  timerOnly: () => { const t = setTimeout(() => {}, 60000); return fetch(url, { headers: H }).then((r) => r.json()).finally(() => clearTimeout(t)); },
  openapiFetch: () => of.GET('/videos/{video_id}/', { params: { path: { video_id: id } } }),
};
const N = 1000, C = 16;
async function rate(fn) { let i = 0; const t0 = performance.now(); await Promise.all(Array.from({ length: C }, async () => { while (i++ < N) await fn(); })); return N / ((performance.now() - t0) / 1000); }
const names = Object.keys(fns);
for (const n of names) await rate(fns[n]);
const res = Object.fromEntries(names.map((n) => [n, []]));
for (let k = 0; k < 9; k++) for (let j = 0; j < names.length; j++) { const n = names[(j + k) % names.length]; res[n].push(await rate(fns[n])); }
const med = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
const b = med(res.bare);
for (const n of names) console.log(n.padEnd(14), med(res[n]).toFixed(0), (med(res[n]) / b).toFixed(3));
srv.kill();
