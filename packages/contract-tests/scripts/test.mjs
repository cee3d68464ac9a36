// `npm test` of the suite's self-test, in two streams side by side (its files one at a time took 15 min,
// the longest package of npm test):
// - the files whose runs are timed or repeated over a matrix, one file at a time, each
//   running its own runs side by side where they only wait (the matrix runs, four at a time); the
//   calibrations of the independent servers one after another: three side by side, each in a process of
//   its own, misread limiters and latencies at a load of 20 (the other stream's two files beside them);
// - every other file, one per core at a time.
// Each stream is a vitest run of the package's own config; the exit status is the worse of the two.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
// Two batches one after the other (vitest orders the files of one run its own way): the whole contract
// runs over a matrix and the calibrations against a fault-free target; then the independent servers and
// the nightly loop (their readings the most exposed to a busy machine: limiter probes, polls and
// latencies at 20×), by when the other stream is about done.
const FIRST = [
  'test/alternative.test.ts',
  'test/generative-faults.test.ts',
  'test/calibrate/diff.test.ts',
  'test/calibrate/recorded.test.ts',
];
const LAST = [
  'test/calibrate/independent-gateway.test.ts',
  'test/calibrate/independent-storage.test.ts',
  'test/calibrate/independent-alternative.test.ts',
  'test/calibrate/nightly.test.ts',
];
const TIMED = [...FIRST, ...LAST];
const extra = process.argv.slice(2);

function stream(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args, ...extra], { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all([
  stream(FIRST).then(async (first) => Math.max(first, await stream(LAST))),
  stream(['--file-parallelism', `--max-workers=${availableParallelism()}`, ...TIMED.flatMap((f) => ['--exclude', f])]),
]);
process.exit(Math.max(...codes));
