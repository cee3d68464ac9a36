// A contract run: the plan of the catalogue for the target, the run, and its reports (summary on
// stdout and in summary.txt/json, JUnit XML, the drift report, failure bundles). Exit code 1 on an
// interface failure, or on a decision mismatch when strict.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactUrl } from '@videogen/openapi/rules';
import { checkId } from '../engine/catalogue.ts';
import { redact } from '../engine/redact.ts';
import { learnsTimeScale, pacerFor, Run } from '../engine/run.ts';
import { runCatalogue, type RunResult } from '../engine/runner.ts';
import { select } from '../engine/selection.ts';
import { catalogue } from '../checks/index.ts';
import { driftMarkdown, driftOf } from '../report/drift.ts';
import { makeBundle, writeBundle } from '../report/failures.ts';
import { formatClasses, inputClassesOf } from '../report/classes.ts';
import { coverageOf, formatCoverage } from '../report/coverage.ts';
import { BOUNDARY_PHASE } from '../generation/boundary.ts';
import { htmlReport } from '../report/html.ts';
import { junitXml } from '../report/junit.ts';
import { formatSummary, type RunStats } from '../report/summary.ts';
import type { Exchange, TargetConfig } from '../shapes.ts';
import type { Settings } from '../cli/target.ts';
import { checkTarget } from './preflight.ts';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** Whether a check matches one of the `--only` filters (its operation, its name, or `operation.name`). */
export function matches(filters: string[], c: { operation: string; name: string }): boolean {
  return (
    !filters.length ||
    filters.some((f) => f === c.operation || f === c.name || f === `${c.operation}.${c.name}` || f === checkId(c))
  );
}

/** Generated requests per operation (every scenario of src/generation/), and the seed that reproduces them. */
function generatedCounts(exchanges: Exchange[], seed: number) {
  const perOperation: Record<string, number> = {};
  const boundary: Record<string, number> = {};
  for (const e of exchanges) {
    if (!e.operationId) continue;
    if (e.scenario.startsWith('generated')) perOperation[e.operationId] = (perOperation[e.operationId] ?? 0) + 1;
    if (e.scenario.startsWith(BOUNDARY_PHASE)) boundary[e.operationId] = (boundary[e.operationId] ?? 0) + 1;
  }
  return { seed, perOperation, boundary };
}

function formatGenerated(g: ReturnType<typeof generatedCounts> | undefined): string[] {
  if (!g) return [];
  const line = (counts: Record<string, number>) =>
    `${Object.values(counts).reduce((a, b) => a + b, 0)} (${Object.entries(counts)
      .map(([op, n]) => `${op} ${n}`)
      .join(', ')})`;
  return [
    '',
    ...(Object.keys(g.boundary).length ? [`Boundary phase requests: ${line(g.boundary)}; the same on every run`] : []),
    `Generated requests: ${line(g.perOperation)}; seed ${g.seed}: --seed ${g.seed} sends the same ones again`,
  ];
}

export interface ContractRun {
  results: RunResult[];
  run: Run;
  exitCode: number;
  /** The operator's mistake the preflight found (exit 2, nothing judged): the cause and the fix in one line. */
  setupError?: string;
}

