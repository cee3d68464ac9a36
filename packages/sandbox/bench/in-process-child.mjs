// The in-process row of the throughput bench, in its own process: CONCURRENCY loops each send
// GET /v1/videos/{id}/ through sb.fetch (no socket) for SECONDS, then the same loops send it with
// the global fetch to the same sandbox listening on loopback (client and server in one process, as in
// an application's test). Prints one JSON line: { inProcess, overSocket } in requests per second.
import * as sandboxModule from '../dist/index.js';

const [seconds, concurrency] = process.argv.slice(2).map(Number);
const VIDEO = '71de0a00-0000-4000-8000-000000000001';
const headers = { authorization: 'Bearer sandbox-key-acme' };

async function rate(fetchFn, url, ms) {
  let count = 0;
  let bad = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const res = await fetchFn(url, { headers });
        await res.arrayBuffer();
        if (res.status === 200) count++;
        else bad++;
      }
    }),
  );
  if (bad) throw new Error(`${bad} answers were not 200`);
  return (count * 1000) / ms;
}

const { createSandbox } = sandboxModule;
const sb = await createSandbox({ port: 0, rateLimits: false, validateResponses: false });
const result = { inProcess: null, overSocket: null };
try {
  const url = `${sb.baseUrl}/videos/${VIDEO}/`;
  if (typeof sb.fetch === 'function') {
    await rate(sb.fetch, url, 1000); // warm-up
    result.inProcess = await rate(sb.fetch, url, seconds * 1000);
  }
  await rate(fetch, url, 1000);
  result.overSocket = await rate(fetch, url, seconds * 1000);
} finally {
  await sb.close();
}
process.stdout.write(`${JSON.stringify(result)}\n`);
