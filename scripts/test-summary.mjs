// Sums the "Tests  …" summary lines that vitest prints (turbo prefixes them with the package name,
// the CI matrix with its leg) into one closing line, "N passed, N failed, N skipped", that CI systems
// read. Arguments: log files, each optionally labelled as "LABEL=PATH"; a labelled log also gets its
// own line, so the closing note shows every matrix leg.
import { readFileSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
let runs = 0;
const legs = [];
for (const arg of process.argv.slice(2)) {
  const eq = arg.lastIndexOf('=');
  const [label, path] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [undefined, arg];
  const log = readFileSync(path, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
  const mine = { passed: 0, failed: 0, skipped: 0 };
  let found = 0;
  for (const line of log.split('\n')) {
    const m = /^(?:\S+ )?\s*Tests\s+(.*\(\d+\))\s*$/.exec(line);
    if (!m) continue;
    found++;
    for (const [, n, kind] of m[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) mine[kind === 'todo' ? 'skipped' : kind] += Number(n);
  }
  runs += found;
  for (const k of Object.keys(totals)) totals[k] += mine[k];
  if (label) legs.push(`  ${label}: ${found ? `${mine.passed} passed, ${mine.failed} failed, ${mine.skipped} skipped` : 'NO TEST SUMMARY (crashed?)'}`);
}
if (!runs) {
  console.error('test-summary: no vitest summary found in the logs');
  process.exit(1);
}
if (legs.length) console.log(`\n${legs.join('\n')}`);
console.log(`\n${runs} test runs`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
