import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    // Files share their workers (vitest.shared.ts).
    ...SHARED_WORKERS,
    include: ['test/**/*.test.ts'],
    // Each file starts its own sandbox and spawns the CLI, and mostly waits on them.
    maxWorkers: FILES_AT_ONCE,
    // Hang guards, above helpers.ts's 480 s per run: no test here asserts a duration.
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
