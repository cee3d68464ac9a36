// @module-tag node-versions
// A read-only run paced to the target's limits gets no 429 at all.
import { RATE_LIMITS } from '@videogen/openapi/rules';
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { pacerFor } from '../src/engine/run.ts';
import { runSuite } from './harness.ts';

const spacing = (c: 'A' | 'B') => RATE_LIMITS[c].windowMs / RATE_LIMITS[c].requests;

describe('pacing against the rate-limited sandbox', () => {
  it('a read-only run learns the windows from RateLimit-Policy and is never answered 429', async () => {
    // The sandbox runs 50× faster (windows of 0.2 s) but the run is not told: it must learn it, as a run
    // against a URL without --time-scale does (pacerFor's 'learn'). A pacer told 1 would space every
    // request by the interface's real-time interval once a learned window lapsed (a minute here).
    const sandbox = await startSandboxTarget(50, { profile: 'read-only' });
    try {
      const config = { ...sandbox.config, timeScale: 1, paceFromTarget: true };
      const { run, results } = await runSuite(config, { pacer: pacerFor(config, 'learn') });
      expect(results.filter((r) => r.state === 'failed').map((r) => r.message)).toEqual([]);
      expect([...run.exchanges, ...run.transients].filter((e) => e.status === 429)).toEqual([]);
      expect(run.exchanges.some((e) => e.method === 'POST')).toBe(false);
      // The pacer did hold requests back (the limits were really in force); wall time against the floor
      // is measured by the pacing benchmark (npm run bench), not asserted here.
      expect(run.pacer.stats.waitedMs).toBeGreaterThan(0);
      // It learned the target's pace: an account it never sent for is spaced at it too, for both classes.
      expect(run.pacer.intervalOf('A', 'unseen')).toBeLessThan(spacing('A') / 25);
      expect(run.pacer.intervalOf('B', 'unseen')).toBeLessThan(spacing('B') / 25);
    } finally {
      await sandbox.close();
    }
  });
});
