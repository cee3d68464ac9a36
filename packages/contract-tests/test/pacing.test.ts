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
      const started = Date.now();
      const results = await runAll(run, allChecks());
      const ms = Date.now() - started;
      expect(results.filter((r) => r.state === 'failed').map((r) => r.message)).toEqual([]);
      expect(run.exchanges.filter((e) => e.status === 429).map((e) => `${e.check}: ${e.path}`)).toEqual([]);
      expect(run.exchanges.some((e) => e.method === 'POST')).toBe(false);
      // Floor: class B allows 5 per 0.2 s for the main account; other buckets run alongside.
      const mainB = run.exchanges.filter((e) => e.auth === 'key of main' && e.operationId !== 'generateVideo' && e.operationId !== 'createConversion').length;
      const floor = (Math.ceil(mainB / 5) - 1) * 200;
      expect(ms).toBeLessThan(floor * 1.5 + 2000);
      // And the pacer did hold requests back (the limits were really in force).
      expect(run.pacer.waitedMs).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
