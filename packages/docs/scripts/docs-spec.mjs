// Builds the docs copy of the bundled OpenAPI document: guides become tags with `x-traitTag: true`
// (Redoc renders them as sections), tags are grouped with `x-tagGroups`, and every operation gets
// `x-codeSamples` in four languages: samples/<operationId>.ts (TypeScript, @videogen/client),
// samples/js/<operationId>.mjs (JavaScript fetch), samples/python/<operationId>.py (Python requests)
// and samples/curl/<operationId>.sh.
// openapi/openapi.yaml is never touched: this works on a copy of openapi/dist/openapi.json.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listOperations } from '@videogen/openapi';
import { twinReferenceGuide } from './twin-reference.mjs';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const guidesDir = join(packageDir, 'guides');
export const samplesDir = join(packageDir, 'samples');

/** Path of the bundled document that `@videogen/openapi` builds. */
export function bundledSpecPath() {
  return createRequire(import.meta.url).resolve('@videogen/openapi/openapi.json');
}

export function loadBundledSpec() {
  return JSON.parse(readFileSync(bundledSpecPath(), 'utf8'));
}

/** Every operation of the document (the one walker, openapi/lib's listOperations; `operation` is the document's own node). */
export const operations = (spec) => listOperations(spec);

/**
 * The guides, in file-name order (01-…, 02-…). `index.md` is the landing text (info.description);
 * every other file starts with `# Title`, which becomes the tag's name and the section's heading.
 */
export function loadGuides(dir = guidesDir) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'index.md')
    .sort();
  const guides = files.map((file) => {
    const text = readFileSync(join(dir, file), 'utf8').replace(/\r\n/g, '\n');
    const match = /^# (.+)\n+/.exec(text);
    if (!match) throw new Error(`guides/${file} must start with a "# Title" line`);
    return { file, title: match[1].trim(), body: text.slice(match[0].length).trimEnd() + '\n' };
  });
  // The reference of the twin file format, written from its schema (@videogen/openapi/twin).
  guides.push(twinReferenceGuide());
  // The decisions of the OpenAPI document, which its descriptions cite as DECISIONS.md, are the
  // last guide: read from the spec package, never copied, so the page cannot drift from the file.
  const decisions = readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('@videogen/openapi/package.json')), 'DECISIONS.md'),
    'utf8',
  ).replace(/\r\n/g, '\n');
  const d = /^# (.+)\n+/.exec(decisions);
  if (!d) throw new Error('DECISIONS.md must start with a "# Title" line');
  guides.push({ file: 'DECISIONS.md', title: d[1].trim(), body: decisions.slice(d[0].length).trimEnd() + '\n' });
  const intro = readFileSync(join(dir, 'index.md'), 'utf8').replace(/\r\n/g, '\n').trimEnd() + '\n';
  return { intro, guides };
}

/** The sample languages of every operation: tab label, Redoc's language id, file (folder, extension). */
export const SAMPLE_LANGUAGES = [
  { lang: 'typescript', label: 'TypeScript', dir: '.', ext: '.ts' },
  { lang: 'javascript', label: 'JavaScript', dir: 'js', ext: '.mjs' },
  { lang: 'python', label: 'Python', dir: 'python', ext: '.py' },
  { lang: 'bash', label: 'curl', dir: 'curl', ext: '.sh' },
];

/** The code samples of one operation; every language's file must exist. */
export function loadSamples(operationId, dir = samplesDir) {
  return SAMPLE_LANGUAGES.map(({ lang, label, dir: sub, ext }) => {
    const file = join(sub, `${operationId}${ext}`);
    try {
      const source = readFileSync(join(dir, file), 'utf8').replace(/\r\n/g, '\n').trimEnd() + '\n';
      return { lang, label, source };
    } catch {
      throw new Error(
        `operation ${operationId} has no sample ${join('samples', file)}: every operation needs a sample in ${SAMPLE_LANGUAGES.map((l) => l.label).join(', ')}`,
      );
    }
  });
}

/** Sample files whose name matches no operation: a renamed operation must not leave them behind. */
export function orphanSamples(spec, dir = samplesDir) {
  const ids = new Set(operations(spec).map((o) => o.operationId));
  // Samples that belong to a guide rather than an operation (they are run by the tests too).
  const guideSamples = new Set(['quickstart', 'generateFromPdf', 'startVideo', 'receiveVideo']);
  const names = SAMPLE_LANGUAGES.flatMap(({ dir: sub, ext }) =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith(ext))
      .map((f) => f.slice(0, -ext.length)),
  );
  return names.filter((n) => !ids.has(n) && !guideSamples.has(n));
}

