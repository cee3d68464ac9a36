// npm run bench:proxy -w @videogen/pacing-bench (also the second half of its `npm run bench`; issue
// 19 §4): the pacing proxy against every limiter style and both personalities of the sandbox. Two
// "tools" burst at once through the proxy: one key of account acme sends BENCH_PROXY_REQUESTS class-B
// reads and BENCH_PROXY_STARTS generations (default: as many as the account may run at once), one key
// of account globex sends BENCH_PROXY_REQUESTS reads. Each row prints the 429s and 503s the sandbox
// answered (its own counters) and the callers saw, the wall time against the floor the limits impose
// on the requests made (measure.mjs), and their ratio. Goal: 0 × 429 and 0 × 503 at the sandbox and
// the callers, wall ≤ 1.15 × floor. A `direct` row per style sends the same burst without the proxy:
// what the proxy saves. More starts than running slots are held until the proxy's own status read (at
// the polling pace, 10 service s) sees a video finish: that wait is the interface's, not the pacer's,
// and no rate floor includes it (BENCH_PROXY_STARTS=4 shows it, in the `held` column).
// The default personality sends RateLimit-Policy (the proxy learns the time scale from it); the
// alternative sends none, so the proxy is told the scale (--time-scale), as a user would.
// The proxy as users get it: the built @videogen/contract-tests/proxy (turbo builds it before a bench).
import { MAX_RUNNING } from '@videogen/openapi/rules';
import { startPacingProxy } from '@videogen/contract-tests/proxy';
import { FIXTURES, PERSONALITIES, RATE_LIMITER_STYLES, SANDBOX_KEYS } from '@videogen/sandbox';
import { figures, sandboxFor } from './measure.mjs';

const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 5);
const REQUESTS = Number(process.env.BENCH_PROXY_REQUESTS ?? 20);
const STARTS = Number(process.env.BENCH_PROXY_STARTS ?? MAX_RUNNING);
const GENERATION_SECONDS = Number(process.env.BENCH_GENERATION_SECONDS ?? 6);
const GOAL_RATIO = 1.15;
const only = (name, all) => (process.env[name] ? process.env[name].split(',') : all);
const styles = only('BENCH_STYLES', RATE_LIMITER_STYLES);
const personalities = only('BENCH_PERSONALITIES', PERSONALITIES);

/** The two tools' burst against `base`; resolves with the statuses the callers got. */
async function burst(base) {
  const send = (key, path, init = {}) =>
    fetch(base + path, { ...init, headers: { authorization: `Bearer ${key}` } }).then(
      async (r) => (await r.arrayBuffer(), r.status),
    );
  const form = () => {
    const f = new FormData();
    f.set('video_setting_id', FIXTURES.acme.settings.text);
    f.set('text', 'pacing proxy bench');
    return f;
  };
  return Promise.all([
    ...Array.from({ length: REQUESTS }, (_, i) => send(SANDBOX_KEYS.acme, i % 2 ? '/videos/' : '/video-settings/')),
    ...Array.from({ length: STARTS }, () =>
      send(SANDBOX_KEYS.acme, '/videos/generate/', { method: 'POST', body: form() }),
    ),
    ...Array.from({ length: REQUESTS }, () => send(SANDBOX_KEYS.globex, '/videos/')),
  ]);
}

const rows = [];
let missed = 0;
for (const personality of personalities) {
  for (const style of styles) {
    for (const via of personality === 'default' ? ['direct', 'proxy'] : ['proxy']) {
      const { sb, answers } = await sandboxFor({
        style,
        personality,
        timeScale: TIME_SCALE,
        generationSeconds: GENERATION_SECONDS,
      });
      let statuses;
      let proxyStats;
      try {
        if (via === 'direct') statuses = await burst(sb.baseUrl);
        else {
          const proxy = await startPacingProxy({
            target: sb.baseUrl,
            ...(personality !== 'default' && { timeScale: TIME_SCALE }),
          });
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
      const f = figures(answers, TIME_SCALE);
      const ratio = f.floor ? f.wall / f.floor : NaN;
      const callerRefusals = statuses.filter((s) => s === 429 || s === 503).length;
      const ok =
        via === 'direct' ||
        ((stats['429'] ?? 0) === 0 && (stats['503'] ?? 0) === 0 && callerRefusals === 0 && ratio <= GOAL_RATIO);
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

console.log(
  `\nPacing proxy bench: time scale ${TIME_SCALE}, per style ${REQUESTS} class-B reads from each of two accounts and ${STARTS} generations (${GENERATION_SECONDS} service s each), all at once; goal through the proxy: 0 × 429, 0 × 503, wall ≤ ${GOAL_RATIO} × floor`,
);
console.table(rows);
if (missed) {
  console.log(`${missed} proxy runs missed the goal.`);
  process.exitCode = 1;
}
