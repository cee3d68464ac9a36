import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    // Files share their workers (vitest.shared.ts).
    ...SHARED_WORKERS,
    include: ['test/**/*.test.ts'],
    // Each file starts its own sandbox (and the stdio test its own server processes), and mostly waits.
    maxWorkers: FILES_AT_ONCE,
    // Hang guards only: no test here measures a duration.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
