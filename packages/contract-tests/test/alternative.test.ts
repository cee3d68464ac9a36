// A service that stays inside the interface but chose differently where it is silent (the sandbox's
// `alternative` personality): the suite reports no interface failure, and every difference lands in
// the drift report under the decision it differs from, and nowhere else.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/launch.ts';
import { Run } from '../src/run.ts';
import { allChecks } from '../src/checks/index.ts';
import { runAll } from '../src/runner.ts';
import { failures, SELF_TEST_TIME_SCALE } from './harness.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('against a service that chose differently (personality alternative)', () => {
  it('fails nothing, and reports each difference as drift from the decision it concerns', async () => {
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, 'full', { personality: 'alternative', rateLimiter: 'even' });
    try {
      const driftFile = join(mkdtempSync(join(tmpdir(), 'contract-alt-')), 'drift.md');
      // As a QA engineer would run it against someone else's service: an external target, not strict.
      const run = new Run({ ...sandbox.config, kind: 'external', strict: false, driftFile });
      const results = await runAll(run, allChecks());
      expect(failures(results)).toEqual([]);
      const drifted = results.filter((r) => r.state === 'drift');
      expect(drifted.length).toBeGreaterThan(0);
      const decisions = new Set(run.drift.toJSON().map((d) => d.decision));
      // 201 on creation (#2), 422 for a bad form (#5 and #8's upload errors), the page past the end (#30).
      for (const d of [2, 5, 30]) expect(decisions, `decision #${d}`).toContain(d);
      // Every drift names a decision of DECISIONS.md (x-decision) and only those.
      for (const r of drifted) expect(r.mismatches!.every((m) => m.decision.length > 0)).toBe(true);
      // The pacer met no rate limit outside the burst that provokes one, though the alternative sends no
      // RateLimit headers and limits evenly (a 429 INSUFFICIENT_CREDIT is the credit row of 7.2).
      const limited = run.exchanges.filter((e) => e.status === 429 && (e.body as any)?.error_code !== 'INSUFFICIENT_CREDIT' && !e.check.includes('rate_limit_burst'));
      expect(limited.map((e) => `${e.check}: ${e.method} ${e.path}`)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('CONTRACT_STRICT against the default personality: no drift at all (our own sandbox keeps our decisions)', async () => {
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, 'full');
    try {
      const run = new Run({ ...sandbox.config, strict: true, driftFile: join(mkdtempSync(join(tmpdir(), 'contract-def-')), 'drift.md') });
      const results = await runAll(run, allChecks());
      expect(failures(results)).toEqual([]);
      expect(results.filter((r) => r.state === 'drift').map((r) => `${r.operation} › ${r.name}: ${r.message}`)).toEqual([]);
      expect(run.drift.size).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});
