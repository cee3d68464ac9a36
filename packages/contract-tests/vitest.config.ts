// The package's own tests (the self-test): unit tests, the breaks, and end-to-end CLI runs.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The breaks run concurrently inside one file; files run one at a time (2 shared cores).
    fileParallelism: false,
    maxConcurrency: 4,
  },
});
