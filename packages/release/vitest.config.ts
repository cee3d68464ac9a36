import { defineConfig } from 'vitest/config';
import { SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // Packs the published packages and installs them in fresh projects, once, for every test file.
    globalSetup: ['test/global-setup.ts'],
    // Three files side by side: most of their time is spent waiting on the child processes they start
    // (npx in a fresh project, a sandbox, the packed suite), not on the CPU. Each file uses its own
    // fresh projects or ports, never another file's.
    fileParallelism: true,
    maxWorkers: 3,
    pool: 'forks',
    // Files share their workers (vitest.shared.ts): 3 workers load vitest and the helpers once, not 12.
    ...SHARED_WORKERS,
    // Hang guards only, far above what a loaded machine needs; no test asserts a duration.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 60_000 } },
  },
});
