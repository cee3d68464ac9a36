// @module-tag full/runs
// Interface 7.1: a 5xx is retried (up to 3 times, with backoff) before anything is judged. A target that
// answers one GET in ten with a 502 gives the same verdicts and the same skips as the same target without
// it, and every 502 met is reported apart, with its request. A list that keeps failing blocks the fixtures
// discovery was looking for: the checks that need them fail naming it, they never skip on an error.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { startBreakingProxy, pathOf, type Break } from './breaking-proxy.ts';
import { failures, runAgainstProxy, runSuite, SELF_TEST_TIME_SCALE, verdicts } from './harness.ts';

const badGateway = {
  status: 502,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify({ error_code: 'BAD_GATEWAY', error: 'The upstream did not answer in time.' }),
};

/** Every tenth GET answered 502 by the "gateway", before it reaches the sandbox. */
function oneGetInTen(): Break {
  let gets = 0;
  return { request: (req) => (req.method === 'GET' && ++gets % 10 === 0 ? badGateway : undefined) };
}

// Each test has its own sandboxes, and mostly waits: side by side.
describe.concurrent('transient 5xx (interface 7.1)', () => {
  it('1 GET in 10 answered 502: the same verdicts and skips as without, each 502 reported with its request', async () => {
    const sound = await runAgainstProxy(() => ({}));
    const flaky = await runAgainstProxy(oneGetInTen);
    expect(failures(flaky.results)).toEqual([]);
    expect(verdicts(flaky.results)).toEqual(verdicts(sound.results));
    // The 502s were met, retried, and reported; none reached a judgement.
    expect(flaky.run.transients.length).toBeGreaterThan(5);
    for (const t of flaky.run.transients)
      expect(t).toMatchObject({ status: 502, errorCode: 'BAD_GATEWAY', action: 'retried', attempt: 1 });
    expect(flaky.run.transients.every((t) => /^GET \/\S+ \(/.test(t.request) && t.curl?.startsWith('curl '))).toBe(
      true,
    );
    expect(flaky.run.exchanges.some((e) => e.status === 502)).toBe(false);
    expect(flaky.run.creditsSpent).toBe(sound.run.creditsSpent);
  });

  it('a list that keeps answering 502: the checks needing a discovered video fail naming it, none skips on it', async () => {
    const sandbox = await startSandboxTarget(
      SELF_TEST_TIME_SCALE,
      {},
      { accounts: [{ name: 'fresh', plan: 'business', keys: ['contract-fresh-key'], seedVideos: false }] },
    );
    const proxy = await startBreakingProxy(sandbox.handle.origin, {
      request: (req) => (req.method === 'GET' && pathOf(req) === '/v1/videos/' ? badGateway : undefined),
    });
    try {
      // A QA engineer's account on someone else's service: one key, nothing configured.
      const { results, run } = await runSuite({
        ...sandbox.config,
        kind: 'external',
        strict: false,
        baseUrl: proxy.baseUrl,
        apiKey: 'contract-fresh-key',
        otherAccountKey: undefined,
        freePlanKey: undefined,
        noCreditKey: undefined,
        fixtures: {},
        profile: 'read-only',
      });
      const byId = new Map(results.map((r) => [checkId(r), r]));
      for (const id of [
        'getVideo › status_view_completed',
        'getVideo › status_view_failed',
        'getVideo › status_view_expired',
        'getConversionOptions › options_convertible',
      ]) {
        expect(byId.get(id)).toMatchObject({ state: 'failed' });
        expect(byId.get(id)!.message).toMatch(/answered 502 \(after the retries of 7\.1\)/);
      }
      expect(
        results.filter((r) => r.state === 'skipped' && /502|among the/.test(r.message ?? '')).map(checkId),
      ).toEqual([]);
      expect(byId.get('listVideos › not_a_server_error')).toMatchObject({ state: 'failed' });
      // Each failing list read was tried 4 times (3 retries), each transient reported.
      expect(run.transients.filter((t) => t.request.startsWith('GET /videos/ ')).map((t) => t.attempt)).toContain(3);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });
});
