// Decision mismatches: a failed expectation that breaks only one of our choices (x-decision N of the
// spec, entry N of openapi/DECISIONS.md), not the interface. Reported apart, and collected into a
// drift report (test-results/drift.md, drift.json): per decision, what the target did instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContractViolation } from './checks/types.ts';
import type { Exchange } from './http.ts';
import { curlLine } from './recorded-request.ts';
import { redact } from './redact.ts';

/** Thrown by a check whose failed expectation rests on decision `decision` only. */
export class DecisionMismatch extends ContractViolation {
  constructor(
    readonly decision: number,
    message: string,
    shown?: Exchange | Exchange[],
    /** Every occurrence, when the check saw several (conformance over many exchanges); else one is made. */
    readonly entries?: DriftEntry[],
  ) {
    super(message, shown);
    this.name = 'DecisionMismatch';
  }
}

export interface DriftEntry {
  decision: number;
  check: string;
  /** What the target did instead (redacted). */
  instead: string;
  /** One request that shows it, key as $VIDEO_API_KEY. */
  curl?: string;
}

/** The decisions an element of the spec carries (x-decision N or a list). */
export function decisionsOf(node: unknown): number[] {
  const d = (node as any)?.['x-decision'];
  return d === undefined || d === null ? [] : Array.isArray(d) ? d : [d];
}

export function driftEntry(decision: number, check: string, instead: string, baseUrl: string, ex?: Exchange): DriftEntry {
  return { decision, check, instead: redact(instead.split('\n')[0]), curl: ex?.request ? curlLine(baseUrl, ex.request) : undefined };
}

/** What the document would say to make the target's behaviour true (the change a reader would make). */
function documentChange(decision: number): string {
  return `Widen or reword the elements marked \`x-decision: ${decision}\` in openapi/openapi.yaml (and entry ${decision} of openapi/DECISIONS.md) to admit what the target does; or keep the decision and treat this as the target's difference.`;
}

export function writeDriftReport(dir: string, entries: DriftEntry[]): void {
  mkdirSync(dir, { recursive: true });
  const byDecision = new Map<number, DriftEntry[]>();
  for (const e of entries) byDecision.set(e.decision, [...(byDecision.get(e.decision) ?? []), e]);
  const decisions = [...byDecision.entries()].sort((a, b) => a[0] - b[0]).map(([decision, list]) => ({
    decision,
    count: list.length,
    checks: [...new Set(list.map((e) => e.check))],
    instead: [...new Set(list.map((e) => e.instead))],
    example: list.find((e) => e.curl)?.curl,
    change: documentChange(decision),
  }));
  writeFileSync(join(dir, 'drift.json'), JSON.stringify({ decisions }, null, 2));
  const md = ['# Drift: where the target chose differently from our decisions', ''];
  if (decisions.length === 0) md.push('No decision mismatch in this run.');
  for (const d of decisions) {
    md.push(`## Decision #${d.decision} (${d.count}×)`, '', 'What the target did instead:', ...d.instead.map((i) => `- ${i}`), '', `Checks: ${d.checks.join(', ')}`, '');
    if (d.example) md.push('One request that shows it:', '', '```sh', d.example, '```', '');
    md.push(`Change to the document: ${d.change}`, '');
  }
  writeFileSync(join(dir, 'drift.md'), redact(md.join('\n')));
}
