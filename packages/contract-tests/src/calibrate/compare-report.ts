// The report of `compare`: on the terminal, as JSON (test-results/compare.json) and as one self-contained
// HTML file beside the contract report (test-results/compare.html, the same stylesheet): every behaviour
// that differs with both sides' answers as evidence and the tolerance used, then the same, then the ones
// not compared. Redacted as every report: no key, no signature.
import { redact } from '../engine/redact.ts';
import { esc, STYLE } from '../report/html.ts';
import type { BehaviourComparison, Comparison } from './compare.ts';
import { evidenceOf } from './twin.ts';

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function formatComparison(c: Comparison): string {
  const differs = c.behaviours.filter((b) => b.verdict === 'differs');
  const same = c.behaviours.filter((b) => b.verdict === 'same');
  const skipped = c.behaviours.filter((b) => b.verdict === 'not compared');
  const lines = [
    `Compared ${c.target.baseUrl} with a sandbox started from the twin ${c.twin.name} (${c.twin.source}), profile ${c.target.profile}${c.target.timeScale !== 1 ? `, time scale ${c.target.timeScale}` : ''}, ${secs(c.wallMs)}:`,
    `  ${differs.length} behaviour${differs.length === 1 ? '' : 's'} differ, ${same.length} the same, ${skipped.length} not compared (the target did not show them)${c.verdicts.length ? `; ${c.verdicts.length} contract check${c.verdicts.length === 1 ? '' : 's'} judged differently` : ''}`,
  ];
  for (const b of differs) {
    lines.push(
      `  DIFFERS  ${b.name} (${b.key}): target ${b.target.words}; twin ${b.twin.words}${b.twin.unobserved ? ` (${b.twin.unobserved})` : ''}${b.tolerance ? `  [${b.tolerance}]` : ''}`,
    );
    const show = (label: string, s: BehaviourComparison['target'], base: string) => {
      const e = s.evidence[0];
      const x = e && evidenceOf(e, base);
      if (x)
        lines.push(
          `           ${label}: ${x.method} ${x.url} → ${x.status} ${(x.body ?? '').slice(0, 120).replace(/\s+/g, ' ')}`,
        );
    };
    show('target', b.target, c.target.baseUrl);
    show('twin  ', b.twin, c.twin.baseUrl);
    if (b.twinFile) lines.push(`           (${b.twinFile})`);
  }
  for (const v of c.verdicts)
    lines.push(
      `  DIFFERS  contract check ${v.check}: target ${v.target}${v.targetMessage ? ` (${v.targetMessage})` : ''}, twin ${v.twin}${v.twinMessage ? ` (${v.twinMessage})` : ''}`,
    );
  if (skipped.length) lines.push(`  not compared: ${skipped.map((b) => b.key).join(', ')}`);
  lines.push(
    c.differences
      ? `Exit 1: the twin does not behave as the target (${c.differences}).`
      : 'The twin behaves as the target in everything compared.',
  );
  return `${redact(lines.join('\n'))}\n`;
}

/** The comparison as JSON (without the raw observations; evidence redacted as in a twin file). */
export function comparisonJson(c: Comparison): string {
  const sideJson = (s: BehaviourComparison['target'], base: string) => ({
    ...(s.value !== undefined && { value: s.value }),
    words: s.words,
    ...(s.samples && { samples: s.samples }),
    ...(s.note && { note: redact(s.note) }),
    ...(s.unobserved && { unobserved: s.unobserved }),
    evidence: s.evidence.map((e) => evidenceOf(e, base)),
  });
  return redact(
    JSON.stringify(
      {
        target: c.target,
        twin: c.twin,
        differences: c.differences,
        startedAt: new Date(c.startedAt).toISOString(),
        wallSeconds: Math.round(c.wallMs / 100) / 10,
        behaviours: c.behaviours.map((b) => ({
          key: b.key,
          name: b.name,
          verdict: b.verdict,
          ...(b.tolerance && { tolerance: b.tolerance }),
          target: sideJson(b.target, c.target.baseUrl),
          twin: sideJson(b.twin, c.twin.baseUrl),
          ...(b.twinFile && { twinFile: b.twinFile }),
        })),
        verdicts: c.verdicts,
        costs: {
          target: { credits: c.observations.target.creditsSpent, requests: c.observations.target.requests },
          twin: { credits: c.observations.twin.creditsSpent, requests: c.observations.twin.requests },
        },
      },
      null,
      2,
    ),
  );
}

