// The human summary: per operation, per check, passed / FAILED / skipped with the reason.
import type { Reporter, TestModule, TestCase } from 'vitest/node';
import { redact } from './redact.ts';
import { formatRunStats, readRunStats } from './run-stats.ts';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

interface Row {
  operation: string;
  check: string;
  state: string;
  note?: string;
  /** The decision mismatch a check reported (state `drift`, or `failed` when strict). */
  decision?: string;
  ms: number;
}

export function formatSummary(rows: Row[], durationMs: number): string {
  const byOp = new Map<string, Row[]>();
  for (const r of rows) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  const lines: string[] = ['', 'Contract summary', '================'];
  for (const [op, list] of byOp) {
    const c = (s: string) => list.filter((r) => r.state === s).length;
    lines.push('', `${op}  (${c('passed')} passed, ${c('failed')} failed, ${c('drift')} drift, ${c('skipped')} skipped)`);
    for (const r of list) {
      const mark = r.state === 'passed' ? 'pass' : r.state === 'failed' ? 'FAIL' : r.state === 'drift' ? 'DRIFT' : 'skip';
      const note = r.state === 'failed' ? `\n        ${(r.note ?? '').split('\n').slice(0, 4).join('\n        ')}` : r.note ? `  — ${r.note}` : '';
      lines.push(`  ${mark}  ${r.check}${note}`);
    }
  }
  const drift = rows.filter((r) => r.decision);
  // Decision mismatches in their own section: the target chose otherwise where the interface is silent.
  lines.push('', `Decision mismatches (${drift.length}; details in test-results/drift.md)`, '------------------------------------');
  for (const r of drift) lines.push(`  ${r.state === 'failed' ? 'FAIL (strict)' : 'DRIFT'}  ${r.operation} › ${r.check}: ${r.decision!.split('\n')[0]}`);
  const n = (s: string) => rows.filter((r) => r.state === s).length;
  lines.push('', `Total: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped, ${n('drift')} decision mismatches of ${rows.length} checks in ${(durationMs / 1000).toFixed(1)} s`, '');
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
    const stats = readRunStats();
    const text = formatSummary(rows, Date.now() - this.started) + (stats ? redact(formatRunStats(stats)) + '\n' : '');
    process.stdout.write(text);
    const out = process.env.CONTRACT_SUMMARY_FILE ?? 'test-results/summary.txt';
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
    writeFileSync(out.replace(/\.txt$/, '') + '.json', JSON.stringify(rows, null, 2));
  }

  private row(t: TestCase): Row {
    const r = t.result();
    const parent = t.parent.type === 'suite' ? t.parent.name : '';
    const note = r.state === 'skipped' ? r.note : r.state === 'failed' ? r.errors?.map((e) => e.message).join('\n') : undefined;
    const decision = t.annotations().find((a) => a.type === 'decision-mismatch')?.message;
    const state = decision && r.state === 'passed' ? 'drift' : r.state;
    return { operation: parent, check: t.name, state, note: note ? redact(note) : undefined, decision: decision ? redact(decision) : undefined, ms: t.diagnostic()?.duration ?? 0 };
  }
}
