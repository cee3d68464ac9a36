// `npm test` of the suite's self-test, in two streams side by side (its files one at a time took 15 min,
// the longest package of npm test):
// - the calibrations, whose readings are times (limiter probes, polls, latencies at a time scale): the
//   three independent servers first, each file in a process of its own side by side (a calibration mostly
//   waits out its pacing; in one process one's limiter inference delayed the others' probes), then the
//   others one at a time; then the whole contract runs over a matrix (their runs hold the sandbox's time
//   for a burst and read no duration: they need cores, not quiet; each file runs its own runs side by side);
// - every other file, one per core at a time.
// Each stream is vitest runs of the package's own config; the exit status is the worst of them.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const SIDE_BY_SIDE = [
  'test/calibrate/independent-gateway.test.ts',
  'test/calibrate/independent-storage.test.ts',
  'test/calibrate/independent-alternative.test.ts',
];
const ONE_AT_A_TIME = [
  'test/calibrate/nightly.test.ts',
  'test/calibrate/diff.test.ts',
  'test/calibrate/recorded.test.ts',
];
const MATRIX = ['test/alternative.test.ts', 'test/generative-faults.test.ts'];
const FIRST_STREAM = [...SIDE_BY_SIDE, ...ONE_AT_A_TIME, ...MATRIX];
const extra = process.argv.slice(2);

function stream(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args, ...extra], { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all([
  (async () => {
    const codes = [await stream(['--file-parallelism', `--max-workers=${SIDE_BY_SIDE.length}`, ...SIDE_BY_SIDE])];
    codes.push(await stream(ONE_AT_A_TIME), await stream(MATRIX));
    return Math.max(...codes);
  })(),
  stream([
    '--file-parallelism',
    `--max-workers=${availableParallelism()}`,
    ...FIRST_STREAM.flatMap((f) => ['--exclude', f]),
  ]),
]);
process.exit(Math.max(...codes));