const CSS = `${STYLE}
table.behaviours td, table.behaviours th { border-bottom: 1px solid #eaeef2; padding: 4px 8px; vertical-align: top; text-align: left; font-size: 13px; }
tr.differs td.verdict { color: var(--bad); font-weight: 600; } tr.same td.verdict { color: var(--ok); } tr.skip td.verdict { color: var(--off); }
pre.ex { white-space: pre-wrap; font: 12px ui-monospace, monospace; background: #f6f8fa; padding: 6px; margin: 4px 0; }
`;

function exchangesHtml(b: BehaviourComparison, c: Comparison): string {
  const one = (label: string, s: BehaviourComparison['target'], base: string) =>
    s.evidence.length
      ? `<div><b>${label}</b>${s.evidence
          .map((e) => {
            const x = evidenceOf(e, base);
            const headers = Object.entries(x.response_headers ?? {})
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n');
            return `<pre class="ex">${esc(`${x.method} ${x.url} → ${x.status}${x.elapsed_ms !== undefined ? ` (${x.elapsed_ms} ms)` : ''}\n${headers}${x.body ? `\n\n${x.body}` : ''}`)}</pre>`;
          })
          .join('')}</div>`
      : `<div><b>${label}</b>: ${esc(s.unobserved ?? 'not observed')}</div>`;
  return `<details><summary>answers</summary>${one('target', b.target, c.target.baseUrl)}${one('twin', b.twin, c.twin.baseUrl)}</details>`;
}

export function comparisonHtml(c: Comparison): string {
  const rows = [...c.behaviours].sort((a, b) => order(a) - order(b));
  const body = rows
    .map(
      (b) =>
        `<tr class="${b.verdict === 'differs' ? 'differs' : b.verdict === 'same' ? 'same' : 'skip'}"><td class="verdict">${esc(b.verdict)}</td><td><b>${esc(b.name)}</b><br><code>${esc(b.key)}</code></td><td>${esc(b.target.words)}${b.target.samples ? ` <span class="meta">(${b.target.samples})</span>` : ''}</td><td>${esc(b.twin.words)}${b.twin.unobserved ? `<div class="msg">${esc(b.twin.unobserved)}</div>` : ''}${b.twinFile ? `<div class="msg">${esc(b.twinFile)}</div>` : ''}</td><td class="msg">${esc(b.tolerance ?? '')}</td><td>${b.verdict === 'differs' ? exchangesHtml(b, c) : ''}</td></tr>`,
    )
    .join('\n');
  const verdicts = c.verdicts.length
    ? `<h2>Contract checks judged differently (${c.verdicts.length})</h2><table class="behaviours"><tbody>${c.verdicts
        .map(
          (v) =>
            `<tr class="differs"><td><code>${esc(v.check)}</code></td><td>target ${esc(v.target)}</td><td>twin ${esc(v.twin)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const n = (v: string) => c.behaviours.filter((b) => b.verdict === v).length;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twin comparison</title><style>${CSS}</style></head><body>
<h1>Twin comparison</h1>
<p class="meta">target <code>${esc(c.target.baseUrl)}</code> · twin <code>${esc(c.twin.name)}</code> (${esc(c.twin.source)}) · profile ${esc(c.target.profile)}${c.target.timeScale !== 1 ? ` · time scale ${c.target.timeScale}` : ''} · ${esc(new Date(c.startedAt).toISOString())} · ${secs(c.wallMs)}</p>
<div class="badges"><span class="badge b-failed">${n('differs') + c.verdicts.length} differ</span><span class="badge b-passed">${n('same')} the same</span><span class="badge b-skipped">${n('not compared')} not compared</span><span class="badge b-info">target: ${c.observations.target.creditsSpent} credits, ${c.observations.target.requests} requests</span></div>
${verdicts}
<h2>Behaviours</h2>
<table class="behaviours"><thead><tr><th></th><th>behaviour</th><th>target</th><th>twin</th><th>tolerance</th><th></th></tr></thead><tbody>
${body}
</tbody></table>
</body></html>
`;
  return redact(html);
}

const order = (b: BehaviourComparison) => (b.verdict === 'differs' ? 0 : b.verdict === 'same' ? 1 : 2);
