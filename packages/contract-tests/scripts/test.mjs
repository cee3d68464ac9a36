// `npm test` of the suite's self-test, in two streams side by side (its files one at a time took 15 min,
// the longest package of npm test):
// - the runs that time a target or repeat whole contract runs over a matrix (calibrations, the limiter
//   styles, the generative faults), one at a time, as before: their readings need the machine's quiet;
// - every other file, one per core at a time (the fast lane already runs them side by side).
// Each stream is a vitest run of the package's own config; the exit status is the worse of the two.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
// Timed runs, in two batches one after the other: those that compare latencies with the target's
// (calibrate/independent, the nightly loop) in the second, which starts once the other stream is
// about done (its files take about as long as the first batch), so that its readings meet the quiet they had.
const TIMED_FIRST = [
  'test/alternative.test.ts',
  'test/generative-faults.test.ts',
  'test/calibrate/diff.test.ts',
  'test/calibrate/recorded.test.ts',
];
const TIMED_LAST = ['test/calibrate/independent.test.ts', 'test/calibrate/nightly.test.ts'];
const TIMED = [...TIMED_FIRST, ...TIMED_LAST];
const extra = process.argv.slice(2);

function stream(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args, ...extra], { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all([
  stream(TIMED_FIRST).then(async (first) => Math.max(first, await stream(TIMED_LAST))),
  stream(['--file-parallelism', `--max-workers=${availableParallelism()}`, ...TIMED.flatMap((f) => ['--exclude', f])]),
]);
process.exit(Math.max(...codes));
