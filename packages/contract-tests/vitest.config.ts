// The package's own tests (the self-test): unit tests, the breaks, and end-to-end CLI runs.
import { defineConfig } from 'vitest/config';
import { SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // A worker keeps the modules it loaded (the spec, Ajv's compiled schemas, Fastify, the sandbox) from one file to the next.
    ...SHARED_WORKERS,
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The breaks run concurrently inside one file; files run one at a time (2 shared cores).
    fileParallelism: false,
    maxConcurrency: 4,
  },
});
