import { afterAll } from 'vitest';
import { groups } from '../src/checks/index.ts';
import { currentRun, defineChecks } from '../src/suite.ts';

defineChecks(groups.conformance);

afterAll(() => {
  const run = currentRun();
  const waited = run.exchanges.filter((e) => e.retried).length;
  // Pacing figures: how much the limits cost, and whether anything had to be waited out.
  console.log(`run: ${run.exchanges.length} requests, ${waited} answered 429/503 and waited out, ${(run.pacer.stats.waitedMs / 1000).toFixed(1)} s held back by the pacer`);
});
