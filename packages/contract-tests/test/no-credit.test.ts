// @module-tag full/runs
// The no-credit profile: only requests the interface says are refused before any work, and a guard that
// stops every further generation or conversion at the first one the target accepts (at most 1 credit).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { failures, runAgainstProxy, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';
import { pathOf } from './breaking-proxy.ts';

const creates = (e: { operationId?: string; method: string }) =>
  e.method === 'POST' && ['generateVideo', 'createConversion'].includes(e.operationId ?? '');

// Each test has its own sandbox, and mostly waits: side by side.
describe.concurrent('profile no-credit', () => {
  it('against the sandbox: the refusals are judged, nothing is created, no credit spent', async () => {
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, { profile: 'no-credit' });
    try {
      const { run, results, selection } = await runSuite(sandbox.config);
      expect(failures(results)).toEqual([]);
      expect(run.creditsSpent).toBe(0);
      expect(run.exchanges.filter(creates).length).toBeGreaterThan(20);
      expect(selection.creditCap).toBe(1);
      // Only what needs credits skips.
      expect(
        results
          .filter((r) => r.state === 'skipped' && !/only in the full profile/.test(r.message ?? ''))
          .map((r) => `${checkId(r)}: ${r.message}`),
      ).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('a target that accepts a form it must refuse: that check fails, the guard sends no further generation or conversion', async () => {
    const { run, results } = await (async () => {
      let accepted = false;
      return runAgainstProxy(
        () => ({
          request: (req) => {
            // The first generation form whose setting the sandbox does not know: "accepted".
            if (accepted || req.method !== 'POST' || pathOf(req) !== '/v1/videos/generate/') return undefined;
            const setting = /name="video_setting_id"\r\n\r\n([^\r]+)/.exec(req.body.toString('latin1'))?.[1] ?? '';
            if (setting.startsWith('5e77')) return undefined;
            accepted = true;
            return {
              status: 200,
              headers: { 'content-type': 'application/json' },
              text: JSON.stringify({ video_id: randomUUID() }),
            };
          },
        }),
        undefined,
        {},
        'no-credit',
      );
    })();
    expect(run.creditsSpent).toBe(1);
    const byId = new Map(results.map((r) => [checkId(r), r]));
    // The first one sent (a form without video_setting_id) was "accepted": its check fails on that answer.
    expect(byId.get('generateVideo › negative_data_rejection_schema')).toMatchObject({ state: 'failed' });
    expect(failures(results).map((f) => f.slice(0, f.indexOf(':')))).toEqual([
      'generateVideo › negative_data_rejection_schema',
    ]);
    // After the accepted one, no request with the key to generate or convert went out.
    const accepted = run.exchanges.findIndex((e) => creates(e) && e.status < 300);
    expect(run.exchanges.slice(accepted + 1).filter((e) => creates(e) && e.auth === 'key of main')).toEqual([]);
    const guarded = results.filter(
      (r) => r.state === 'skipped' && /no-credit profile: the target accepted/.test(r.message ?? ''),
    );
    expect(guarded.length).toBeGreaterThan(5);
  });
});
