// The HTML report (--html, default test-results/report.html): one self-contained file a CI publishes as
// an artifact (no script, no font, no request). At the top what failed, each linked to its replay
// bundle; the decision mismatches, linked to theirs; the coverage matrix (operations across, documented
// status × error_code down: seen, not seen, not reachable with the reason); the generated requests per
// operation; every check. Keys never appear: the text is redacted as every report.
import { dirname, relative } from 'node:path';
import { redactUrl } from '@videogen/openapi/rules';
import { redact } from '../engine/redact.ts';
import type { CheckResult, TransientAnswer } from '../shapes.ts';
import type { Coverage, CoverageCell } from './coverage.ts';
import type { DriftEntry } from './drift.ts';
import type { RunStats } from './summary.ts';

export interface HtmlReport {
  title: string;
  target: { kind: string; baseUrl: string; profile: string; timeScale: number };
  results: CheckResult[];
  stats: RunStats;
  drift: DriftEntry[];
  transients: TransientAnswer[];
  coverage: Coverage;
  /** Generated requests per operation, and the seed that reproduces them. */
  generated?: { seed: number; perOperation: Record<string, number> };
  /** Replay bundles by check id (failures and drift), as paths. */
  bundles: Map<string, string>;
  /** Where the HTML goes: bundle links are relative to it. */
  file: string;
  startedAt: Date;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `
:root { --ok:#1a7f37; --okbg:#dafbe1; --bad:#cf222e; --badbg:#ffebe9; --warn:#9a6700; --warnbg:#fff8c5; --off:#6e7781; --offbg:#f0f1f3; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color:#1f2328; margin: 24px auto; max-width: 1280px; padding: 0 20px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.meta { color: var(--off); margin: 0 0 12px; }
.badges { display: flex; gap: 8px; flex-wrap: wrap; margin: 12px 0; }
.badge { padding: 6px 12px; border-radius: 6px; font-weight: 600; }
.b-passed { background: var(--okbg); color: var(--ok); } .b-failed { background: var(--badbg); color: var(--bad); }
.b-drift { background: var(--warnbg); color: var(--warn); } .b-skipped, .b-info { background: var(--offbg); color: var(--off); }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f8fa; padding: 1px 4px; border-radius: 4px; }
ul.items { padding-left: 18px; } ul.items li { margin: 6px 0; }
.msg { white-space: pre-wrap; font: 12px ui-monospace, monospace; color: #57606a; margin: 2px 0 0; }
table { border-collapse: collapse; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 3px 6px; text-align: center; font-size: 12px; }
table.matrix th.row { text-align: left; white-space: nowrap; font-weight: 500; }
table.matrix thead th { background: #f6f8fa; position: sticky; top: 0; }
td.seen { background: var(--okbg); color: var(--ok); font-weight: 600; }
td.not-seen { background: var(--warnbg); color: var(--warn); }
td.unreachable { background: var(--offbg); color: var(--off); }
td.undocumented { background: var(--badbg); color: var(--bad); font-weight: 600; }
td.none { background: #fff; }
.legend span { display: inline-block; padding: 2px 8px; margin-right: 6px; border-radius: 4px; font-size: 12px; }
table.checks td { padding: 2px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; font-size: 13px; }
.s-passed { color: var(--ok); } .s-failed { color: var(--bad); font-weight: 600; } .s-drift { color: var(--warn); } .s-skipped { color: var(--off); }
details summary { cursor: pointer; margin: 4px 0; }
`;

const MARK: Record<CoverageCell['state'], string> = { seen: '✓', 'not-seen': '○', unreachable: '–' };

function cellHtml(cell: CoverageCell | undefined): string {
  if (!cell) return '<td class="none"></td>';
  const cls = cell.undocumented ? 'undocumented' : cell.state;
  const title =
    cell.state === 'seen'
      ? `seen ${cell.count}×${cell.undocumented ? ' (not documented for this operation)' : ''}`
      : `${cell.state === 'unreachable' ? 'not reachable' : 'not seen'}: ${cell.reason ?? ''}`;
  const text = cell.state === 'seen' ? `${MARK.seen} ${cell.count}` : MARK[cell.state];
  return `<td class="${cls}" title="${esc(redact(title))}">${esc(text)}</td>`;
}

function matrix(cov: Coverage): string {
  const ops = [...new Set(cov.cells.map((c) => c.operation))];
  const rowKey = (c: CoverageCell) => `${c.status}${c.code ? ` ${c.code}` : ''}`;
  // By status (a range such as 5XX after its class's statuses), then code.
  const order = (k: string) => Number.parseInt(k.replace(/X/g, '9'), 10);
  const rows = [...new Set(cov.cells.map(rowKey))].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const head = `<thead><tr><th class="row">status · error_code</th>${ops.map((o) => `<th>${esc(o)}</th>`).join('')}</tr></thead>`;
  const body = rows
    .map(
      (r) =>
        `<tr><th class="row">${esc(r)}</th>${ops.map((o) => cellHtml(cov.cells.find((c) => c.operation === o && rowKey(c) === r))).join('')}</tr>`,
    )
    .join('\n');
  return `<table class="matrix">${head}<tbody>${body}</tbody></table>`;
}

/** The answers not reachable, grouped by what would reach them (the matrix shows it on hover). */
function unreachable(cov: Coverage): string {
  const groups = new Map<string, string[]>();
  for (const c of cov.cells.filter((x) => x.state === 'unreachable'))
    groups.set(c.reason ?? '', [
      ...(groups.get(c.reason ?? '') ?? []),
      `${c.operation} ${c.status}${c.code ? ` ${c.code}` : ''}`,
    ]);
  if (!groups.size) return '';
  return `<details><summary>Not reachable with this profile or these keys: ${cov.totals.unreachable} answers, ${groups.size} reasons</summary><ul class="items">${[
    ...groups,
  ]
    .map(([reason, cells]) => `<li>${esc(redact(reason))}<div class="msg">${esc(cells.join(', '))}</div></li>`)
    .join('')}</ul></details>`;
}

export function htmlReport(r: HtmlReport): string {
  const n = (s: string) => r.results.filter((x) => x.state === s).length;
  const link = (id: string) => {
    const bundle = r.bundles.get(id);
    if (!bundle) return '';
    const rel = relative(dirname(r.file), bundle);
    return ` — <a href="${esc(rel)}">replay bundle</a> <code>videogen-contract --replay ${esc(bundle)}</code>`;
  };
  const failed = r.results.filter((x) => x.state === 'failed');
  const drifted = r.results.filter((x) => x.state === 'drift');
  const id = (x: CheckResult) => `${x.operation} › ${x.name}`;
  const failures = failed.length
    ? `<ul class="items">${failed
        .map(
          (x) =>
            `<li><code>${esc(id(x))}</code>${link(id(x))}<div class="msg">${esc(redact((x.message ?? '').split('\n').slice(0, 6).join('\n')))}</div></li>`,
        )
        .join('')}</ul>`
    : '<p>No check failed: nothing breaks what the interface states.</p>';
  const drift = r.drift.length
    ? `<ul class="items">${r.drift
        .map(
          (d) =>
            `<li>decision #${d.decision}<ul>${d.differences
              .map(
                (x) =>
                  `<li>${esc(redact(x.what))} — ${x.count}× (${x.checks.map((c) => `<code>${esc(c)}</code>${link(c)}`).join('; ')})<div class="msg">to make the document true: ${esc(x.change)}</div></li>`,
              )
              .join('')}</ul></li>`,
        )
        .join('')}</ul>`
    : '<p>No difference from any decision of ours was seen.</p>';
  const generated = r.generated
    ? `<h2>Generated requests</h2><p>Seed <code>${r.generated.seed}</code> (re-run with <code>--seed ${r.generated.seed}</code> to send the same requests).</p><table class="checks"><tbody>${Object.entries(
        r.generated.perOperation,
      )
        .map(([op, count]) => `<tr><td>${esc(op)}</td><td>${count}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  const byOp = new Map<string, CheckResult[]>();
  for (const x of r.results) byOp.set(x.operation, [...(byOp.get(x.operation) ?? []), x]);
  const checks = [...byOp]
    .map(
      ([op, list]) =>
        `<details${list.some((x) => x.state === 'failed') ? ' open' : ''}><summary><b>${esc(op)}</b> — ${list.filter((x) => x.state === 'passed').length} passed, ${list.filter((x) => x.state === 'failed').length} failed, ${list.filter((x) => x.state === 'skipped').length} skipped, ${list.filter((x) => x.state === 'drift').length} drift</summary><table class="checks"><tbody>${list
          .map(
            (x) =>
              `<tr><td class="s-${x.state}">${x.state}</td><td><code>${esc(x.name)}</code></td><td>${esc(redact((x.state === 'passed' ? (x.note ?? '') : (x.message ?? '')).split('\n')[0]))}</td></tr>`,
          )
          .join('')}</tbody></table></details>`,
    )
    .join('\n');
  const t = r.target;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(r.title)}</title><style>${STYLE}</style></head><body>
