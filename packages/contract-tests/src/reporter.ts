// The human summary: per operation, per check, passed / FAILED / skipped with the reason.
import type { Reporter, TestModule, TestCase } from 'vitest/node';
import { redact } from './redact.ts';
import { formatRunStats, readRunStats } from './run-stats.ts';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

interface Row {
  operation: string;
  check: string;
  /** passed | failed | skipped | drift (differs from a decision of ours only). */
  state: string;
  note?: string;
  ms: number;
}

interface Drift {
  decision: number;
  differences: Array<{ what: string; count: number; curl?: string; change: string }>;
}

export function formatSummary(rows: Row[], durationMs: number, drift: Drift[] = [], driftFile = 'test-results/drift.md'): string {
  const byOp = new Map<string, Row[]>();
  for (const r of rows) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  const lines: string[] = ['', 'Contract summary', '================'];
  for (const [op, list] of byOp) {
    const c = (s: string) => list.filter((r) => r.state === s).length;
    lines.push('', `${op}  (${c('passed')} passed, ${c('failed')} failed, ${c('skipped')} skipped)`);
    for (const r of list) {
      const mark = r.state === 'passed' ? 'pass' : r.state === 'failed' ? 'FAIL' : r.state === 'drift' ? 'drift' : 'skip';
      const note = r.state === 'failed' ? `\n        ${(r.note ?? '').split('\n').slice(0, 4).join('\n        ')}` : r.state === 'drift' ? '  — differs from a decision of ours (below)' : r.note ? `  — ${r.note}` : '';
      lines.push(`  ${mark}  ${r.check}${note}`);
    }
  }
  const n = (s: string) => rows.filter((r) => r.state === s).length;
  if (drift.length) {
    lines.push('', 'Decision mismatches (the target chose differently where the interface is silent; not interface failures)', '-----------------------------------------------------------------------------------------------------');
    for (const d of drift) {
      lines.push(`  decision #${d.decision}:`);
      for (const x of d.differences.slice(0, 5)) lines.push(`    ${x.count}× ${x.what}`);
      if (d.differences.length > 5) lines.push(`    … and ${d.differences.length - 5} more`);
    }
    lines.push(`  details, a curl line each and the change that would make the document true: ${driftFile}`);
  }
  lines.push('', `Total: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped, ${n('drift')} differing from a decision of ours, of ${rows.length} checks in ${(durationMs / 1000).toFixed(1)} s`, '');
  return redact(lines.join('\n'));
}

export default class ContractReporter implements Reporter {
  private started = Date.now();

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows: Row[] = [];
    for (const m of modules) {
      for (const t of m.children.allTests()) rows.push(this.row(t));
    }
    const driftFile = process.env.CONTRACT_DRIFT_FILE ?? 'test-results/drift.md';
    const driftJson = driftFile.replace(/\.md$/, '') + '.json';
    const drift: Drift[] = existsSync(driftJson) ? JSON.parse(readFileSync(driftJson, 'utf8')) : [];
    const stats = readRunStats();
    const text = formatSummary(rows, Date.now() - this.started, drift, driftFile) + (stats ? redact(formatRunStats(stats)) + '\n' : '');
    process.stdout.write(text);
    const out = process.env.CONTRACT_SUMMARY_FILE ?? 'test-results/summary.txt';
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
    writeFileSync(out.replace(/\.txt$/, '') + '.json', JSON.stringify(rows, null, 2));
  }

  private row(t: TestCase): Row {
    const r = t.result();
    const parent = t.parent.type === 'suite' ? t.parent.name : '';
    const mismatch = t.annotations().find((a) => a.type === 'decision-mismatch');
    const note = r.state === 'skipped' ? r.note : r.state === 'failed' ? r.errors?.map((e) => e.message).join('\n') : mismatch?.message;
    const state = mismatch && r.state === 'passed' ? 'drift' : r.state;
    return { operation: parent, check: t.name, state, note: note ? redact(note) : undefined, ms: t.diagnostic()?.duration ?? 0 };
  }
}
