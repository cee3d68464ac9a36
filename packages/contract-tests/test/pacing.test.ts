// A read-only run paced to the target's limits gets no 429 at all, and takes about the floor the limits set.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/launch.ts';
import { Run } from '../src/run.ts';
import { allChecks } from '../src/checks/index.ts';
import { runAll } from '../src/runner.ts';

describe('pacing against the rate-limited sandbox', () => {
  it('a read-only run learns the windows from RateLimit-Policy and is never answered 429', async () => {
    // The sandbox runs 50× faster (windows of 0.2 s) but the run is not told: it must learn it.
    const sandbox = await startSandboxTarget(50, 'read-only');
    try {
      const run = new Run({ ...sandbox.config, timeScale: 1 });
      const results = await runAll(run, allChecks());
      expect(results.filter((r) => r.state === 'failed').map((r) => r.message)).toEqual([]);
      expect(run.exchanges.filter((e) => e.status === 429).map((e) => `${e.check}: ${e.path}`)).toEqual([]);
      expect(run.exchanges.some((e) => e.method === 'POST')).toBe(false);
      // The pacer did hold requests back (the limits were really in force); wall time against the floor
      // is measured by the pacing benchmark (npm run bench), not asserted here.
      expect(run.pacer.stats.waitedMs).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
