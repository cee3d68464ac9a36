// The decision mismatches get a section of their own in the JUnit XML, apart from failures.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs module of the bin, without types
import { addDriftToJUnit } from '../bin/junit-drift.mjs';

describe('addDriftToJUnit', () => {
  it('adds one passing testsuite of the mismatches, once, with what the target did', () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-drift-'));
    const junit = join(dir, 'junit.xml');
    const drift = join(dir, 'drift.json');
    writeFileSync(junit, '<?xml version="1.0"?>\n<testsuites name="contract" tests="1" failures="0">\n  <testsuite name="a"></testsuite>\n</testsuites>\n');
    writeFileSync(drift, JSON.stringify([{ decision: 2, differences: [{ what: 'POST /videos/generate/: expected 200, got 201', count: 3, checks: [], curl: "curl -X POST 'http://x/v1/videos/generate/'", change: 'declare status 201 <x>' }] }]));
    addDriftToJUnit(junit, drift);
    addDriftToJUnit(junit, drift);
    const text = readFileSync(junit, 'utf8');
    expect(text.match(/<testsuite name="decision mismatches[^>]*tests="1" failures="0"/g)).toHaveLength(1);
    expect(text).toContain('classname="decision #2" name="POST /videos/generate/: expected 200, got 201"');
    expect(text).toContain('value="declare status 201 &lt;x&gt;"');
    expect(text.trimEnd().endsWith('</testsuites>')).toBe(true);
    expect(text).not.toContain('<failure');
  });
});
