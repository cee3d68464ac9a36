// `npm test` of the suite's self-test, in two streams side by side (its files one at a time took 15 min,
// the longest package of npm test):
// - the files whose runs are timed or repeated over a matrix, one file at a time, each
//   running its own runs side by side where they only wait (the matrix runs, four at a time);
// - every other file, one per core at a time;
// then, as each stream ends, a lane of the calibrations of the independent servers and the nightly loop:
// two of them side by side at most, each in a process of its own, none beside the other stream's files
// but the first lane's first for the other stream's last seconds (as when the lanes were one). Three side
// by side beside the other stream's two files misread limiters and latencies at a load of 20.
// Each stream and lane is a vitest run of the package's own config; the exit status is the worst of them.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
// Batches one after the other (vitest orders the files of one run its own way): the whole contract runs
// over a matrix and the calibrations against a fault-free target; then the independent servers and the
// nightly loop (their readings the most exposed to a busy machine: limiter probes, polls and latencies
// at 20×), which mostly wait on the servers' time (a file takes 8 s of CPU in 70 s).
const FIRST = [
  'test/alternative.test.ts',
  'test/generative-faults.test.ts',
  'test/calibrate/diff.test.ts',
  'test/calibrate/recorded.test.ts',
];
// Two lanes, the first after FIRST, the second after the other stream (30 s later on two quiet cores, 60 s
// at a load of 15): 66 + 55 s and 45 + 55 s on two quiet cores; the nightly loop's processes take twice
// as long at a load of 15, the longer lane goes first.
const LAST = [
  ['test/calibrate/independent-storage.test.ts', 'test/calibrate/nightly.test.ts'],
  ['test/calibrate/independent-gateway.test.ts', 'test/calibrate/independent-alternative.test.ts'],
];
const TIMED = [...FIRST, ...LAST.flat()];
const extra = process.argv.slice(2);

function stream(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args, ...extra], { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** A stream, then a lane of LAST: the worse exit status of the two. */
const then = (first, lane) => first.then(async (code) => Math.max(code, await stream(lane)));

const codes = await Promise.all([
  then(stream(FIRST), LAST[0]),
  then(
    stream([
      '--file-parallelism',
      `--max-workers=${availableParallelism()}`,
      ...TIMED.flatMap((f) => ['--exclude', f]),
    ]),
    LAST[1],
  ),
]);
process.exit(Math.max(...codes));
