// What the replica tests (replicas.test.ts, faults.test.ts, suite-runs.test.ts) and the replica benchmark (packages/pacing-bench/replicas.mjs)
// share: a real redis-server on a free port, a sandbox, and N replicas as real child processes
// (replica.mjs), each with its own client, one account.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIXTURES, SANDBOX_KEYS } from '@videogen/sandbox';
import { sandboxFor } from '../../pacing-bench/measure.mjs';
import { freePort, startRedis } from '../../pacer-redis/test/redis-server.mjs';

export { freePort, startRedis };

const REPLICA = fileURLToPath(new URL('./replica.mjs', import.meta.url));

/**
 * A sandbox on a free port whose every /v1 answer is logged with when it arrived and ended (sandbox
 * side, as packages/pacing-bench measures): `sb.answers`. Statuses are counted by sb.stats().
 */
export async function sandbox({ generationSeconds = 6, ...options }) {
  const { sb, answers } = await sandboxFor({ generationSeconds, ...options });
  return Object.assign(sb, { answers });
}

/**
 * N replicas at once against `sb`, shared through `redisUrl` or alone (mode 'alone'). `onLine(i, line, child)`
 * sees each replica's stderr line (e.g. "started <id>"). Resolves with each replica's JSON report, or
 * `{ exit, signal }` for one that ended without one (killed). A replica still running at `deadlineMs` is killed.
 */
export async function runReplicas({
  sb,
  n,
  redisUrl,
  mode = 'shared',
  timeScale,
  scaledClock = false,
  work = {},
  onLine,
  deadlineMs = 150_000,
}) {
  const children = [];
  for (let i = 0; i < n; i++) {
    const env = {
      ...process.env,
      REPLICA_BASE_URL: sb.baseUrl,
      REPLICA_KEY: SANDBOX_KEYS.acme,
      REPLICA_SETTING: FIXTURES.acme.settings.text,
      REPLICA_VIDEO: FIXTURES.acme.videos.convertible,
      REPLICA_MODE: mode,
      REPLICA_TIME_SCALE: String(timeScale),
      REPLICA_SCALED_CLOCK: scaledClock ? '1' : '0',
      REPLICA_LISTS: String(work.lists ?? 2),
      REPLICA_READS: String(work.reads ?? 2),
      REPLICA_STARTS: String(work.starts ?? 1),
      ...(redisUrl ? { VIDEO_API_PACING_URL: redisUrl } : {}),
    };
    const child = spawn(process.execPath, [REPLICA], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(
      new Promise((resolve) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => {
          err += d;
          for (const line of String(d).split('\n')) if (line) onLine?.(i, line, child);
        });
        child.on('close', (exit, signal) => {
          clearTimeout(timer);
          const line = out.trim().split('\n').pop();
          try {
            resolve({ ...JSON.parse(line), exit });
          } catch {
            resolve({ exit, signal, stderr: err.slice(-2000), calls: 0, failures: [] });
          }
        });
      }),
    );
  }
  return Promise.all(children);
}

/**
 * The most videos that certainly ran at once, from the sandbox's log: a generation the sandbox
 * accepted was created between its request's arrival and its answer, and runs the generation time
 * (service seconds / time scale) from then; so it certainly ran from its answer to its arrival plus
 * that time. More than MAX_RUNNING such spans at once is a breach no timing error can explain.
 */
export function peakRunning(sb, generationSeconds, timeScale) {
  const run = (generationSeconds * 1000) / timeScale;
  const spans = sb.answers
    .filter((a) => a.method === 'POST' && a.path === '/v1/videos/generate/' && a.status >= 200 && a.status < 300)
    .map((a) => [a.end, a.start + run]);
  const edges = spans.flatMap(([a, b]) => [
    [a, 1],
    [b, -1],
  ]);
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return { peak, videos: spans.length };
}
