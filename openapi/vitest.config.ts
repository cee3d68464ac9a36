import { defineConfig } from 'vitest/config';
import { SHARED_WORKERS, TAGS } from '../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    // Files share their workers (vitest.shared.ts).
    ...SHARED_WORKERS,
    // Hang guards, far above what a loaded machine needs (vitest's default is 5 s; the spec-diff and
    // restated-facts tests run git and read every source file): no test here asserts a duration.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
