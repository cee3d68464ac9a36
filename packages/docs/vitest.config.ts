import { defineConfig } from 'vitest/config';
import { TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // One file at a time: a browser rendering Redoc is work, not waiting (two files side by side took
    // 195 s in npm test where one after the other took 158 s).
    fileParallelism: false,
    pool: 'forks',
    // Hang guards, far above what a loaded machine needs: no test here asserts a duration.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // expect.poll waits 1 s by default: a busy machine may need longer for Redoc to render after a click.
    expect: { poll: { timeout: 60_000, interval: 100 } },
  },
});
