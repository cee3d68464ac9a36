// The built site without a browser: each page self-contained (nothing loaded from a CDN) and under the
// weight budget, the console wired in, llms.txt and llms-full.txt complete, and the docs copy of the
// document carrying the guides, tag groups and every code sample.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  buildDocsSpec,
  loadBundledSpec,
  loadGuides,
  loadSamples,
  joinSoftBreaks,
  spaceBlockEnds,
  operations,
  orphanSamples,
  packageDir,
  SAMPLE_LANGUAGES,
} from '../scripts/docs-spec.mjs';
import { slug } from '../scripts/llms.mjs';
import { TWIN_PAGE_TITLE } from '../scripts/twin-reference.mjs';
import { BEHAVIOUR_KEYS, TWIN_SCHEMA, builtinTwin } from '@videogen/openapi/twin';

const dist = join(packageDir, 'dist');
const distIndex = join(dist, 'index.html');
/** The pages of the site: each must work alone, offline. */
const PAGES = ['index.html', 'flow.html'];
/** The page-weight budget of issue 27: everything a page loads (each page is one file). */
const PAGE_BUDGET = 4_000_000;

function read(file: string): string {
  const path = join(dist, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run "npm run build -w @videogen/docs" first`);
  return readFileSync(path, 'utf8');
}
const html = () => read('index.html');

describe('dist/index.html works offline', () => {
  test('is one self-contained file with Redoc inlined', () => {
    const size = statSync(distIndex).size;
    // ~2.8 MB with Redoc and the console inlined; a CDN build would be ~0.3 MB.
    expect(size).toBeGreaterThan(1_500_000);
    const page = html();
    expect(page).toMatch(/<script type="module">[\s\S]*hydrate\(window\.vgPatchDefinition/);
    expect(page).toContain('"disableTelemetry":true');
  });

  test.each(PAGES)('%s weighs less than 4 MB, with everything it loads', (file) => {
    const bytes = statSync(join(dist, file)).size;
    const gzip = gzipSync(readFileSync(join(dist, file))).length;
    console.log(`page weight: ${file} ${bytes} bytes (${gzip} gzipped)`);
    expect(bytes).toBeLessThan(PAGE_BUDGET);
  });

  test.each(PAGES)('%s loads no script, stylesheet, font or image from the network', (file) => {
    const page = read(file);
    // Elements that make the browser fetch something, with a remote or root-relative address.
    const loads = [
      ...page.matchAll(
        /<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?\b(src|href|data)\s*=\s*["']?([^"' >]+)/gi,
      ),
    ]
      .map((m) => `<${m[1]} ${m[2]}=${m[3]}>`)
      .filter((tag) => !/=(data:|blob:|#)/.test(tag));
    expect(loads).toEqual([]);
    const found = (re: RegExp) => page.match(re) ?? [];
    expect(found(/<script\b[^>]*\bsrc=[^>]*>/gi)).toEqual([]);
    expect(found(/@import\s[^;]{0,80}/gi)).toEqual([]);
    expect(found(/url\(\s*['"]?(https?:)?\/\/[^)]{0,80}/gi)).toEqual([]);
    expect(found(/@font-face[^}]*url\(\s*['"]?https?:[^)]{0,80}/gi)).toEqual([]);
    // Module loads of Redoc from its CDN (what build-docs writes without --inlineBundle).
    expect(page.match(/(import\s*(\(|[^;]*?from)\s*["'`]https?:|<link[^>]*modulepreload)[^\n]{0,80}/g) ?? []).toEqual(
      [],
    );
    // The badge logo that Redoc loads from cdn.redoc.ly is replaced at build time (scripts/build.mjs).
    expect(page.match(/https:\/\/cdn\.redoc\.ly[^"'`\s]*/g) ?? []).toEqual([]);
    for (const host of ['fonts.googleapis.com', 'fonts.gstatic.com', 'unpkg.com', 'cdn.jsdelivr.net']) {
      expect(page.includes(host), host).toBe(false);
    }
  });

  test.each(PAGES)('%s embeds the bundled document (download, console), current with the bundle', (file) => {
    const m = /<script type="application\/json" id="vg-openapi-source">([\s\S]*?)<\/script>/.exec(read(file));
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1]!)).toEqual(loadBundledSpec());
    expect(JSON.parse(read('openapi.json'))).toEqual(loadBundledSpec());
  });

  test.each(PAGES)('%s keeps the marker where the sandbox describes itself, and its script', (file) => {
    const page = read(file);
    // Once: the sandbox replaces the first one it finds.
    expect(page.split('<!--VIDEOGEN_SANDBOX-->')).toHaveLength(2);
    expect(page).not.toContain('<!--VIDEOGEN_CONSOLE-->');
    expect(page).not.toContain('<!--VIDEOGEN_FLOW-->');
  });

  test('hands Redoc the definition through the console, which puts the serving sandbox in the servers panel', () => {
    const page = html();
    expect(page).toContain('vgPatchDefinition');
    expect(page).toContain(
      'hydrate(window.vgPatchDefinition ? window.vgPatchDefinition(__redoc_definition) : __redoc_definition,',
    );
    // The sandbox description comes before the console script, which comes before Redoc's module.
    const at = (s: string) => page.indexOf(s);
    expect(at('<!--VIDEOGEN_SANDBOX-->')).toBeLessThan(at('vgPatchDefinition'));
    expect(at('vgPatchDefinition')).toBeLessThan(at('<script type="module">'));
  });
});

