// Real redis-server processes, a sandbox and replicas as real child processes. Files side by side: each has its
// own redis-server and sandboxes (its own accounts), and mostly waits on the rate limits' real time windows.
// The timeouts end a hang, they measure nothing.
import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    maxWorkers: FILES_AT_ONCE,
  },
});
