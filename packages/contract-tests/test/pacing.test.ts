// @module-tag node-versions
// A read-only run paced to the target's limits gets no 429 at all.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { runSuite } from './harness.ts';

describe('pacing against the rate-limited sandbox', () => {
  it('a read-only run learns the windows from RateLimit-Policy and is never answered 429', async () => {
    // The sandbox runs 50× faster (windows of 0.2 s) but the run is not told: it must learn it.
    const sandbox = await startSandboxTarget(50, { profile: 'read-only' });
    try {
      const { run, results } = await runSuite({ ...sandbox.config, timeScale: 1 });
      expect(results.filter((r) => r.state === 'failed').map((r) => r.message)).toEqual([]);
      expect([...run.exchanges, ...run.transients].filter((e) => e.status === 429)).toEqual([]);
      expect(run.exchanges.some((e) => e.method === 'POST')).toBe(false);
      // The pacer did hold requests back (the limits were really in force); wall time against the floor
      // is measured by the pacing benchmark (npm run bench), not asserted here.
      expect(run.pacer.stats.waitedMs).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
