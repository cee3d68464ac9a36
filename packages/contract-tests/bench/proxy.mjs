// npm run bench -w @videogen/contract-tests (issue 19 §4): the pacing proxy against every limiter
// style and both personalities of the sandbox. Two "tools" burst at once through the proxy: one key of
// account acme sends BENCH_PROXY_REQUESTS class-B reads and BENCH_PROXY_STARTS generations (default:
// as many as the account may run at once), one key of account globex sends BENCH_PROXY_REQUESTS
// reads. More starts than running slots are held until the proxy's own status read (at the polling
// pace, 10 service s) sees a video finish: that wait is the interface's, not the pacer's, and the
// floor below does not include it (BENCH_PROXY_STARTS=4 shows it, in the `held` column). Each row prints
// the 429s and 503s the sandbox answered (its own counters) and the callers saw, the wall time (first
// request in → last response out, on the sandbox's side) against the floor the limits impose on the
// requests made (pacingFloorMs of the rules module: per account and class, (n − 1) even intervals;
// the busiest account's), and their ratio. Goal: 0 × 429 and 0 × 503 at the sandbox and the callers,
// wall ≤ 1.15 × floor. A `direct` row per style sends the same burst without the proxy: what it saves.
// The default personality sends RateLimit-Policy (the proxy learns the time scale from it); the
// alternative sends none, so the proxy is told the scale (--time-scale), as a user would.
// The proxy is TypeScript source: loaded through Vite's module runner, as bin/contract.mjs does.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MAX_RUNNING, operationFor, pacingFloorMs } from '@videogen/openapi/rules';
import { FIXTURES, PERSONALITIES, RATE_LIMITER_STYLES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';

const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 10);
const REQUESTS = Number(process.env.BENCH_PROXY_REQUESTS ?? 20);
const STARTS = Number(process.env.BENCH_PROXY_STARTS ?? MAX_RUNNING);
const GENERATION_SECONDS = Number(process.env.BENCH_GENERATION_SECONDS ?? 6);
const GOAL_RATIO = 1.15;
const only = (name, all) => (process.env[name] ? process.env[name].split(',') : all);
const styles = only('BENCH_STYLES', RATE_LIMITER_STYLES);
const personalities = only('BENCH_PERSONALITIES', PERSONALITIES);

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { createServer, createServerModuleRunner } = await import('vite');
const vite = await createServer({ root, configFile: false, logLevel: 'error', appType: 'custom', server: { middlewareMode: true, hmr: false, ws: false } });
const runner = createServerModuleRunner(vite.environments.ssr, { hmr: false });
const { startPacingProxy } = await runner.import(join(root, 'src/proxy/index.ts'));

async function sandboxFor(style, personality) {
  const answers = [];
  const sb = await startSandbox({
    port: 0, timeScale: TIME_SCALE, rateLimiter: style, personality, generationSeconds: GENERATION_SECONDS,
    logger: (line) => {
      const end = performance.now();
      const m = /^(\S+) (\S+) (\d+) ([\d.]+)ms (\S+)$/.exec(line);
      if (m && m[2].startsWith('/v1/')) answers.push({ method: m[1], path: m[2], status: +m[3], start: end - Number(m[4]), end, account: m[5] });
    },
  });
  return { sb, answers };
}

/** The two tools' burst against `base`; resolves with the statuses the callers got. */
async function burst(base) {
  const send = (key, path, init = {}) => fetch(base + path, { ...init, headers: { authorization: `Bearer ${key}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
  const form = () => {
    const f = new FormData();
    f.set('video_setting_id', FIXTURES.acme.settings.text);
    f.set('text', 'pacing proxy bench');
    return f;
  };
  return Promise.all([
    ...Array.from({ length: REQUESTS }, (_, i) => send(SANDBOX_KEYS.acme, i % 2 ? '/videos/' : '/video-settings/')),
    ...Array.from({ length: STARTS }, () => send(SANDBOX_KEYS.acme, '/videos/generate/', { method: 'POST', body: form() })),
    ...Array.from({ length: REQUESTS }, () => send(SANDBOX_KEYS.globex, '/videos/')),
  ]);
}

function figures(answers) {
  const perAccount = new Map();
  for (const a of answers) {
    const op = a.account !== '-' && a.status !== 429 && a.status !== 503 && operationFor(a.method, a.path);
    if (!op) continue;
    const counts = perAccount.get(a.account) ?? {};
    counts[op.rateClass] = (counts[op.rateClass] ?? 0) + 1;
    perAccount.set(a.account, counts);
  }
  let floor = 0;
  let bound = '-';
  for (const [account, counts] of perAccount) {
    const f = pacingFloorMs(counts, TIME_SCALE);
    if (f > floor) [floor, bound] = [f, `${account} ${Object.entries(counts).map(([c, n]) => `${c}×${n}`).join(' ')}`];
  }
  const wall = answers.length ? Math.max(...answers.map((a) => a.end)) - Math.min(...answers.map((a) => a.start)) : 0;
  return { wall, floor, bound };
}

const rows = [];
let missed = 0;
for (const personality of personalities) {
  for (const style of styles) {
    for (const via of personality === 'default' ? ['direct', 'proxy'] : ['proxy']) {
      const { sb, answers } = await sandboxFor(style, personality);
      let statuses;
      let proxyStats;
      try {
        if (via === 'direct') statuses = await burst(sb.baseUrl);
        else {
          const proxy = await startPacingProxy({ target: sb.baseUrl, ...(personality !== 'default' && { timeScale: TIME_SCALE }) });
          try {
            statuses = await burst(proxy.url);
          } finally {
            await proxy.close();
            proxyStats = proxy.stats();
          }
        }
      } finally {
        await sb.close();
      }
      const stats = sb.stats();
      const f = figures(answers);
      const ratio = f.floor ? f.wall / f.floor : NaN;
      const callerRefusals = statuses.filter((s) => s === 429 || s === 503).length;
      const ok = via === 'direct' || ((stats['429'] ?? 0) === 0 && (stats['503'] ?? 0) === 0 && callerRefusals === 0 && ratio <= GOAL_RATIO);
      if (!ok) missed++;
      rows.push({
        via,
        personality,
        style,
        requests: answers.length,
        'sandbox 429s': stats['429'] ?? 0,
        'sandbox 503s': stats['503'] ?? 0,
        'caller 429/503': callerRefusals,
        'wall s': (f.wall / 1000).toFixed(2),
        'floor s': (f.floor / 1000).toFixed(2),
        ratio: via === 'direct' ? '-' : ratio.toFixed(2),
        held: proxyStats ? proxyStats.heldForConcurrency : '-',
        'bound by': f.bound,
        goal: via === 'direct' ? '(baseline)' : ok ? 'met' : 'MISSED',
      });
      process.stderr.write(`${via} ${personality} ${style}: ${JSON.stringify(rows.at(-1))}\n`);
    }
  }
}
await runner.close();
await vite.close();

console.log(`\nPacing proxy bench (issue 19 §4): time scale ${TIME_SCALE}, per style ${REQUESTS} class-B reads from each of two accounts and ${STARTS} generations (${GENERATION_SECONDS} service s each), all at once; goal through the proxy: 0 × 429, 0 × 503, wall ≤ ${GOAL_RATIO} × floor`);
console.table(rows);
if (missed) {
  console.log(`${missed} proxy runs missed the goal.`);
  process.exitCode = 1;
}
