// A run against an external target that runs faster than real time (a sandbox started with --time-scale),
// without --time-scale: the suite reads the pace from the target's RateLimit-Policy in the preflight and
// spaces every class of every account at it. Asserted on the pacer's schedule (its interval for an account
// it never sent for), not on a duration: a run paced in real time against a 100× sandbox took 182 s
// where 7 s sufficed (the packed suite's read-only run).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RATE_LIMITS } from '@videogen/openapi/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { externalTarget, settingsFrom } from '../src/cli/target.ts';
import { runContract } from '../src/commands/run.ts';

let sandbox: Awaited<ReturnType<typeof startSandboxTarget>>;
beforeAll(async () => {
  sandbox = await startSandboxTarget(100);
});
afterAll(async () => {
  await sandbox?.close();
});

const spacing = (c: 'A' | 'B') => RATE_LIMITS[c].windowMs / RATE_LIMITS[c].requests;

/** Settings of a read-only run of one check against the sandbox's URL, as the command line reads them. */
function settings(kind: 'external' | 'sandbox') {
  const dir = mkdtempSync(join(tmpdir(), 'contract-pace-'));
  return settingsFrom(
    {
      'base-url': sandbox.config.baseUrl,
      'target-kind': kind,
      profile: 'read-only',
      only: ['listVideoSettings.paging_first_page'],
      junit: join(dir, 'junit.xml'),
      summary: join(dir, 'summary.txt'),
      drift: join(dir, 'drift.md'),
      failures: join(dir, 'failures'),
      html: join(dir, 'report.html'),
    },
    {},
  );
}

describe('a target at a URL faster than real time, its pace not given', () => {
  it.each(['external', 'sandbox'] as const)(
    '--target-kind %s: paced at the time scale its RateLimit-Policy states, for every class and account',
    async (kind) => {
      const s = settings(kind);
      expect(s.timeScale).toBeUndefined();
      // As the command line builds it for a URL: real time until the preflight reads otherwise.
      const config = { ...externalTarget(s, { VIDEO_API_KEY: sandbox.config.apiKey }), timeScale: 1 };
      const r = await runContract(config, s, { out: () => undefined, err: () => undefined });
      expect(r.exitCode).toBe(0);
      // Class A was never sent and 'unseen' never paced: only the learned time scale makes them fast.
      expect(r.run.pacer.intervalOf('A', 'unseen')).toBeLessThan(spacing('A') / 50);
      expect(r.run.pacer.intervalOf('B', 'unseen')).toBeLessThan(spacing('B') / 50);
      await r.run.close();
    },
  );
});
