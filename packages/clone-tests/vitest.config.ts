// A fresh clone, installed offline, and the documented commands walked there (one clone per run, shared
// by the files of this package): files one at a time on 2 shared cores. The timeouts end a hang; they
// measure nothing.
import { defineConfig } from 'vitest/config';
import { TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    // The lanes' tags (vitest.shared.ts): the fast lane at the root leaves the tagged tests out.
    tags: TAGS,
    include: ['test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