/** A line that starts a Markdown block of its own (heading, list item, table row, quote, fence, HTML, rule). */
const BLOCK_START = /^(#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>|```|~~~|<|---|\*\*\*|___)/;

/**
 * Each line of `markdown` with whether it is code: a fence line, a line inside a fence, or a line of an
 * indented code block (one starts after a blank line and runs while its lines stay indented). Both passes
 * below leave code as it is.
 */
function markdownLines(markdown) {
  const lines = markdown.split('\n');
  let fence = false;
  let indentedCode = false;
  return lines.map((line, i) => {
    if (/^(```|~~~)/.test(line.trim())) {
      fence = !fence;
      return { line, code: true };
    }
    const previous = lines[i - 1];
    if (!fence && (previous === undefined || previous.trim() === '' || indentedCode))
      indentedCode = /^ {4,}\S/.test(line) && (previous === undefined || previous.trim() === '' || indentedCode);
    return { line, code: fence || indentedCode };
  });
}

/**
 * Joins the soft line breaks of Markdown paragraphs (a source line wrapped for the editor) into spaces.
 * Rendered Markdown shows them as spaces already; Redoc's search index drops them, which ran words
 * together in its snippets ("presigneddownload_url", "soonafter"). Code blocks, tables, headings, list
 * items and hard breaks (two trailing spaces, a backslash) are left as they are; a list item's indented
 * continuation line is joined to the item.
 */
export function joinSoftBreaks(markdown) {
  const out = [];
  let previousCode = true;
  for (const { line, code } of markdownLines(markdown)) {
    const trimmed = line.trim();
    const previous = out.at(-1);
    if (
      !code &&
      !previousCode &&
      previous !== undefined &&
      previous.trim() !== '' &&
      trimmed !== '' &&
      !BLOCK_START.test(trimmed) &&
      !/^\s*(#|\||```|~~~)/.test(previous) &&
      !/( {2}|\\)$/.test(previous)
    )
      out[out.length - 1] = `${previous.trimEnd()} ${trimmed}`;
    else out.push(line);
    previousCode = code;
  }
  return out.join('\n');
}

/** A space that Markdown keeps at the end of a block (a literal one is trimmed with the line). */
const KEPT_SPACE = '&#32;';

/**
 * Ends each list item and table cell with a space that survives parsing. Redoc's search index joins the
 * text of a block's children with nothing between them, so neighbouring items and cells ran together in
 * its snippets ("(stop).Download from", "FieldPersonal planBusiness plan"); the page shows a trailing
 * space as nothing. Code (fenced or indented) and hard breaks are left as they are.
 */
export function spaceBlockEnds(markdown) {
  return markdownLines(markdown)
    .map(({ line, code }) => {
      const trimmed = line.trim();
      if (code) return line;
      if (/^\s*([-*+]|\d+[.)])\s+\S/.test(line) && !/( {2}|\\)$/.test(line)) return `${line.trimEnd()}${KEPT_SPACE}`;
      if (trimmed.startsWith('|') && !/^\|?[\s:|-]+$/.test(trimmed)) return spaceCells(line);
      return line;
    })
    .join('\n');
}

/** A table row with each non-empty cell ending in a kept space (`\|` inside a cell is not a border). */
function spaceCells(row) {
  const cells = row.split(/(?<!\\)\|/);
  return cells
    .map((cell, i) =>
      i === 0 || i === cells.length - 1 || cell.trim() === '' ? cell : ` ${cell.trim()}${KEPT_SPACE} `,
    )
    .join('|');
}

/** Every `description` of the docs copy (guides, operations, parameters, schemas), soft breaks joined. */
function joinDescriptions(node) {
  if (Array.isArray(node)) {
    for (const item of node) joinDescriptions(item);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') node[key] = spaceBlockEnds(joinSoftBreaks(value));
      // Examples are data, not prose.
      else if (key !== 'example' && key !== 'examples' && key !== 'x-codeSamples') joinDescriptions(value);
    }
  }
}

/** A deep copy of `spec` with guides, tag groups and code samples injected. */
export function buildDocsSpec(spec, { intro, guides } = loadGuides(), sampleLoader = loadSamples) {
  const docs = structuredClone(spec);
  const apiTags = (docs.tags ?? []).map((t) => t.name);

  const taken = new Set(apiTags);
  for (const guide of guides) {
    if (taken.has(guide.title)) throw new Error(`guide title "${guide.title}" (${guide.file}) clashes with a tag`);
    taken.add(guide.title);
  }

  // The landing text replaces the document's own description; the guides carry what it said
  // (client flow, authentication, limits, errors) at greater length.
  docs.info = { ...docs.info, description: intro };
  docs.tags = [
    ...guides.map((g) => ({ name: g.title, description: g.body, 'x-traitTag': true })),
    ...(docs.tags ?? []),
  ];
  docs['x-tagGroups'] = [
    { name: 'Guides', tags: guides.map((g) => g.title) },
    { name: 'API reference', tags: apiTags },
  ];

  // Redoc hides an operation whose tag is in no group: fail the build instead.
  const grouped = new Set(docs['x-tagGroups'].flatMap((g) => g.tags));
  const ops = operations(docs);
  if (ops.length === 0) throw new Error('the bundled document has no operations');
  for (const { operationId, operation, method, path } of ops) {
    if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
    const tags = operation.tags ?? [];
    if (tags.length === 0 || !tags.every((t) => grouped.has(t))) {
      throw new Error(`operation ${operationId} has a tag in no x-tagGroups group: ${JSON.stringify(tags)}`);
    }
    operation['x-codeSamples'] = sampleLoader(operationId);
  }
  joinDescriptions(docs);
  return docs;
}
