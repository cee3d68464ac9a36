import { defineConfig } from 'vitest/config';
import { FILES_AT_ONCE, SHARED_WORKERS, TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    // Files share their workers (vitest.shared.ts).
    ...SHARED_WORKERS,
    include: ['test/**/*.test.ts'],
    // Deadlines that only end a hang, never a measure of speed: the machines are shared and loaded (CI
    // runs the legs side by side on 2 cores). The hooks start sandboxes and pack tarballs: the same.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Each file starts its own sandbox or servers, and mostly waits on them.
    maxWorkers: FILES_AT_ONCE,
  },
});
