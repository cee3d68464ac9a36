// Real processes (relays, redis-server, a receiver, a sandbox): files one at a time on 2 shared cores; the
// timeouts end a hang, they measure nothing.
import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    // Files share their workers (vitest.shared.ts).
    ...SHARED_WORKERS,
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Each file starts its own sandbox and relay (free ports), and mostly waits on them.
    maxWorkers: FILES_AT_ONCE,
  },
});