<h1>${esc(r.title)}</h1>
<p class="meta">${esc(t.kind)} <code>${esc(redactUrl(t.baseUrl))}</code> · profile ${esc(t.profile)}${t.timeScale !== 1 ? ` · time scale ${t.timeScale}` : ''} · ${esc(r.startedAt.toISOString())} · ${(r.stats.durationMs / 1000).toFixed(1)} s</p>
<div class="badges"><span class="badge b-passed">${n('passed')} passed</span><span class="badge b-failed">${n('failed')} failed</span><span class="badge b-drift">${n('drift')} differ from a decision of ours</span><span class="badge b-skipped">${n('skipped')} skipped</span><span class="badge b-info">${r.stats.creditsSpent} credits · ${r.stats.requests.A} class A, ${r.stats.requests.B} class B · ${r.transients.length} transient answers</span></div>
<h2>Failures (${failed.length})</h2>${failures}
<h2>Decision mismatches (${drifted.length} checks)</h2><p class="meta">The target chose differently where the interface is silent: not interface failures (<code>--strict</code> fails on them).</p>${drift}
<h2>Coverage: operation × documented status × error_code</h2>
<p class="legend"><span class="b-passed">✓ N seen</span><span class="b-drift">○ not seen</span><span class="b-skipped">– not reachable with this profile or these keys (hover: why)</span><span class="b-failed">✓ answered, not documented</span> — ${r.coverage.totals.seen} seen, ${r.coverage.totals['not-seen']} not seen, ${r.coverage.totals.unreachable} not reachable</p>
${matrix(r.coverage)}
${unreachable(r.coverage)}
${generated}
<h2>Checks</h2>
${checks}
</body></html>
`;
  return redact(html);
}
