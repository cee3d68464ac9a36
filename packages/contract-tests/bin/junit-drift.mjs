// Adds the decision mismatches of a run to its JUnit XML as a section of their own: one testsuite,
// one passing testcase per difference (they are not interface failures), with what the target did.
// Run by bin/contract.mjs once vitest (and its JUnit reporter) has finished writing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const xml = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function addDriftToJUnit(junitFile, driftJsonFile) {
  if (!existsSync(junitFile) || !existsSync(driftJsonFile)) return;
  const drift = JSON.parse(readFileSync(driftJsonFile, 'utf8'));
  if (!drift.length) return;
  const text = readFileSync(junitFile, 'utf8');
  if (text.includes('name="decision mismatches')) return;
  const cases = drift.flatMap((d) =>
    d.differences.map(
      (x) =>
        `    <testcase classname="decision #${d.decision}" name="${xml(x.what)}">\n` +
        `      <properties><property name="decision" value="${d.decision}"/><property name="count" value="${x.count}"/><property name="change" value="${xml(x.change)}"/></properties>\n` +
        `      <system-out>${xml(x.curl ?? '')}</system-out>\n    </testcase>`,
    ),
  );
  const suite = `  <testsuite name="decision mismatches (our choices, not interface failures)" tests="${cases.length}" failures="0" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>\n`;
  writeFileSync(junitFile, text.replace(/<\/testsuites>\s*$/, `${suite}</testsuites>\n`));
}
