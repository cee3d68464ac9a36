// Vitest global setup: find or start the target once, and hand its description to the suite files.
import type { TestProject } from 'vitest/node';
import { launchTarget } from './launch.ts';
import type { TargetConfig } from './target.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contractTarget: TargetConfig;
  }
}

export default async function setup(project: TestProject) {
  const launched = await launchTarget();
  const c = launched.config;
  process.stdout.write(`contract target: ${c.kind} ${c.baseUrl} (profile ${c.profile}${c.timeScale !== 1 ? `, time scale ${c.timeScale}` : ''})\n`);
  project.provide('contractTarget', c);
  return async () => {
    await launched.close();
  };
}
