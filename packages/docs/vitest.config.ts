import { defineConfig } from 'vitest/config';
import { SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    // One file at a time: a browser rendering Redoc is work, not waiting (two files side by side took
    // 195 s in npm test where one after the other took 158 s).
    fileParallelism: false,
    pool: 'forks',
    // The browser files share one Chromium, launched when the first asks (test/shared-browser.ts).
    globalSetup: ['test/shared-browser.ts'],
    // Files share their worker (vitest.shared.ts): vitest, the sandbox, the spec and playwright-core load once.
    ...SHARED_WORKERS,
    // Hang guards, far above what a loaded machine needs: no test here asserts a duration.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // expect.poll waits 1 s by default: a busy machine may need longer for Redoc to render after a click.
    expect: { poll: { timeout: 60_000, interval: 100 } },
  },
});
