import { build } from 'esbuild';
const r = await build({ entryPoints: ['src/index.ts'], bundle: true, minify: true, format: 'esm', platform: 'node', target: 'node20', write: false, metafile: true, external: [] , logLevel: 'error'});
const out = Object.values(r.metafile.outputs)[0];
const rows = Object.entries(out.inputs).map(([f, i]) => [f.replace(/.*\/(client|openapi)\//, '$1/'), i.bytesInOutput]).sort((a, b) => b[1] - a[1]);
for (const [f, b] of rows.slice(0, 30)) console.log(String(b).padStart(7), f);
console.log(rows.reduce((a, r) => a + r[1], 0));
