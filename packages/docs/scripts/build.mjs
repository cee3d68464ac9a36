// `npm run build`: writes the docs copy of the bundled document (guides and samples injected), renders it
// with `redocly build-docs --inlineBundle` into one self-contained dist/index.html, inlines the "Try it"
// console (console/, bundled with esbuild), and writes the flow page (flow.html), llms.txt and
// llms-full.txt beside it. Every page is self-contained: nothing is loaded from the network.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocsSpec, loadBundledSpec, loadGuides, orphanSamples, packageDir } from './docs-spec.mjs';
import { bundleScript, inlineScript, inlineStyle } from './inline.mjs';
import { llmsFull, llmsIndex } from './llms.mjs';

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

/** Replaces a marker of a template, which must be there exactly once. */
function replaceMarker(page, marker, text, file) {
  if (page.split(marker).length !== 2) throw new Error(`${file} must hold the marker ${marker} exactly once`);
  return page.replace(marker, () => text);
}

// The bundled document itself (not the docs copy) for the "Download OpenAPI" link and the console.
const embedded = `<script type="application/json" id="vg-openapi-source">${JSON.stringify(spec, null, 2).replace(/</g, '\\u003c')}</script>`;
html = replaceMarker(html, '<!--VIDEOGEN_OPENAPI_SOURCE-->', embedded, 'template.hbs');

// The console runs before Redoc hydrates (a classic script before a module), so that Redoc is handed
// the servers of the origin the page is served from.
const style = inlineStyle(
  ['site.css', 'console.css'].map((f) => readFileSync(join(packageDir, 'console', f), 'utf8')).join('\n'),
);
const consoleScript = inlineScript(await bundleScript(join(packageDir, 'console', 'main.ts')));
html = replaceMarker(html, '<!--VIDEOGEN_CONSOLE-->', `${style}\n${consoleScript}`, 'template.hbs');
const HYDRATE = 'hydrate(__redoc_definition,';
if (html.split(HYDRATE).length !== 2)
  throw new Error(`Redoc's page no longer calls ${HYDRATE} once: update scripts/build.mjs`);
html = html.replace(
  HYDRATE,
  () => 'hydrate(window.vgPatchDefinition ? window.vgPatchDefinition(__redoc_definition) : __redoc_definition,',
);
writeFileSync(outFile, html);

// "Try the flow": its own page, with the same document, styles and target panel.
let flow = readFileSync(join(packageDir, 'flow.html'), 'utf8');
flow = replaceMarker(flow, '<!--VIDEOGEN_OPENAPI_SOURCE-->', embedded, 'flow.html');
flow = replaceMarker(
  flow,
  '<!--VIDEOGEN_FLOW-->',
  `${style}\n${inlineScript(await bundleScript(join(packageDir, 'console', 'flow.ts')))}`,
  'flow.html',
);
writeFileSync(join(distDir, 'flow.html'), flow);

// For assistants: the document and the guides as plain text (llmstxt.org).
const guides = loadGuides();
writeFileSync(join(distDir, 'llms.txt'), llmsIndex(spec, guides));
writeFileSync(join(distDir, 'llms-full.txt'), llmsFull(spec, guides));
writeFileSync(join(distDir, 'openapi.json'), JSON.stringify(spec, null, 2));

const kib = (file) => Math.round(statSync(join(distDir, file)).size / 1024);
console.log(
  `docs: ${distDir}: index.html ${kib('index.html')} KiB, flow.html ${kib('flow.html')} KiB, llms.txt ${kib('llms.txt')} KiB, llms-full.txt ${kib('llms-full.txt')} KiB (${docsSpec['x-tagGroups'][0].tags.length} guides, self-contained)`,
);
