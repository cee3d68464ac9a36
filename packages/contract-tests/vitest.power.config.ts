// `npm run power`: the power measurement (test/power/power.power.ts), apart from the self-test: it takes
// long (a run per class, profile and seed) and prints its table rather than asserting it.
import { defineConfig } from 'vitest/config';
import { TAGS } from '../../vitest.shared.js';

export default defineConfig({
  test: {
    tags: TAGS,
    include: ['test/power/*.power.ts'],
    testTimeout: 24 * 3600_000,
  },
});
