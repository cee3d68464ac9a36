// @module-tag full/replicas
// Two contract suite runs at once against one account, sharing the schedule through
// VIDEO_API_PACING_URL, meet 0 × 429 (each paced alone, they overrun it together).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '@videogen/sandbox';
import { sandbox, startRedis } from './harness.mjs';

const TIME_SCALE = 20;
const bin = join(
  dirname(createRequire(import.meta.url).resolve('@videogen/contract-tests/package.json')),
  'dist/cli.js',
);
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function suiteRun(baseUrl: string, dir: string, pacingUrl?: string): Promise<{ code: number | null; out: string }> {
  const F = FIXTURES.acme;
  const env: Record<string, string | undefined> = {
    ...process.env,
    VIDEO_API_BASE_URL: baseUrl,
    VIDEO_API_KEY: SANDBOX_KEYS.acme,
    CONTRACT_TARGET_KIND: 'sandbox',
    CONTRACT_PROFILE: 'read-only',
    CONTRACT_TIME_SCALE: String(TIME_SCALE),
    CONTRACT_VIDEO_SETTING_ID: F.settings.text,
    CONTRACT_COMPLETED_VIDEO_ID: F.videos.convertible,
    CONTRACT_FAILED_VIDEO_ID: F.videos.failed,
    CONTRACT_EXPIRED_VIDEO_ID: F.videos.expired,
    CONTRACT_CONVERTIBLE_VIDEO_ID: F.videos.convertible,
    CONTRACT_NOT_CONVERTIBLE_VIDEO_ID: F.videos.notConvertible,
    CONTRACT_JUNIT_FILE: join(dir, 'junit.xml'),
    CONTRACT_SUMMARY_FILE: join(dir, 'summary.txt'),
    CONTRACT_DRIFT_FILE: join(dir, 'drift.md'),
    CONTRACT_FAILURES_DIR: join(dir, 'failures'),
    CONTRACT_FIXTURES_FILE: join(dir, 'fixtures.json'),
    VIDEO_API_PACING_URL: pacingUrl,
  };
  if (!pacingUrl) delete env.VIDEO_API_PACING_URL;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

it('two read-only suite runs at once against one account, sharing the schedule: 0 × 429, both pass', async () => {
  const sb = await sandbox({ style: 'even', personality: 'default', timeScale: TIME_SCALE });
  const tmp = join(process.env.TMPDIR ?? '/tmp', `vg-suite-runs-${process.pid}`);
  try {
    const runs = await Promise.all([
      suiteRun(sb.baseUrl, `${tmp}/a`, redis.url),
      suiteRun(sb.baseUrl, `${tmp}/b`, redis.url),
    ]);
    for (const r of runs) expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(sb.stats()['429'] ?? 0).toBe(0);
  } finally {
    await sb.close();
  }
});
