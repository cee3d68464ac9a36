// Bundles openapi.yaml into one self-contained document (dist/openapi.json and dist/openapi.yaml)
// so that no consumer resolves $refs across files by hand. Output is deterministic.
// Arazzo workflow files beside it (*.arazzo.yaml) are copied next to the bundle, where their
// source description `./openapi.yaml` is the bundled document (the package exports dist/*.yaml), and so
// is the lint configuration, whose `root: ./openapi.yaml` is then the bundle: users of the package lint
// it with the document's own rules (`redocly lint --config …/dist/redocly.yaml`), and with the problems
// it ignores one by one (`.redocly.lint-ignore.yaml`, read from beside the configuration); the Spectral
// ruleset goes along (`.spectral.yaml`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(root, 'dist'));
const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

mkdirSync(outDir, { recursive: true });
for (const ext of ['json', 'yaml']) {
  execFileSync(
    process.execPath,
    [redocly, 'bundle', join(root, 'openapi.yaml'), '--output', join(outDir, `openapi.${ext}`)],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
}
const copied = [
  'redocly.yaml',
  '.redocly.lint-ignore.yaml',
  '.spectral.yaml',
  ...readdirSync(root)
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .sort(),
];
for (const f of copied) copyFileSync(join(root, f), join(outDir, f));
console.log(`bundled openapi.yaml -> ${outDir}/openapi.{json,yaml}; copied ${copied.join(', ')}`);
