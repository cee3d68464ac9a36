import { defineConfig } from 'vitest/config';
import { SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // Installs the pinned tools and runtimes once, for every test file.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Files share their workers (vitest.shared.ts): one worker loads vitest, the sandbox and the spec once.
    ...SHARED_WORKERS,
  },
});
