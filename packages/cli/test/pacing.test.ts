// @module-tag full/tools
// @module-tag node-versions
// `videogen pacing`: the account's schedule shared through VIDEO_API_PACING_URL (a real redis-server on a
// free port), as another command left it: the video a `generate` started holds a running slot, seen by a
// later process. Without the variable, it says that nothing is shared; with Redis away, exit 1 naming it.
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRedis, type RedisServer } from '../../pacer-redis/test/redis-server.mjs';
import { spawn } from 'node:child_process';
import { CLI, cliEnv, errorLine, run, type RunOptions } from './helpers.js';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let redis: RedisServer;
const shared = (pacingUrl: string): RunOptions => ({
  key: SANDBOX_KEYS.acme,
  baseUrl: sandbox.baseUrl,
  env: { VIDEO_API_PACING_URL: pacingUrl },
});

beforeAll(async () => {
  redis = await startRedis();
  // Generations that outlast the test: the slot stays held.
  sandbox = await startSandbox({ port: 0, generationSeconds: 3600 });
});
afterAll(async () => {
  await sandbox?.close();
  await redis?.stop();
});

describe('videogen pacing', () => {
  it("shows the slot another command's generation holds, read from Redis by a later process", async () => {
    const g = await run(
      ['generate', '--setting', FIXTURES.acme.settings.text, '--text', 'held', '--json'],
      shared(redis.url),
    );
    expect(g.code, g.stderr).toBe(0);
    const { video_id } = JSON.parse(g.stdout);
    const answered = sandbox.stats('acme');

    const p = await run(['pacing', '--json'], shared(redis.url));
    expect(p.code, p.stderr).toBe(0);
    const schedule = JSON.parse(p.stdout);
    expect(schedule.scope).toBe('shared');
    expect(schedule.running.map((r: { videoId: string }) => r.videoId)).toEqual([video_id]);
    expect(schedule.classes.A.lastAnswerAgoMs).toBeGreaterThanOrEqual(0);

    const text = await run(['pacing'], shared(redis.url));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Shared by \d+ process/m);
    expect(text.stdout).toContain('Running slots: 1 of 2 held.');
    expect(text.stdout).toContain(video_id);
    // The command sends nothing to the service.
    expect(sandbox.stats('acme')).toEqual(answered);
  });

  it('shows who waits and for what: a third start held for a running slot, in another process that says so', async () => {
    // The first test's video holds one slot; a second start takes the other.
    const second = await run(
      ['generate', '--setting', FIXTURES.acme.settings.text, '--text', 'second', '--json'],
      shared(redis.url),
    );
    expect(second.code, second.stderr).toBe(0);
    // A third start must wait for a slot: it runs on while this test reads the schedule.
    const third = spawn(
      process.execPath,
      [CLI, 'generate', '--setting', FIXTURES.acme.settings.text, '--text', 'third'],
      {
        env: cliEnv(shared(redis.url)),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    third.stderr.on('data', (d) => (stderr += d));
    try {
      let waiting: Array<{ rateClass: string; startsVideo: boolean; reason?: string }> = [];
      // Until the third process is held for a slot (a hang guard: no duration is asserted). It may first
      // wait out class A's spacing after the second start ('spacing'), then for a slot ('full').
      const heldForSlot = () => waiting.some((w) => w.reason === 'full');
      for (let i = 0; i < 60 && !heldForSlot(); i++) {
        const p = await run(['pacing', '--json'], shared(redis.url));
        waiting = JSON.parse(p.stdout).waiting ?? [];
        if (!heldForSlot()) await new Promise((r) => setTimeout(r, 250));
      }
      expect(waiting).toContainEqual(expect.objectContaining({ rateClass: 'A', startsVideo: true, reason: 'full' }));
      const text = await run(['pacing'], shared(redis.url));
      expect(text.stdout).toMatch(/^Waiting: 1 request\.$/m);
      expect(text.stdout).toMatch(/A\s+a video start\s+one of the account's 2 running videos to finish .*ago/);
      // The held process said what it waits for, before waiting, at the default level.
      for (let i = 0; i < 40 && !/Waiting \d/.test(stderr); i++) await new Promise((r) => setTimeout(r, 250));
      expect(stderr).toMatch(
        /^Waiting [\d.]+ s before POST \/v1\/videos\/generate\/: one of the account's 2 running videos to finish/m,
      );
    } finally {
      third.kill('SIGTERM');
      await new Promise((r) => third.once('close', r));
    }
  });

  it('says so when nothing is shared, and exits 1 naming Redis when it does not answer', async () => {
    const alone = await run(['pacing'], { key: SANDBOX_KEYS.acme, baseUrl: sandbox.baseUrl });
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^Not shared: VIDEO_API_PACING_URL is unset/);

    const away = await run(['pacing'], shared(`redis://127.0.0.1:${await freePort()}/0`));
    expect(away.code).toBe(1);
    expect(errorLine(away.stderr)).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/0 did not answer/);
  });
});
