// The human summary: per operation, per check, passed / FAIL with the reason / skip with the reason;
// the decision mismatches; the transient answers (retried or waited out, never judged); the totals.
// Its "Total: N passed, N failed, N skipped, …" line is read by CI logs and the CLI's self-test.
import { redact } from '../engine/redact.ts';
import type { CheckResult, TransientAnswer } from '../shapes.ts';
import type { DriftEntry } from './drift.ts';

export interface RunStats {
  creditsSpent: number;
  creditBudget?: number;
  requests: { A: number; B: number };
  /** Wall time of the run, ms. */
  durationMs: number;
  /** Time the pacer held requests back, ms. */
  pacedMs: number;
}

const MARK = { passed: 'pass', failed: 'FAIL', drift: 'drift', skipped: 'skip' } as const;

export function formatSummary(
  results: CheckResult[],
  stats: RunStats,
  drift: DriftEntry[] = [],
  transients: TransientAnswer[] = [],
  driftFile = 'test-results/drift.md',
  /** Sections printed before the totals (coverage, generated requests). */
  sections: string[] = [],
): string {
  const byOp = new Map<string, CheckResult[]>();
  for (const r of results) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  const lines: string[] = ['', 'Contract summary', '================'];
  for (const [op, list] of byOp) {
    const c = (s: string) => list.filter((r) => r.state === s).length;
    lines.push('', `${op}  (${c('passed')} passed, ${c('failed')} failed, ${c('skipped')} skipped)`);
    for (const r of list) {
      const note =
        r.state === 'failed'
          ? `\n        ${(r.message ?? '').split('\n').slice(0, 4).join('\n        ')}`
          : r.state === 'drift'
            ? '  — differs from a decision of ours (below)'
            : r.state === 'skipped' && r.message
              ? `  — ${r.message}`
              : r.note
                ? `  — ${r.note}`
                : '';
      lines.push(`  ${MARK[r.state]}  ${r.name}${note}`);
    }
  }
  if (drift.length) {
    lines.push(
      '',
      'Decision mismatches (the target chose differently where the interface is silent; not interface failures)',
      '-'.repeat(101),
    );
    for (const d of drift) {
      lines.push(`  decision #${d.decision}:`);
      for (const x of d.differences.slice(0, 5)) lines.push(`    ${x.count}× ${x.what}`);
      if (d.differences.length > 5) lines.push(`    … and ${d.differences.length - 5} more`);
    }
    lines.push(`  details, a curl line each and the change that would make the document true: ${driftFile}`);
  }
  if (transients.length) {
    lines.push(
      '',
      'Transient answers (retried or waited out as interface 7.1 says, then sent again; never judged)',
      '-'.repeat(92),
    );
    for (const t of transients.slice(0, 30)) {
      const what =
        t.status === 0
          ? `no answer (${t.detail})`
          : `${t.status}${t.errorCode ? ` ${t.errorCode}` : t.detail ? ` ${t.detail.replace(/\s+/g, ' ').slice(0, 60)}` : ''}`;
      lines.push(`  ${t.request} → ${what}; attempt ${t.attempt}, ${t.action}  [${t.scenario}]`);
    }
    if (transients.length > 30) lines.push(`  … and ${transients.length - 30} more (summary.json)`);
  }
  const n = (s: string) => results.filter((r) => r.state === s).length;
  lines.push(...sections);
  lines.push(
    '',
    `Total: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped, ${n('drift')} differing from a decision of ours, of ${results.length} checks in ${(stats.durationMs / 1000).toFixed(1)} s`,
    `Credits spent: ${stats.creditsSpent}${stats.creditBudget !== undefined ? ` (budget ${stats.creditBudget})` : ''}; requests: ${stats.requests.A} class A, ${stats.requests.B} class B; ${transients.length} transient answers; ${(stats.pacedMs / 1000).toFixed(1)} s held back by the pacer`,
    '',
  );
  return redact(lines.join('\n'));
}
