import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Hang guards, far above what a loaded machine needs (vitest's default is 5 s; the spec-diff and
    // restated-facts tests run git and read every source file): no test here asserts a duration.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
