// Sums the "Tests  …" summary lines that vitest prints (turbo prefixes them with the package name,
// the CI matrix with its leg) into one closing line, "N passed, N failed, N skipped", that CI systems
// read. Arguments: log files, each optionally labelled as "LABEL=PATH"; a labelled log also gets its
// own line, so the closing note shows every matrix leg. Each failed test is named again there, with the
// first line of its error, so that the tail of a long CI log says what failed.
import { readFileSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
let runs = 0;
const legs = [];
const failures = [];
for (const arg of process.argv.slice(2)) {
  const eq = arg.lastIndexOf('=');
  const [label, path] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [undefined, arg];
  const log = readFileSync(path, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
  const mine = { passed: 0, failed: 0, skipped: 0 };
  let found = 0;
  const lines = log.split('\n');
  lines.forEach((line, i) => {
    // vitest's failure section: " FAIL  file > describe > test", then the error after a blank line or two
    const fail = /^(\S+: )?\s*FAIL\s+(.*\S)\s*$/.exec(line);
    if (!fail) return;
    const prefix = fail[1] ?? '';
    const error =
      lines
        .slice(i + 1, i + 6)
        .map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l).trim())
        .find((l) => l) ?? '';
    const where = label ? `${label}: ` : prefix;
    failures.push(`  ${where}${fail[2]}${error ? `\n      ${error.slice(0, 300)}` : ''}`);
  });
  for (const line of lines) {
    const m = /^(?:\S+ )?\s*Tests\s+(.*\(\d+\))\s*$/.exec(line);
    if (!m) continue;
    found++;
    for (const [, n, kind] of m[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g))
      mine[kind === 'todo' ? 'skipped' : kind] += Number(n);
  }
  runs += found;
  for (const k of Object.keys(totals)) totals[k] += mine[k];
  if (label)
    legs.push(
      `  ${label}: ${found ? `${mine.passed} passed, ${mine.failed} failed, ${mine.skipped} skipped` : 'NO TEST SUMMARY (crashed?)'}`,
    );
}
if (!runs) {
  console.error('test-summary: no vitest summary found in the logs');
  process.exit(1);
}
if (failures.length) console.log(`\nfailed tests:\n${failures.join('\n')}`);
if (legs.length) console.log(`\n${legs.join('\n')}`);
console.log(`\n${runs} test runs`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