export async function runContract(config: TargetConfig, s: Settings, io: Io = stdio): Promise<ContractRun> {
  const driftJson = s.driftFile.replace(/\.md$/, '') + '.json';
  const summaryJson = s.summaryFile.replace(/\.txt$/, '') + '.json';
  const started = Date.now();
  // Before any check: a missing or rejected key, a URL that is not reachable or not the API stop here.
  const pacer = pacerFor(
    config,
    learnsTimeScale(config, s.timeScale !== undefined) ? 'learn' : (s.timeScale ?? config.timeScale),
  );
  const checked = await checkTarget(config, {
    keyless: s.keyless,
    timeScaleGiven: s.timeScale !== undefined,
    urlSource: s.named.baseUrl,
    pacer,
  });
  if (!checked.result.ok) {
    // Nothing was judged: the reports of the last run that judged something (report.html, junit.xml, the
    // drift, the failure bundles) stay as they were; only the summary says why this one stopped.
    const line = `videogen-contract: ${redact(checked.result.message)}`;
    io.err(`${line}\n`);
    const text = `${line}\n(exit 2: a setup error; nothing was judged; the other reports are the last run's)\n`;
    write(s.summaryFile, text);
    write(
      summaryJson,
      JSON.stringify({ setupError: { kind: checked.result.kind, message: redact(checked.result.message) } }, null, 2),
    );
    return { results: [], run: new Run(config, pacer), exitCode: 2, setupError: redact(checked.result.message) };
  }
  config = checked.config;
  // From here on this run judges: reports of an earlier run would read as this one's.
  rmSync(s.failuresDir, { recursive: true, force: true });
  for (const f of [s.driftFile, driftJson, s.junitFile, s.summaryFile, summaryJson, s.htmlFile])
    rmSync(f, { force: true });
  // --only: generated requests only for the operations whose generated checks the run judges.
  if (config.generation && s.only.length) {
    const judged = catalogue(config)
      .checks.filter((c) => /^(generated|boundary)_/.test(c.name) && matches(s.only, c))
      .map((c) => c.operation);
    config = { ...config, generation: { ...config.generation, operations: [...new Set(judged)] } };
  }
  for (const note of checked.result.notes) io.err(`preflight: ${redact(note)}\n`);
  const cat = catalogue(config);
  const selection = select(cat, config, config.profile, s.budget);
  selection.checks = selection.checks.filter((c) => matches(s.only, c.check));
  const run = new Run(config, pacer);
  io.out(
    `contract target: ${config.kind} ${redactUrl(config.baseUrl)} (profile ${config.profile}${config.timeScale !== 1 ? `, time scale ${config.timeScale}` : ''}${s.budget !== undefined ? `, credit budget ${s.budget}` : ''})\n`,
  );
  const width = String(selection.checks.length).length;
  const results = await runCatalogue(run, cat, selection, {
    onResult: (r, i, n) =>
      io.err(
        `[${String(i + 1).padStart(width)}/${n}] ${r.state.padEnd(7)} ${checkId(r)}${r.state === 'skipped' && r.message ? ` — ${r.message.split('\n')[0]}` : ''}\n`,
      ),
  });
  // Replay bundles: each failure's exchanges, and each drift's (the answers that differ from a decision).
  const bundles = new Map<string, string>();
  for (const r of results) {
    if (r.state === 'failed')
      bundles.set(
        checkId(r),
        writeBundle(s.failuresDir, makeBundle(checkId(r), r.message ?? '', config, r.exchanges ?? [])),
      );
    const shown = (r.mismatches ?? []).flatMap((m) => (m.exchange ? [m.exchange] : []));
    if (r.state === 'drift' && shown.length)
      bundles.set(
        checkId(r),
        writeBundle(s.failuresDir, makeBundle(checkId(r), r.message ?? '', config, [...new Set(shown)]), '.drift'),
      );
  }
  const drift = driftOf(results);
  write(s.driftFile, driftMarkdown(drift));
  write(driftJson, redact(JSON.stringify(drift, null, 2)));
  const requests = { A: 0, B: 0 };
  for (const e of run.exchanges) requests[e.method === 'POST' ? 'A' : 'B']++;
  const stats: RunStats = {
    creditsSpent: run.creditsSpent,
    creditBudget: s.budget,
    requests,
    durationMs: Date.now() - started,
    pacedMs: run.pacer.stats.waitedMs,
  };
  const coverage = coverageOf(run.contract, cat.checks, results, run.exchanges, run.transients);
  const generated = config.generation ? generatedCounts(run.exchanges, config.generation.seed) : undefined;
  const classes = inputClassesOf(run.exchanges, results);
  const text = formatSummary(results, stats, drift, run.transients, s.driftFile, [
    ...formatCoverage(coverage),
    ...formatClasses(classes),
    ...formatGenerated(generated),
  ]);
  io.out(text);
  write(s.summaryFile, text);
  write(
    s.htmlFile,
    htmlReport({
      title: 'Contract report',
      target: { kind: config.kind, baseUrl: config.baseUrl, profile: config.profile, timeScale: config.timeScale },
      results,
      stats,
      drift,
      transients: run.transients,
      coverage,
      generated,
      classes,
      bundles,
      file: s.htmlFile,
      startedAt: new Date(started),
    }),
  );
  const plain = results.map(({ exchanges: _exchanges, mismatches, ...r }) => ({
    ...r,
    ...(mismatches && { mismatches: mismatches.map(({ exchange: _e, ...m }) => m) }),
  }));
  write(
    summaryJson,
    redact(
      JSON.stringify(
        {
          target: { kind: config.kind, baseUrl: config.baseUrl, profile: config.profile, timeScale: config.timeScale },
          preflight: checked.result.notes,
          stats,
          results: plain,
          transients: run.transients,
          coverage,
          ...(generated && { generated }),
          ...(classes.length && { inputClasses: classes }),
          bundles: Object.fromEntries(bundles),
        },
        null,
        2,
      ),
    ),
  );
  write(s.junitFile, junitXml(results, drift, run.transients));
  await run.close();
  const failed =
    results.some((r) => r.state === 'failed') || (config.strict && results.some((r) => r.state === 'drift'));
  return { results, run, exitCode: failed ? 1 : 0 };
}
