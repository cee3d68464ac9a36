// `npm run fidelity`: the closing numbers of issue 33 (fidelity.run.ts), measured, not a test: it runs
// calibrate and compare against every server the tests do and prints the table. About 10 minutes on 2 cores.
import { defineConfig } from 'vitest/config';
import { TAGS } from '../../../vitest.shared.js';

export default defineConfig({
  test: {
    tags: TAGS,
    include: ['fidelity/**/*.run.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
  },
});
