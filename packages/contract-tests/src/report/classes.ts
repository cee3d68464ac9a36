// The classes of input the boundary phase sent (`page: 2^31`, `language: another case ("JA")`), per
// operation: how many requests carried each, and whether a check failed for it. Read from the run's
// exchanges (each carries its classes) and the failed checks' classes; the summary, summary.json and the
// HTML report (beside the coverage) show it.
import type { CheckResult, Exchange } from '../shapes.ts';

export interface ClassRow {
  operation: string;
  /** `page: 2^31`. */
  inputClass: string;
  /** Requests that carried it (a request carries a class per field). */
  sent: number;
  /** A check failed for it (the smallest failing request carries it alone where it could be shrunk). */
  failed: boolean;
}

export function inputClassesOf(exchanges: readonly Exchange[], results: readonly CheckResult[]): ClassRow[] {
  const rows = new Map<string, ClassRow>();
  const row = (operation: string, inputClass: string) => {
    const key = `${operation}\u0000${inputClass}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { operation, inputClass, sent: 0, failed: false }));
    return r;
  };
  for (const e of exchanges) for (const c of e.inputClasses ?? []) row(e.operationId ?? '', c).sent++;
  for (const r of results)
    if (r.state === 'failed')
      for (const c of r.inputClasses ?? []) {
        const x = row(r.operation, c);
        x.failed = true;
        // A request that got no answer is not among the run's exchanges: it was sent, once at least.
        x.sent ||= 1;
      }
  return [...rows.values()];
}

/** The summary's lines: the count of classes and requests, and each class that failed. */
export function formatClasses(rows: readonly ClassRow[]): string[] {
  if (!rows.length) return [];
  const failed = rows.filter((r) => r.failed);
  const sent = rows.reduce((n, r) => n + r.sent, 0);
  return [
    '',
    `Boundary phase: ${rows.length} classes of input over ${new Set(rows.map((r) => r.operation)).size} operations (${sent} class-requests; a request carries one class per field), ${failed.length} failing${failed.length ? ':' : ''}`,
    ...failed.map((r) => `  ${r.operation}: ${r.inputClass} (${r.sent} request${r.sent === 1 ? '' : 's'})`),
  ];
}
