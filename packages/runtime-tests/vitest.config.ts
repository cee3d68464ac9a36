import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Packs and installs the client once, and installs the pinned runtimes, for every test file.
    globalSetup: ['test/global-setup.ts'],
    // Hang guards only (above run.ts's 480 s): no test here asserts a duration.
    testTimeout: 540_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
