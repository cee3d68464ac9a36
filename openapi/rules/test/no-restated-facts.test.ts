// "No number or rule written twice by hand". Every numeric and enumerated fact of the spec's
// x-* extensions (and the enums they rest on) is listed from the bundled document, and no production
// source file may restate it: code imports @videogen/openapi/rules instead.
//
// Method (line based, comments skipped: prose that explains a number is not code that uses it):
//  - bytes: any numeric literal (`100000000`, `100_000_000`) equal to an upload limit, or `N * MB` / `N MB`;
//  - ms: a literal (`10000`, `10_000`) or `N * 1000` equal to a window, polling or 503-wait value, on a
//    line whose words put it in that context (window/rate/requests, poll/interval/timeout, 503/load);
//  - small numbers only in their context on the same line: the page size near "page", the running limit
//    near "running/concurren/parallel/at once", the retry count near "retr", the polling seconds near
//    "interval/poll/timeout", the 503 wait near "503/load/unavailable", the image count near "image";
//  - lists: 3+ distinct aspect ratios on a line, 3+ extensions on a line, 3+ video statuses, all plan
//    names, 4+ generation fields, a multi-field valid combination, or 8+ distinct quoted language codes
//    in one file.
// Not scanned (each is allowed to restate facts, with its reason):
//  - generated code (any `generated/` folder): written from the spec by a generator with --check;
//  - the spec itself and its docs (openapi.yaml, dist/, *.md): they are where the facts live;
//  - tests (`test/`, `*.test.ts`), benchmarks (`bench/`, packages/pacing-bench) and packages/runtime-tests:
//    they state expected values as an independent oracle, or deliberately break a rule;
//  - the generators that read the spec (openapi/scripts, packages/client/scripts), and tool configs
//    (`*.config.ts`: test timeouts, not service facts).
// ALLOWED below lists single lines that match a pattern but state no fact of the spec; an entry that
// matches nothing fails the test, so the list cannot go stale.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpec, listOperations } from '../../lib/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const spec = loadSpec();
const S = spec.components.schemas;

const ALLOWED: Array<{ file: string; match: RegExp; reason: string }> = [
  {
    file: 'packages/cli/src/exit-codes.ts',
    match: /^\s*5\s+rate limit/,
    reason: 'exit code 5 in the help text, not a request count',
  },
  {
    file: 'openapi/rules/src/path-parameters.ts',
    match: /^export const UUID_PATTERN = /,
    reason: "the one home of the document's format: uuid (the rule everyone imports)",
  },
  {
    file: 'packages/sandbox/src/fixtures.ts',
    match: /request_fields: \['text', 'pdf_file'\]/,
    reason: "a seeded setting's request_fields: sandbox data that happens to match a combination",
  },
];

// ---- the facts ------------------------------------------------------------------------------------
const ops = listOperations(spec);
const rateLimits = ops.map((o) => o.operation['x-rate-limit']);
const polling = ops.find((o) => o.operation['x-polling'])!.operation['x-polling'];
const rules = spec['x-retry-policy'].rules;
const r503 = rules.find((r: any) => r.status === '503' && !r.error_code);
const r5xx = rules.find((r: any) => r.status === '5XX');
const upload = S.GenerateVideoRequest['x-upload-limits'];
const combos: string[][] = S.GenerateVideoRequest['x-valid-combinations'].map((c: any) => c.fields);
const maxRunning = ops.find((o) => o.operation['x-concurrency-limit'])!.operation['x-concurrency-limit'].max_running;
const pageSize = S.PageEnvelope.properties.items_per_page.const;

