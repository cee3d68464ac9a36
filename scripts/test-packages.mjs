// `npm test`'s test step: every workspace package's `test` task through turbo (its cache and its
// prefixed logs as before), a few at a time, the longest first. turbo has no task priority: it starts the
// tests in the order their builds finish, so the suite (the longest by far) started fifth and three long
// packages ran last, on one core while the other idled. Longest first, the short ones fill the end.
// Usage: node scripts/test-packages.mjs [--concurrency=N] [turbo flags, e.g. --continue]
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ROOT, workspaces } from '@videogen/release/published';

// Each package's test task as this script printed it on a fresh clone (November 2026, two cores with other
// work beside them), the longest first. A package not named here runs after these; the order is all that
// this list decides.
const LONGEST_FIRST = [
  '@videogen/contract-tests', // 329 s
  '@videogen/docs', // 159 s
  '@videogen/clone-tests', // 94 s
  '@videogen/ecosystem-tests', // 80 s
  '@videogen/release', // 64 s
  '@videogen/replica-tests', // 59 s
  '@videogen/cli', // 55 s
  '@videogen/sandbox', // 54 s
  '@videogen/runtime-tests', // 46 s
  '@videogen/relay', // 41 s
  '@videogen/client', // 34 s
  '@videogen/pacer-redis', // 22 s
  '@videogen/openapi', // 19 s
  '@videogen/mcp', // 17 s
];

const args = process.argv.slice(2);
const concurrencyArg = args.find((a) => a.startsWith('--concurrency='));
// One per core unless told.
const concurrency = concurrencyArg ? Number(concurrencyArg.slice('--concurrency='.length)) : availableParallelism();
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`test-packages: --concurrency must be a whole number of at least 1 (got ${concurrencyArg})`);
  process.exit(2);
}
const turboArgs = args.filter((a) => a !== concurrencyArg);
const keepGoing = turboArgs.includes('--continue');

/** The workspace packages that have a test script. */
const packagesWithTests = () =>
  workspaces()
    .filter((w) => w.pkg.scripts?.test)
    .map((w) => w.name);

const turbo = join(ROOT, 'node_modules', '.bin', 'turbo');

// A filter of the caller's (`npm test -- --filter=…`) picks the packages: turbo runs it as it would.
const filtered = turboArgs.some((a) => a === '-F' || a.startsWith('--filter') || a.startsWith('--affected'));
process.exit(
  filtered ? await run(['run', 'test', `--concurrency=${concurrency}`, ...turboArgs]) : await longestFirst(),
);

/** turbo with these arguments, its output as it comes; resolves to its exit status. */
function run(turboArguments) {
  return new Promise((resolve) => {
    const child = spawn(turbo, turboArguments, { cwd: ROOT, stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Every package's test task (`--only`: npm test built them first), `concurrency` at a time, the longest first. */
async function longestFirst() {
  const rank = (name) => (LONGEST_FIRST.includes(name) ? LONGEST_FIRST.indexOf(name) : LONGEST_FIRST.length);
  const queue = packagesWithTests().sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const results = [];
  let failed = false;
  const lane = async () => {
    while (queue.length && (keepGoing || !failed)) {
      const name = queue.shift();
      const started = Date.now();
      const status = await run(['run', 'test', '--only', `--filter=${name}`, ...turboArgs]);
      results.push({ name, status, seconds: Math.round((Date.now() - started) / 1000) });
      if (status !== 0) failed = true;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\ntest-packages: ${results.length} packages, ${concurrency} at a time, in ${seconds} s`);
  for (const r of results) console.log(`  ${r.status === 0 ? 'ok    ' : 'FAILED'} ${r.name} ${r.seconds} s`);
  if (queue.length) console.log(`  not run after a failure (--continue runs them): ${queue.join(', ')}`);
  return failed ? 1 : 0;
}
