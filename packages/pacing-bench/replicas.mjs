// npm run bench: N = 1, 2, 4, 8 replicas of an application, each its own process and
// its own createClient, one account, against a sandbox (the strictest limiter, even), each replica
// listing the settings, reading a video, generating one and waiting for it: per-process pacing (no
// Redis) against the shared schedule (VIDEO_API_PACING_URL on a redis-server started here). Printed
// per row: the 429s and 503s the sandbox answered, the calls that failed, the wall time (sandbox side)
// against the floor the limits impose on the requests admitted (measure.mjs), and their ratio. Then
// the shared pacer's overhead per call on loopback: acquire + settle through the Redis store against
// the in-memory store, in the same run. Goals: shared, 0 × 429 and 0 failed calls and wall ≤ 1.15 ×
// floor; overhead ≤ 1 ms per call. Exit 1 when a goal is missed.
//
// The replicas and Redis come from the shared pacer's tests (packages/replica-tests/test/harness.mjs).
import { performance } from 'node:perf_hooks';
import { Pacer } from '@videogen/openapi/rules';
import { createRedisPacerStore } from '@videogen/pacer-redis';
import { runReplicas, sandbox, startRedis } from '../replica-tests/test/harness.mjs';
import { figures } from './measure.mjs';

const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 10);
const GENERATION_SECONDS = Number(process.env.BENCH_GENERATION_SECONDS ?? 6);
const COUNTS = (process.env.BENCH_REPLICAS ?? '1,2,4,8').split(',').map(Number);
const WORK = {
  lists: Number(process.env.BENCH_REPLICA_LISTS ?? 4),
  reads: Number(process.env.BENCH_REPLICA_READS ?? 4),
  starts: 1,
};
const OVERHEAD_CALLS = Number(process.env.BENCH_OVERHEAD_CALLS ?? 5000);
const GOAL_RATIO = 1.15;
const GOAL_OVERHEAD_MS = 1;

const redis = await startRedis();
let missed = 0;
try {
  const rows = [];
  for (const n of COUNTS)
    for (const mode of ['per-process', 'shared']) {
      const sb = await sandbox({
        style: 'even',
        personality: 'default',
        timeScale: TIME_SCALE,
        generationSeconds: GENERATION_SECONDS,
      });
      let reports;
      try {
        reports = await runReplicas({
          sb,
          n,
          mode: mode === 'shared' ? 'shared' : 'alone',
          redisUrl: mode === 'shared' ? redis.url : undefined,
          timeScale: TIME_SCALE,
          work: WORK,
        });
      } finally {
        await sb.close();
      }
      const stats = sb.stats();
      const f = figures(sb.answers, TIME_SCALE);
      const calls = reports.reduce((s, r) => s + r.calls, 0);
      const failed = reports.reduce((s, r) => s + r.failures.length, 0) + reports.filter((r) => r.exit !== 0).length;
      const ratio = f.floor ? f.wall / f.floor : Number.NaN;
      const ok = mode !== 'shared' || ((stats['429'] ?? 0) === 0 && failed === 0 && ratio <= GOAL_RATIO);
      if (!ok) missed++;
      rows.push({
        N: n,
        pacing: mode,
        calls,
        'failed calls': failed,
        requests: f.requests,
        '429s': stats['429'] ?? 0,
        '503s': stats['503'] ?? 0,
        'wall s': (f.wall / 1000).toFixed(2),
        'floor s': (f.floor / 1000).toFixed(2),
        'wall/floor': ratio.toFixed(2),
        goal: mode === 'shared' ? (ok ? 'met' : 'MISSED') : '-',
      });
      process.stderr.write(`replicas ${JSON.stringify(rows.at(-1))}\n`);
    }

  // The shared pacer's overhead per call: acquire + settle, each account asked once per round (1000
  // accounts), so that no call waits for the limits: what remains is the store's own cost.
  const accounts = 1000;
  const perCall = async (pacer) => {
    const call = async (i) =>
      (await pacer.acquire({ rateClass: 'B', account: `bench ${i % accounts}` })).settle({ status: 200 });
    for (let i = 0; i < accounts; i++) await call(i); // warm-up: every account's keys exist
    const times = [];
    for (let i = 0; i < OVERHEAD_CALLS; i++) {
      const t = performance.now();
      await call(i);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { mean: times.reduce((s, x) => s + x, 0) / times.length, p99: times[Math.floor(times.length * 0.99)] };
  };
  const memory = await perCall(new Pacer({ timeScale: 1000 }));
  const store = createRedisPacerStore({ url: redis.url });
  const shared = await perCall(new Pacer({ timeScale: 1000, store }));
  await store.close();
  const overhead = shared.mean - memory.mean;
  if (!(overhead <= GOAL_OVERHEAD_MS)) missed++;

  console.log(
    `\nReplicas on one account: ${COUNTS.join(', ')} processes, each ${WORK.lists} settings lists, ${WORK.reads} video reads, 1 generation polled to the end; sandbox even limiter, time scale ${TIME_SCALE}. Goal for shared: 0 × 429, 0 failed calls, wall ≤ ${GOAL_RATIO} × floor`,
  );
  console.table(rows);
  console.log(
    `Shared pacer overhead per call on loopback (acquire + settle, ${OVERHEAD_CALLS} calls): in memory ${memory.mean.toFixed(3)} ms (p99 ${memory.p99.toFixed(3)}), Redis ${shared.mean.toFixed(3)} ms (p99 ${shared.p99.toFixed(3)}): +${overhead.toFixed(3)} ms per call (goal ≤ ${GOAL_OVERHEAD_MS} ms) ${overhead <= GOAL_OVERHEAD_MS ? 'met' : 'MISSED'}`,
  );
} finally {
  await redis.stop();
}
if (missed) {
  console.log(`${missed} goal(s) missed.`);
  process.exitCode = 1;
}
