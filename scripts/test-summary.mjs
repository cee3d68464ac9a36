// Sums the "Tests  …" summary lines that vitest prints per package (turbo prefixes them with the
// package name) into one closing line, "N passed, N failed, N skipped", that CI systems read.
import { readFileSync } from 'node:fs';

const log = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
let packages = 0;
for (const line of log.split('\n')) {
  const m = /^(?:\S+:test: )?\s*Tests\s+(.*\(\d+\))\s*$/.exec(line);
  if (!m) continue;
  packages++;
  for (const [, n, kind] of m[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
    totals[kind === 'todo' ? 'skipped' : kind] += Number(n);
  }
}
if (!packages) {
  console.error('test-summary: no vitest summary found in the log');
  process.exit(1);
}
console.log(`\n${packages} test runs`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
