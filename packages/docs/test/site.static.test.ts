// The built page without a browser: self-contained (nothing loaded from a CDN), relative links only,
// and the docs copy of the document carries the guides, tag groups and every code sample.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  buildDocsSpec,
  loadBundledSpec,
  loadGuides,
  loadSamples,
  operations,
  orphanSamples,
  packageDir,
} from '../scripts/docs-spec.mjs';

const distIndex = join(packageDir, 'dist', 'index.html');

function html(): string {
  if (!existsSync(distIndex)) throw new Error(`${distIndex} is missing: run "npm run build -w @videogen/docs" first`);
  return readFileSync(distIndex, 'utf8');
}

describe('dist/index.html works offline', () => {
  test('is one self-contained file with Redoc inlined', () => {
    const size = statSync(distIndex).size;
    // ~2.7 MB with Redoc inlined; a CDN build would be ~0.3 MB.
    expect(size).toBeGreaterThan(1_500_000);
    expect(size).toBeLessThan(6_000_000);
    const page = html();
    expect(page).toMatch(/<script type="module">[\s\S]*hydrate\(__redoc_definition/);
    expect(page).toContain('"disableTelemetry":true');
  });

  test('loads no script, stylesheet, font or image from the network', () => {
    const page = html();
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

  test('embeds the bundled document for "Download OpenAPI", current with the bundle', () => {
    const m = /<script type="application\/json" id="vg-openapi-source">([\s\S]*?)<\/script>/.exec(html());
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1]!)).toEqual(loadBundledSpec());
  });
});

describe('the docs copy of the document', () => {
  const spec = loadBundledSpec();
  const { guides } = loadGuides();
  const docs = buildDocsSpec(spec);

  test('has a guide tag (x-traitTag) per guide, and tag groups covering every tag', () => {
    expect(guides.map((g) => g.title)).toEqual([
      'Quickstart',
      'Authentication and API keys',
      'Generate, poll, download',
      'Converting videos',
      'Errors and retries',
      'Limits',
      'The sandbox',
      'Running the contract suite against staging',
      'Outside tools within the limits',
      'Decisions where the interface is silent (DECISIONS.md)',
    ]);
    const traits = docs.tags.filter((t: any) => t['x-traitTag']);
    expect(traits.map((t: any) => t.name)).toEqual(guides.map((g) => g.title));
    expect(docs['x-tagGroups'].map((g: any) => g.name)).toEqual(['Guides', 'API reference']);
    const grouped = docs['x-tagGroups'].flatMap((g: any) => g.tags);
    expect(new Set(grouped)).toEqual(new Set(docs.tags.map((t: any) => t.name)));
  });

  test('gives all 6 operations a TypeScript and a curl sample, from the sample files', () => {
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
      ).toEqual(['TypeScript', 'curl']);
      expect(samples[0].source).toBe(
        readFileSync(join(packageDir, 'samples', `${operationId}.ts`), 'utf8').trimEnd() + '\n',
      );
      expect(samples[0].source).toContain("from '@videogen/client'");
      expect(samples[1].source).toMatch(/^curl /m);
      // Keys come from the environment, never from the sample.
      expect(samples[0].source).not.toMatch(/sandbox-key|Bearer [A-Za-z0-9]/);
      expect(samples[1].source).toContain('Bearer $VIDEO_API_KEY');
    }
    expect(orphanSamples(spec)).toEqual([]);
  });

  test('the samples fit the code panel (at most 72 columns)', () => {
    const files = [
      ...readdirSync(join(packageDir, 'samples')).filter((f) => f.endsWith('.ts')),
      ...readdirSync(join(packageDir, 'samples', 'curl')).map((f) => join('curl', f)),
    ];
    expect(files.length).toBeGreaterThanOrEqual(14);
    for (const file of files) {
      const text = readFileSync(join(packageDir, 'samples', file), 'utf8');
      expect(
        text.split('\n').filter((l) => l.length > 72),
        file,
      ).toEqual([]);
    }
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
