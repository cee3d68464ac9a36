import { defineConfig } from 'vitest/config';
import { TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
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
