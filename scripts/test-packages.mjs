// `npm test` after the build: every workspace's `test` script, each through turbo (its cache, its
// environment, its log prefix), two packages at a time, the longest first. turbo starts ready tasks in
// the order of the package graph, which put the contract suite (a third of the whole) fifth: on two
// cores the run then ended with the suite alone, one core idle. The longest first leaves the short
// ones to fill in at the end. The order is measured (the walls below, one `npm test` on two cores);
// a package not listed goes right after the suite, so that a new one is never left for the end.
// Arguments: `--continue` runs every package even after one failed (as turbo's); any other argument
// hands the whole run back to turbo (`npm test -- --filter=@videogen/client`).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pMap from 'p-map';

const LONGEST_FIRST = [
  '@videogen/contract-tests', // 490 s
  '@videogen/clone-tests', // 198 s
  '@videogen/ecosystem-tests', // 171 s
  '@videogen/docs', // 167 s
  '@videogen/release', // 140 s
  '@videogen/replica-tests', // 122 s
  '@videogen/runtime-tests', // 79 s
  '@videogen/sandbox', // 79 s
  '@videogen/relay', // 78 s
  '@videogen/cli', // 66 s
  '@videogen/client', // 49 s
  '@videogen/openapi', // 22 s
  '@videogen/pacer-redis', // 21 s
  '@videogen/mcp', // 16 s
];
const AT_ONCE = 2;

const ROOT = new URL('..', import.meta.url).pathname;
const turbo = join(ROOT, 'node_modules/.bin/turbo');
const args = process.argv.slice(2);
const keepGoing = args.includes('--continue');
const others = args.filter((a) => a !== '--continue');

/** Runs turbo with `argv`; resolves to its exit code (output goes straight through, prefixed by turbo). */
function runTurbo(argv) {
  return new Promise((resolve) => {
    const child = spawn(turbo, argv, { cwd: ROOT, stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (others.length) process.exit(await runTurbo(['run', 'test', `--concurrency=${AT_ONCE}`, ...args]));

/** The workspaces (root package.json) that have a test script. */
function testedPackages() {
  const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const dirs = workspaces.flatMap((w) =>
    w.endsWith('/*')
      ? readdirSync(join(ROOT, w.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(w.slice(0, -2), d.name))
      : [w],
  );
  const names = [];
  for (const dir of dirs) {
    let pkg;
    try {
      pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
    } catch {
      continue; // a directory without a package
    }
    if (pkg.scripts?.test) names.push(pkg.name);
  }
  return names;
}

const rank = (name) => {
  const i = LONGEST_FIRST.indexOf(name);
  return i === -1 ? 0.5 : i;
};
const packages = testedPackages().sort((a, b) => rank(a) - rank(b));
const started = Date.now();
const outcomes = [];
let failed = false;
await pMap(
  packages,
  async (name) => {
    if (failed && !keepGoing) {
      outcomes.push({ name, code: null, seconds: 0 });
      return;
    }
    const t = Date.now();
    // --only: the build ran just before (npm test); turbo would otherwise replay every dependency's build log.
    const code = await runTurbo(['run', 'test', `--filter=${name}`, '--only', '--output-logs=full']);
    if (code !== 0) failed = true;
    outcomes.push({ name, code, seconds: Math.round((Date.now() - t) / 1000) });
  },
  { concurrency: AT_ONCE },
);
const line = (o) =>
  `  ${o.name}: ${o.code === null ? 'not run (an earlier package failed; --continue runs it)' : `${o.code === 0 ? 'passed' : `FAILED (exit ${o.code})`}, ${o.seconds} s`}`;
console.log(
  `\ntest-packages: ${outcomes.filter((o) => o.code === 0).length} of ${packages.length} packages passed in ${Math.round((Date.now() - started) / 1000)} s, ${AT_ONCE} at a time, the longest first:\n${outcomes.map(line).join('\n')}`,
);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
