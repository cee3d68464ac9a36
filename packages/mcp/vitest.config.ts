import { defineConfig } from 'vitest/config';
import { TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // Each file starts its own sandbox (and the stdio test its own server processes): one file at a time
    // on the machine's two cores.
    fileParallelism: false,
    // Hang guards only: no test here measures a duration.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
