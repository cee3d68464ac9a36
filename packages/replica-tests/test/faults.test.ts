// @module-tag full/replicas
// The faults: a replica killed (kill -9) while it holds a running slot, and Redis
// killed and restarted while replicas work. Real processes, a real redis-server; waits are deadlines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING } from '@videogen/openapi/rules';
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

describe('faults', () => {
  it('kill -9 of a replica holding a running slot: the others go on, and one of them frees its slot', async () => {
    const sb = await sandbox({
      style: 'even',
      personality: 'default',
      timeScale: TIME_SCALE,
      generationSeconds: GENERATION_SECONDS,
    });
    try {
      let killed: { pid?: number; video: string } | undefined;
      const reports = await runReplicas({
        sb,
        n: 4,
        redisUrl: redis.url,
        timeScale: TIME_SCALE,
        // More starts than slots: the others need the dead replica's slot back to finish.
        work: { lists: 1, reads: 1, starts: 2 },
        onLine: (_i: number, line: string, child: any) => {
          const m = /^started (\S+)/.exec(line);
          if (m && !killed) {
            killed = { pid: child.pid, video: m[1] };
            child.kill('SIGKILL');
          }
        },
      });
      expect(killed).toBeDefined();
      const dead = reports.find((r: any) => r.signal === 'SIGKILL');
      expect(dead).toBeDefined();
      const survivors = reports.filter((r: any) => r !== dead);
      expect(survivors).toHaveLength(3);
      expect(survivors.every((r: any) => r.exit === 0)).toBe(true);
      expect(survivors.flatMap((r: any) => r.failures)).toEqual([]);
      // Nobody polls the dead replica's video but the pacers of the others, when the account looks full.
      expect(sb.answers.some((a: any) => a.method === 'GET' && a.path === `/v1/videos/${killed!.video}/`)).toBe(true);
      expect(sb.stats()['429'] ?? 0).toBe(0);
      expect(sb.stats()['503'] ?? 0).toBe(0);
      expect(peakRunning(sb, GENERATION_SECONDS, TIME_SCALE).peak).toBeLessThanOrEqual(MAX_RUNNING);
    } finally {
      await sb.close();
    }
  });

  it('Redis killed and restarted mid-run: no failed call, no hang, the schedule shared again', async () => {
    const sb = await sandbox({
      style: 'even',
      personality: 'default',
      timeScale: TIME_SCALE,
      generationSeconds: GENERATION_SECONDS,
    });
    try {
      let firstStart = false;
      let restarted!: Promise<void>;
      const reports = await runReplicas({
        sb,
        n: 4,
        redisUrl: redis.url,
        timeScale: TIME_SCALE,
        work: { lists: 4, reads: 4, starts: 2 },
        onLine: (_i: number, line: string) => {
          if (firstStart || !line.startsWith('started ')) return;
          firstStart = true;
          restarted = (async () => {
            await redis.kill();
            await new Promise((r) => setTimeout(r, 1000));
            await redis.restart();
          })();
        },
      });
      await restarted;
      expect(firstStart).toBe(true);
      expect(reports.every((r: any) => r.exit === 0)).toBe(true);
      expect(reports.flatMap((r: any) => r.failures)).toEqual([]);
      // Each replica said once that it paced alone, and once that it shares again.
      const logs = reports.flatMap((r: any) => r.log);
      console.log(`Redis restart: ${JSON.stringify(sb.stats())}; ${logs.length} log lines`);
      expect(logs.some((l: string) => /^shared pacing: .* did not answer/.test(l))).toBe(true);
      expect(logs.some((l: string) => /^shared pacing: .* is back/.test(l))).toBe(true);
      expect(peakRunning(sb, GENERATION_SECONDS, TIME_SCALE).peak).toBeLessThanOrEqual(MAX_RUNNING);
    } finally {
      await sb.close();
    }
  });
});
