// A sandbox that has been used: its seeded failed and expired videos sit behind more than a page of
// newer ones. Discovery still finds them (it reads newest and oldest in turn, and both ends of the list),
// and a run against a URL whose key is one of the sandbox's documented keys identifies the sandbox by
// asking it (GET /_sandbox/clock) and takes its documented keys and seeded videos, instead of skipping the
// cross-account checks for want of VIDEO_API_OTHER_ACCOUNT_KEY.
import { createClient } from '@videogen/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { checkTarget } from '../src/commands/preflight.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { failures, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

let sandbox: Awaited<ReturnType<typeof startSandboxTarget>>;
/** Newer videos than the seeded ones: more than a page (50) of them. */
const NEWER = 55;

beforeAll(async () => {
  // Generations of one service second: the newer videos are made in seconds, at the limits' own pace.
  sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, { generationSeconds: 1 });
  const client = createClient({ apiKey: sandbox.sandbox.SANDBOX_KEYS.acme, baseUrl: sandbox.config.baseUrl });
  const setting = sandbox.sandbox.FIXTURES.acme.settings.text;
  for (let i = 0; i < NEWER; i++) {
    const { video_id } = await client.videos.generate({ video_setting_id: setting, text: `Newer video ${i}` });
    await client.waitForVideo(video_id);
  }
});

afterAll(async () => {
  await sandbox?.close();
});

describe('a used sandbox', () => {
  it('discovery finds the seeded failed and expired videos behind a page of newer ones (nothing configured)', async () => {
    const { results } = await runSuite(
      {
        ...sandbox.config,
        kind: 'external',
        strict: false,
        profile: 'read-only',
        otherAccountKey: undefined,
        freePlanKey: undefined,
        noCreditKey: undefined,
        fixtures: {},
      },
      { operations: ['getVideo'] },
    );
    expect(failures(results)).toEqual([]);
    const state = (name: string) => results.find((r) => checkId(r) === checkId({ operation: 'getVideo', name }));
    for (const name of ['status_view_failed', 'status_view_expired', 'status_view_completed'])
      expect(state(name)?.state, `${name}: ${state(name)?.message}`).toBe('passed');
  });

  it('a URL with a documented key: identified by asking it, its keys and seeded videos taken', async () => {
    const { SANDBOX_KEYS: keys, FIXTURES: fx } = sandbox.sandbox;
    const { config, result } = await checkTarget({
      ...sandbox.config,
      kind: 'external',
      otherAccountKey: undefined,
      freePlanKey: undefined,
      noCreditKey: undefined,
      fixtures: { completedVideoId: fx.acme.videos.limitedVoices },
    });
    expect(result.ok).toBe(true);
    expect(result.ok && result.notes.join('\n')).toMatch(
      /the target is a videogen sandbox \(GET \/_sandbox\/clock: the key is account acme's\): its documented keys stand in for VIDEO_API_OTHER_ACCOUNT_KEY, CONTRACT_FREE_PLAN_KEY, CONTRACT_NO_CREDIT_KEY/,
    );
    expect(config).toMatchObject({
      otherAccountKey: keys.globex,
      freePlanKey: keys.initech,
      noCreditKey: keys.umbrella,
    });
    // What was given wins; the rest is the seeded account's.
    expect(config.fixtures).toMatchObject({
      completedVideoId: fx.acme.videos.limitedVoices,
      failedVideoId: fx.acme.videos.failed,
      otherAccountVideoId: fx.globex.videos.convertible,
    });
  });

  it('a key that is not a documented one is never sent to /_sandbox/: nothing is assumed', async () => {
    const { config, result } = await checkTarget({
      ...sandbox.config,
      kind: 'external',
      apiKey: 'contract-not-a-sandbox-key',
      otherAccountKey: undefined,
      freePlanKey: undefined,
      noCreditKey: undefined,
      fixtures: {},
    });
    // The sandbox refuses the unknown key: the preflight stops; no identification was attempted.
    expect(result.ok).toBe(false);
    expect(config.otherAccountKey).toBeUndefined();
    expect(result.requests).toBe(1);
  });
});
