// Bundle size: the client with every helper against openapi-fetch alone (esbuild, minified, gzipped).
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
async function size(contents) {
  const r = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  const code = r.outputFiles[0].contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}
export async function bundleSize() {
  // The client entry, importing everything it exports (every helper kept alive).
  const client = await size(`import * as c from './dist/index.js'; globalThis.keep = c;`);
  // openapi-fetch alone, as its users ship it (createClient), and with every export.
  const base = await size(`import createClient from 'openapi-fetch'; globalThis.keep = createClient;`);
  const baseAll = await size(`import * as f from 'openapi-fetch'; globalThis.keep = f;`);
  return { client, base, baseAll, ratio: client.gz / base.gz };
}
if (import.meta.url === `file://${process.argv[1]}`) console.log(await bundleSize());
