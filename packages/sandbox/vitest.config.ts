import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    // Files share their workers (vitest.shared.ts).
    ...SHARED_WORKERS,
    include: ['test/**/*.test.ts'],
    // Every file starts its own real servers (free ports), and mostly waits on them.
    maxWorkers: FILES_AT_ONCE,
    // Above the tests' own deadlines (WAIT_MS, 60 s, in test/helpers.ts), so that a miss fails with the
    // test's message; hooks start servers and processes, as slow as tests on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
