// Installs the pinned outside tools (tools/) and the pinned Node runtimes (packages/runtime-tests/runtimes)
// once, and hands their paths to every test file through `inject`.
import type { TestProject } from 'vitest/node';
import { ensureRuntimes } from '@videogen/runtime-tests/scripts/runtimes.mjs';
import { ensureTools } from '../scripts/tools.mjs';

export default function setup(project: TestProject) {
  ensureTools();
  const { node22, node24 } = ensureRuntimes();
  project.provide('node', { node22, node24 });
}

declare module 'vitest' {
  export interface ProvidedContext {
    node: Record<'node22' | 'node24', string>;
  }
}
