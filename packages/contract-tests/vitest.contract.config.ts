// The contract suite: files in order, one after the other, in one process (one pacer, one run).
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

class ByName extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
  async shard(files: TestSpecification[]) {
    return files;
  }
}

const external = Boolean(process.env.VIDEO_API_BASE_URL);

export default defineConfig({
  test: {
    include: ['suite/**/*.contract.ts'],
    globalSetup: ['./src/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    sequence: { sequencer: ByName },
    // A real service polls for minutes (600 s client-side timeout); local targets are fast.
    testTimeout: external ? 15 * 60_000 : 60_000,
    hookTimeout: 60_000,
    reporters: [
      'default',
      './src/reporter.ts',
      ['junit', { outputFile: process.env.CONTRACT_JUNIT_FILE ?? 'test-results/junit.xml', suiteName: 'contract' }],
    ],
  },
});