const bytes = Object.values(upload.fields).flatMap((f: any) => Object.values(f.max_bytes) as number[]);
const BYTES = new Set<number>(bytes);
// Durations in ms, each with the words that put a literal of that value in its context.
const window = /window|rate|per \d|requests/i;
const MS_FACTS: Array<[number, RegExp]> = [
  ...rateLimits.map((r): [number, RegExp] => [r.window_seconds * 1000, window]),
  [polling.interval_seconds * 1000, /poll|interval/i],
  [polling.timeout_seconds * 1000, /poll|timeout/i],
  [r503.wait_seconds.min * 1000, /503|load|unavailable/i],
  [r503.wait_seconds.max * 1000, /503|load|unavailable/i],
];
const MB_FACTS = new Set(bytes.map((b) => b / 1_000_000));
const extensions = [
  ...new Set(Object.values(upload.fields).flatMap((f: any) => Object.values(f.extensions).flat() as string[])),
];
const maxImages = upload.fields.image_files.max_items;

const literals = (l: string) =>
  [...l.matchAll(/(?<![\w.])(\d[\d_]{3,})(?![\w.])/g)].map((m) => Number(m[1].replace(/_/g, '')));
const secondsTimes1000 = (l: string) =>
  [...l.matchAll(/(?<![\w.])(\d+)\s*\*\s*(?:1000|1_000|1e3)\b/g)].map((m) => Number(m[1]) * 1000);
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Not an index (`key[2]`) nor part of a name, a decimal or a ratio.
const num = (n: number) => new RegExp(`(?<![\\w.[])${n}(?![\\w.:\\]])`);
const distinct = (line: string, re: RegExp) => new Set([...line.matchAll(re)].map((m) => m[1])).size;
const quoted = (values: string[]) => new RegExp(`['"\`](${values.map(esc).join('|')})['"\`]`, 'g');

type Rule = { id: string; test: (line: string) => boolean };
const near = (id: string, n: number, context: RegExp): Rule => ({ id, test: (l) => num(n).test(l) && context.test(l) });
const RULES: Rule[] = [
  { id: 'upload limit in bytes', test: (l) => literals(l).some((n) => BYTES.has(n)) },
  {
    id: 'duration in ms',
    test: (l) =>
      MS_FACTS.some(
        ([ms, context]) => context.test(l) && (literals(l).includes(ms) || secondsTimes1000(l).includes(ms)),
      ),
  },
  {
    id: 'megabytes',
    test: (l) =>
      [...l.matchAll(/(?<![\w.])(\d+)\s*(?:\*\s*(?:MB|1e6|1_000_000)\b|MB\b)/g)].some((m) =>
        MB_FACTS.has(Number(m[1])),
      ),
  },
  near('page size', pageSize, /page/i),
  near('running limit', maxRunning, /running|concurren|parallel|at once|simultaneous/i),
  ...[...new Set(rateLimits.map((r) => r.requests))].map((n) =>
    near('rate limit requests', n, /requests? per|per \d+ ?s(ec)?\b|rate.?limit/i),
  ),
  near('retries', r5xx.max_retries, /retr/i),
  near('polling interval', polling.interval_seconds, /interval|poll/i),
  near('polling timeout', polling.timeout_seconds, /timeout|poll/i),
  near('503 wait', r503.wait_seconds.min, /503|load|unavailable/i),
  near('503 wait', r503.wait_seconds.max, /503|load|unavailable/i),
  near('image count', maxImages, /image/i),
  {
    id: 'aspect ratio list',
    test: (l) => distinct(l, new RegExp(`(?<![\\d:])(${S.AspectRatio.enum.map(esc).join('|')})(?![\\d:])`, 'g')) >= 3,
  },
  { id: 'extension list', test: (l) => distinct(l, new RegExp(`(${extensions.map(esc).join('|')})\\b`, 'g')) >= 3 },
  {
    id: 'video status list',
    test: (l) => new RegExp(Array(3).fill(quoted(S.VideoState.enum).source).join('\\s*[,|]\\s*')).test(l),
  },
  { id: 'plan list', test: (l) => distinct(l, quoted(spec['x-plans'].values)) === spec['x-plans'].values.length },
  { id: 'generation field list', test: (l) => distinct(l, quoted(S.GenerateFieldName.enum)) >= 4 },
  ...combos
    .filter((c) => c.length > 1)
    .map((c) => ({
      id: 'valid combination',
      test: (l: string) => new RegExp(c.map((f) => `['"]${esc(f)}['"]`).join('\\s*,\\s*')).test(l),
    })),
];
// The document's format: uuid as a regular expression (8 hex digits, a dash, 4 hex digits...).
RULES.push({ id: 'UUID pattern', test: (l) => /\{8\}-.{0,16}\{4\}/.test(l) });
const LANGUAGE_LIST = { id: 'language list', min: 8, re: quoted(S.Language.enum) };