describe('llms.txt and llms-full.txt', () => {
  const spec = loadBundledSpec();
  const { guides } = loadGuides();

  test('llms.txt follows llmstxt.org: a title, a summary, and links to every guide and operation', () => {
    const text = read('llms.txt');
    expect(text.startsWith(`# ${spec.info.title}\n\n> `)).toBe(true);
    for (const g of guides) expect(text).toContain(`[${g.title}](index.html#/${slug(g.title)})`);
    for (const { operationId, operation } of operations(spec))
      expect(text).toContain(
        `[${operation.summary}](index.html#/${slug(String(operation.tags?.[0]))}/${operationId.toLowerCase()})`,
      );
    expect(text).toContain('(llms-full.txt)');
  });

  test('llms-full.txt holds every guide, every operation and every sample, as plain text', () => {
    const text = read('llms-full.txt');
    for (const g of guides) expect(text).toContain(`# ${g.title}\n\n${g.body.trim().slice(0, 200)}`);
    for (const { operationId, operation } of operations(spec)) {
      expect(text).toContain(`## ${operation.summary}`);
      for (const sample of loadSamples(operationId)) expect(text).toContain(sample.source.trimEnd());
    }
    expect(text).not.toMatch(/<script|&#x/);
  });
});

describe('the docs copy of the document', () => {
  const spec = loadBundledSpec();
  const { guides } = loadGuides();
  const docs = buildDocsSpec(spec);

  test('has a guide tag (x-traitTag) per guide file, and tag groups covering every tag', () => {
    // Any guide file dropped in guides/ is picked up, in file-name order, with no wiring.
    const files = readdirSync(join(packageDir, 'guides'))
      .filter((f) => f.endsWith('.md') && f !== 'index.md')
      .sort();
    expect(guides.map((g) => g.file)).toEqual([...files, 'twin.schema.json', 'DECISIONS.md']);
    expect(guides.map((g) => g.title)).toEqual(
      expect.arrayContaining([
        'Quickstart',
        'Authentication and API keys',
        'Generate, poll, download',
        'Converting videos',
        'Errors and retries',
        'Limits',
        'The sandbox',
        'Running the contract suite against staging',
        'Outside tools within the limits',
        'The videogen command line',
        'The twin file format',
        'Decisions where the interface is silent (DECISIONS.md)',
      ]),
    );
    expect(guides.at(-1)!.file).toBe('DECISIONS.md');
    const traits = docs.tags.filter((t: any) => t['x-traitTag']);
    expect(traits.map((t: any) => t.name)).toEqual(guides.map((g) => g.title));
    expect(docs['x-tagGroups'].map((g: any) => g.name)).toEqual(['Guides', 'API reference']);
    const grouped = docs['x-tagGroups'].flatMap((g: any) => g.tags);
    expect(new Set(grouped)).toEqual(new Set(docs.tags.map((t: any) => t.name)));
  });

  test('gives all 6 operations a TypeScript, JavaScript, Python and curl sample, from the sample files', () => {
    const ops = operations(docs);
    expect(ops.map((o) => o.operationId).sort()).toEqual([
      'createConversion',
      'generateVideo',
      'getConversionOptions',
      'getVideo',
      'listVideoSettings',
      'listVideos',
    ]);
    for (const { operationId, operation } of ops) {
      const samples = operation['x-codeSamples'] ?? [];
      expect(
        samples.map((s: any) => s.label),
        operationId,
      ).toEqual(['TypeScript', 'JavaScript', 'Python', 'curl']);
      SAMPLE_LANGUAGES.forEach(({ dir, ext }, i) => {
        expect(samples[i].source).toBe(
          readFileSync(join(packageDir, 'samples', dir, `${operationId}${ext}`), 'utf8').trimEnd() + '\n',
        );
        // Keys come from the environment, never from the sample.
        expect(samples[i].source).not.toMatch(/sandbox-key|Bearer [A-Za-z0-9]/);
      });
      const [ts, js, py, curl] = samples;
      expect(ts.source).toContain("from '@videogen/client'");
      expect(js.source).toContain('await fetch(');
      expect(js.source).toContain('process.env.VIDEO_API_KEY');
      expect(py.source).toContain('import requests');
      expect(py.source).toContain("os.environ['VIDEO_API_KEY']");
      expect(curl.source).toMatch(/^curl /m);
      expect(curl.source).toContain('Bearer $VIDEO_API_KEY');
    }
    expect(orphanSamples(spec)).toEqual([]);
  });

  test('the samples fit the code panel (at most 72 columns)', () => {
    const files = SAMPLE_LANGUAGES.flatMap(({ dir, ext }) =>
      readdirSync(join(packageDir, 'samples', dir))
        .filter((f) => f.endsWith(ext))
        .map((f) => join(dir, f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(26);
    for (const file of files) {
      const text = readFileSync(join(packageDir, 'samples', file), 'utf8');
      expect(
        text.split('\n').filter((l) => l.length > 72),
        file,
      ).toEqual([]);
    }
  });

  test('joins the soft line breaks of paragraphs, so that search snippets keep their spaces', () => {
    expect(joinSoftBreaks('a temporary presigned\n`download_url`, soon\nafter.')).toBe(
      'a temporary presigned `download_url`, soon after.',
    );
    // Blocks stay blocks: lists, tables, fences, indented code, headings, hard breaks.
    const blocks =
      '# T\ntext\n\n1. one\n   more\n2. two\n\n| a |\n|---|\n\n```\nx\ny\n```\n\n    c1\n    c2\n\nhard  \nbreak';
    expect(joinSoftBreaks(blocks)).toBe(
      '# T\ntext\n\n1. one more\n2. two\n\n| a |\n|---|\n\n```\nx\ny\n```\n\n    c1\n    c2\n\nhard  \nbreak',
    );
    const presigned = docs.paths['/videos/{video_id}/'].get.description as string;
    expect(presigned).toMatch(/presigned `download_url`/);
  });

  test('ends list items and table cells with a space Markdown keeps, so that search snippets do not join them', () => {
    const source =
      '1. one\n2. two  \n- [link](x)\n\n| a | b \\| c | |\n|---|:--|\n\n```\n- x\n| y |\n```\n\n    - code';
    expect(spaceBlockEnds(source)).toBe(
      '1. one&#32;\n2. two  \n- [link](x)&#32;\n\n| a&#32; | b \\| c&#32; | |\n|---|:--|\n\n```\n- x\n| y |\n```\n\n    - code',
    );
    const steps = docs.tags.find((t: { name: string }) => t.name === 'Generate, poll, download').description as string;
    expect(steps).toMatch(/\(stop\)\.&#32;$/m);
  });

  test('leaves the bundled document itself untouched', () => {
    const fresh = loadBundledSpec();
    buildDocsSpec(fresh);
    expect(fresh).toEqual(spec);
    expect(JSON.stringify(spec)).not.toContain('x-codeSamples');
  });

  test('refuses a guide whose title clashes with an API tag, and an operation without samples', () => {
    expect(() => buildDocsSpec(spec, { intro: 'x', guides: [{ file: 'x.md', title: 'Videos', body: 'x' }] })).toThrow(
      /clashes/,
    );
    expect(() =>
      buildDocsSpec(spec, loadGuides(), (id: string) => {
        if (id === 'getVideo') throw new Error(`operation ${id} has no sample`);
        return loadSamples(id);
      }),
    ).toThrow(/getVideo/);
  });
});

describe('the twin file format page', () => {
  const page = loadGuides().guides.find((g) => g.title === TWIN_PAGE_TITLE);

  test('is written from the schema: every field, every behaviour with both built-in values, every value type', () => {
    expect(page).toBeDefined();
    const body = page!.body;
    for (const field of Object.keys(TWIN_SCHEMA.properties as object)) expect(body).toContain(`| \`${field}\` |`);
    for (const key of BEHAVIOUR_KEYS) {
      const row = body.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
      expect(row, key).toBeDefined();
      for (const name of ['default', 'alternative'] as const) {
        const value: unknown = builtinTwin(name).behaviours[key].value;
        expect(row).toContain(`\`${typeof value === 'string' ? value : JSON.stringify(value)}\``);
      }
    }
    for (const type of ['Refusal', 'PastEnd', 'RateLimitHeaders', 'Distribution', 'PresignedQuery', 'TransientErrors'])
      expect(body).toContain(`### ${type}\n`);
    expect(body).toContain((TWIN_SCHEMA as { $id: string }).$id);
  });

  test('is in the built site and its plain-text copy', () => {
    expect(read('llms-full.txt')).toContain(`# ${TWIN_PAGE_TITLE}\n`);
    expect(read('index.html')).toContain('rate_limit.A.refused_count');
  });
});

describe('npm run docs', () => {
  test('prints the /docs/ address the README names, serves the site there, and leads there from the root', {
    tags: ['full/processes'],
  }, async () => {
    const child = spawn(process.execPath, [join(packageDir, 'scripts', 'serve.mjs'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const url = /^Docs: (\S+)/.exec(line)?.[1] ?? '';
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs\/$/);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="vg-openapi-source"');
      const root = await fetch(new URL('/', url), { redirect: 'manual' });
      expect([root.status, root.headers.get('location')]).toEqual([302, '/docs/']);
      // The README says the same: the default port, under /docs/.
      const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
      expect(readme).toMatch(/npm run docs .*http:\/\/127\.0\.0\.1:4020\/docs\//);
    } finally {
      child.kill();
    }
  });
});
