// `npm run build`: writes the docs copy of the bundled document (guides and samples injected), then
// renders it with `redocly build-docs --inlineBundle` into one self-contained dist/index.html.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocsSpec, loadBundledSpec, orphanSamples, packageDir } from './docs-spec.mjs';

const distDir = join(packageDir, 'dist');
const outFile = join(distDir, 'index.html');
const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

// Redoc 3 shows a "API docs by Redocly" badge whose logo it loads from a CDN. The page must load
// nothing from the network, so the badge keeps its link and gets a local, inline logo instead.
const CDN_LOGOS = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];
const LOCAL_LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="52" height="14" viewBox="0 0 52 14">' +
      '<text x="0" y="11" font-family="system-ui,sans-serif" font-size="11" font-weight="600" fill="#6e6f7a">Redocly</text></svg>',
  );

const spec = loadBundledSpec();
const orphans = orphanSamples(spec);
if (orphans.length) throw new Error(`samples without an operation: ${orphans.join(', ')}`);
const docsSpec = buildDocsSpec(spec);

const work = mkdtempSync(join(tmpdir(), 'videogen-docs-'));
try {
  const docsSpecFile = join(work, 'openapi.docs.json');
  writeFileSync(docsSpecFile, JSON.stringify(docsSpec, null, 2));

  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  execFileSync(
    process.execPath,
    [
      redocly,
      'build-docs',
      docsSpecFile,
      '--config',
      join(packageDir, 'redocly.yaml'),
      '--lint-config',
      'off',
      '--template',
      join(packageDir, 'template.hbs'),
      '--title',
      `${spec.info.title} — reference and guides`,
      '--inlineBundle',
      '--output',
      outFile,
    ],
    {
      cwd: packageDir,
      // The Node 20 end-of-life banner and the "now Redoc 3" notice go to stderr; keep errors visible.
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    },
  );
} catch (error) {
  const stderr = error?.stderr?.toString?.() ?? '';
  console.error(
    stderr
      .split('\n')
      .filter((l) => l.trim() && !/[║╔╚]/.test(l))
      .join('\n'),
  );
  console.error(`docs: redocly build-docs failed (exit ${error?.status ?? '?'})`);
  process.exit(1);
} finally {
  rmSync(work, { recursive: true, force: true });
}

let html = readFileSync(outFile, 'utf8');
for (const url of CDN_LOGOS) html = html.split(url).join(LOCAL_LOGO);

// The bundled document itself (not the docs copy) for the "Download OpenAPI" link of the site bar.
const marker = '<!--VIDEOGEN_OPENAPI_SOURCE-->';
if (!html.includes(marker)) throw new Error(`template.hbs lost its ${marker} marker`);
const embedded = JSON.stringify(spec, null, 2).replace(/</g, '\\u003c');
html = html.replace(marker, () => `<script type="application/json" id="vg-openapi-source">${embedded}</script>`);
writeFileSync(outFile, html);

const kib = Math.round(statSync(outFile).size / 1024);
console.log(`docs: ${outFile} (${kib} KiB, ${docsSpec['x-tagGroups'][0].tags.length} guides, self-contained)`);
