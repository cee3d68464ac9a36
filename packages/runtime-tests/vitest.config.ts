import { defineConfig } from 'vitest/config';
import { SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // Packs and installs the client once, and installs the pinned runtimes, for every test file.
    globalSetup: ['test/global-setup.ts'],
    // Hang guards only (above run.ts's 480 s): no test here asserts a duration.
    testTimeout: 540_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Files share their workers (vitest.shared.ts): one worker loads vitest, the sandbox and the spec once.
    ...SHARED_WORKERS,
  },
});
