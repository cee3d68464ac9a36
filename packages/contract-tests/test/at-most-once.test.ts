// @module-tag node-versions
// @module-tag full/runs
// At most once for every POST: a generation that may have reached the target is never
// sent again blindly by the suite. After a lost answer or a 5xx other than 503 it is looked for in the
// account's list (the way the client looks: the rules' findCreated): found, it is counted as spent and
// reported not sent again; absent after a 5xx (the gateway never passed it on), it is sent again. The
// counts are the sandbox's own: its list of the account's videos before and after the run.
import { SANDBOX_KEYS } from '@videogen/sandbox';
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { startBreakingProxy } from './breaking-proxy.ts';
import { spoilFirstGenerate } from './breaks.ts';
import { runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

async function runSpoiled(how: Parameters<typeof spoilFirstGenerate>[0]) {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
  const trick = spoilFirstGenerate(how);
  const proxy = await startBreakingProxy(sandbox.handle.origin, trick.brk);
  /** The sandbox's own count of the account's videos, read from it directly (not through the proxy). */
  const videos = async () => {
    // Its rate limit still holds after the run: wait out a 429 as its Retry-After says, up to a deadline.
    for (const deadline = Date.now() + 30_000; ; ) {
      const res = await fetch(`${sandbox.handle.baseUrl}/videos/`, {
        headers: { authorization: `Bearer ${SANDBOX_KEYS.acme}` },
      });
      if (res.status === 429 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      expect(res.status).toBe(200);
      return ((await res.json()) as { total_count: number }).total_count;
    }
  };
  try {
    const before = await videos();
    const { run, results } = await runSuite(
      { ...sandbox.config, baseUrl: proxy.baseUrl },
      { operations: ['generateVideo'] },
    );
    const spoiled = trick.spoiled();
    expect(spoiled, 'the break spoiled a generation').toBeDefined();
    // The sandbox holds one video per create it accepted: every one went through the break and was counted.
    const creates = [...trick.accepted.values()].reduce((a, b) => a + b, 0);
    expect((await videos()) - before).toBe(creates);
    const failed = results.filter((r) => r.state === 'failed').map((r) => r.message ?? '');
    return { run, spoiled: spoiled!, sent: trick.sent, failed };
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

const accepted2xx = (run: Awaited<ReturnType<typeof runSpoiled>>['run']) =>
  run.exchanges.filter((e) => e.method === 'POST' && e.status >= 200 && e.status < 300).length;

// Each test has its own sandbox, and mostly waits: side by side.
describe.concurrent('at most once for every POST', () => {
  it('a connection dropped after a generation reached the target: no second generation, the video found and counted', async () => {
    const { run, spoiled, sent, failed } = await runSpoiled('drop-after-work');
    expect(sent.get(spoiled.signature)).toBe(1);
    expect(run.created).toContain(spoiled.video_id);
    expect(run.creditsSpent).toBe(accepted2xx(run) + 1);
    // The check that sent it fails, saying why: not sent again, and what the look found.
    expect(failed.some((m) => /not sent again.*\(\w{8}-[\w-]+\) was found in the list/.test(m))).toBe(true);
  });

  it('a 502 after the target made the video: not sent again; the 502 is judged, the video found and counted', async () => {
    const { run, spoiled, sent } = await runSpoiled('502-after-work');
    expect(sent.get(spoiled.signature)).toBe(1);
    expect(run.created).toContain(spoiled.video_id);
    const answered = run.exchanges.find((e) => e.operationId === 'generateVideo' && e.status === 502);
    expect(answered?.notResent).toMatch(/was found in the list/);
    expect(run.creditsSpent).toBe(accepted2xx(run) + 1);
  });

  it('a 502 from a gateway that never passed the generation on: the list shows none, so it is sent again, once', async () => {
    const { run, spoiled, sent } = await runSpoiled('502-before-work');
    expect(sent.get(spoiled.signature)).toBe(2);
    expect(run.transients).toContainEqual(
      expect.objectContaining({ status: 502, action: 'retried', detail: 'no video was made: sent again' }),
    );
    expect(run.creditsSpent).toBe(accepted2xx(run));
    // The request sent again got the sandbox's own answer, recorded and judged like any other.
    expect(run.exchanges.some((e) => e.transients === 1 && e.operationId === 'generateVideo')).toBe(true);
  });
});
