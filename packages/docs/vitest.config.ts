import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // Each file launches its own browser or sample processes against its own sandbox; two at a time on
    // the machine's two cores (a browser rendering Redoc is work, not waiting).
    maxWorkers: FILES_AT_ONCE,
    pool: 'forks',
    // Hang guards, far above what a loaded machine needs: no test here asserts a duration.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // expect.poll waits 1 s by default: a busy machine may need longer for Redoc to render after a click.
    expect: { poll: { timeout: 60_000, interval: 100 } },
  },
});
