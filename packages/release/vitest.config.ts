import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Packs the published packages and installs them in fresh projects, once, for every test file.
    globalSetup: ['test/global-setup.ts'],
    // One heavy thing at a time (sandboxes, the contract suite, a nested vitest): the machine is shared.
    fileParallelism: false,
    pool: 'forks',
    // Hang guards only, far above what a loaded machine needs; no test asserts a duration.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 60_000 } },
  },
});
