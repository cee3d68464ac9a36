// The drift report: where the target differs from this document's decisions (DECISIONS.md), not from
// the interface. Per decision: what the target did instead, how often, one request that shows it as a
// curl line (the key as $VIDEO_API_KEY), and the change to the document that would make it true.
import { curlLine } from '../engine/recorded-request.ts';
import { redact } from '../engine/redact.ts';
import type { CheckResult, Mismatch } from '../shapes.ts';

export interface DriftEntry {
  decision: number;
  /** What the target did instead, each with how often and where it was seen. */
  differences: Array<{ what: string; count: number; checks: string[]; curl?: string; change: string }>;
}

/** The change to openapi.yaml that would make the target's answer agree with the document. */
function changeFor(m: Mismatch): string {
  const ex = m.exchange;
  const op = ex?.operationId ?? 'the operation';
  const code = (ex?.body as { error_code?: unknown } | undefined)?.error_code;
  switch (m.kind) {
    case 'status':
      return `declare status ${ex?.status} under responses of ${op} (or a ${String(ex?.status)[0]}XX range) with its body`;
    case 'error_code':
      return `document error_code ${String(code)} for ${ex?.status} of ${op} (x-enumDecisions / the response's description)`;
    case 'header':
      return `loosen or drop the header's schema on ${op} ${ex?.status} (the interface does not show it)`;
    default:
      return `relax the node of ${op} that carries this x-decision so that the answer above validates`;
  }
}

/** The difference in one line, without the exchange that follows it in the message. */
function what(m: Mismatch): string {
  const first = m.message.split('\n')[0].replace(/^\[[^\]]*\]\s*/, '');
  return first.length > 200 ? first.slice(0, 200) + '…' : first;
}

export function driftOf(results: CheckResult[]): DriftEntry[] {
  const entries = new Map<number, Map<string, DriftEntry['differences'][number]>>();
  for (const r of results) {
    const id = `${r.operation} › ${r.name}`;
    for (const m of r.mismatches ?? []) {
      for (const decision of m.decision) {
        let byWhat = entries.get(decision);
        if (!byWhat) entries.set(decision, (byWhat = new Map()));
        const key = what(m);
        const d = byWhat.get(key) ?? {
          what: key,
          count: 0,
          checks: [],
          curl: m.exchange?.request && redact(curlLine(m.exchange.baseUrl, m.exchange.request)),
          change: changeFor(m),
        };
        d.count++;
        if (!d.checks.includes(id)) d.checks.push(id);
        byWhat.set(key, d);
      }
    }
  }
  return [...entries.entries()]
    .sort(([a], [b]) => a - b)
    .map(([decision, byWhat]) => ({ decision, differences: [...byWhat.values()] }));
}

export function driftMarkdown(all: DriftEntry[]): string {
  const lines = [
    '# Drift report',
    '',
    'Where the target differs from a decision of `openapi/DECISIONS.md` (a choice of our document where the interface is silent), not from the interface itself.',
    '',
  ];
  if (!all.length) lines.push('No difference from any decision was seen.');
  for (const e of all) {
    lines.push(`## Decision #${e.decision}`, '');
    for (const d of e.differences) {
      lines.push(
        `- **${d.what}** — ${d.count}× (${d.checks.slice(0, 3).join('; ')}${d.checks.length > 3 ? '; …' : ''})`,
      );
      if (d.curl) lines.push(`  - request: \`${d.curl}\``);
      lines.push(`  - to make the document true: ${d.change}`);
    }
    lines.push('');
  }
  return redact(lines.join('\n'));
}
