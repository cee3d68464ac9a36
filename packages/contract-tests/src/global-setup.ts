// Vitest global setup: find or start the target once, and hand its description to the suite files.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { runStatsFile } from './run-stats.ts';
import { launchTarget } from './launch.ts';
import type { TargetConfig } from './target.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contractTarget: TargetConfig;
  }
}

export default async function setup(project: TestProject) {
  // Bundles of an earlier run would read as failures of this one.
  rmSync(process.env.CONTRACT_FAILURES_DIR ?? 'test-results/failures', { recursive: true, force: true });
  const driftDir = process.env.CONTRACT_DRIFT_DIR ?? 'test-results';
  for (const f of ['drift.md', 'drift.json']) rmSync(`${driftDir}/${f}`, { force: true });
  rmSync(runStatsFile(), { force: true });
  const launched = await launchTarget();
  const c = launched.config;
  process.stdout.write(`contract target: ${c.kind} ${c.baseUrl} (profile ${c.profile}${c.timeScale !== 1 ? `, time scale ${c.timeScale}` : ''})\n`);
  project.provide('contractTarget', c);
  return async () => {
    await launched.close();
  };
}