// ---- the files ------------------------------------------------------------------------------------
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'generated',
  'test',
  'tests',
  'bench',
  'test-results',
  '.git',
  '.turbo',
  'pacing-bench',
  'runtime-tests',
]);
const SKIP_FILES = [
  /^openapi\/scripts\//,
  /^packages\/client\/scripts\/generate\.mjs$/,
  /\.test\.[cm]?[jt]s$/,
  /(^|\/)[\w.-]+\.config\.[cm]?[jt]s$/,
];
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(?:[cm]?[jt]s|tsx)$/.test(name) && !name.endsWith('.d.ts')) {
      const rel = relative(root, path);
      if (!SKIP_FILES.some((re) => re.test(rel))) out.push(rel);
    }
  }
  return out;
}
const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line);

function findings(): string[] {
  const used = new Set<number>();
  const found: string[] = [];
  for (const file of sources(root)) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (isComment(line)) return;
      const code = line.replace(/\s\/\/.*$/, '');
      for (const rule of RULES) {
        if (!rule.test(code)) continue;
        const allowed = ALLOWED.findIndex((a) => a.file === file && a.match.test(code));
        if (allowed >= 0) used.add(allowed);
        else found.push(`${file}:${i + 1} restates ${rule.id}: ${line.trim().slice(0, 140)}`);
      }
    });
    const codes = new Set(
      lines.filter((l) => !isComment(l)).flatMap((l) => [...l.matchAll(LANGUAGE_LIST.re)].map((m) => m[1])),
    );
    if (codes.size >= LANGUAGE_LIST.min)
      found.push(`${file} restates ${LANGUAGE_LIST.id}: ${codes.size} language codes`);
  }
  for (const [i, a] of ALLOWED.entries())
    if (!used.has(i)) found.push(`ALLOWED entry for ${a.file} (${a.match}) matches nothing: remove it`);
  return found;
}

describe('no production file restates a fact of the spec', () => {
  it('finds the facts in the spec (the test would be empty otherwise)', () => {
    expect(BYTES.size + MS_FACTS.length).toBeGreaterThan(3);
    expect(extensions.length).toBeGreaterThan(3);
    expect(combos.some((c) => c.length > 1)).toBe(true);
  });
  it('catches a restatement (self-check of the patterns)', () => {
    const hit = (line: string) => RULES.some((r) => r.test(line));
    expect(hit('const WINDOW_MS = 10_000;')).toBe(true);
    expect(hit('const credits = 10_000;')).toBe(false);
    expect(hit("const statuses = ['running', 'completed', 'failed'];")).toBe(true);
    expect(hit('const MAX = 100_000_000;')).toBe(true);
    expect(hit("const RATIOS = ['16:9', '9:16', '1:1'];")).toBe(true);
    expect(hit('const PAGE_SIZE = 50; // items per page')).toBe(true);
    expect(hit('if (running.length >= 2) throw busy();')).toBe(true);
    expect(hit("const COMBOS = [['text', 'pdf_file']];")).toBe(true);
    expect(hit('const pollTimeoutMs = 600 * 1000;')).toBe(true);
    expect(hit('const limit = 180 * MB;')).toBe(true);
    expect(hit('const x = 2; const y = items.slice(0, 50);')).toBe(false);
    expect(hit('running.push(key[2]);')).toBe(false);
    expect(hit('const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;')).toBe(true);
    expect(hit("ajv.addFormat('uuid', /^[\\da-f]{8}-[\\da-f]{4}-/);")).toBe(true);
    expect(hit('const id = `${prefix}-0000-4000-8000-${n}`;')).toBe(false);
  });
  it('finds none in the production sources', () => {
    expect(findings()).toEqual([]);
  });
});
