import { build } from 'esbuild';
for (const name of ['isVideoApiError', 'LANGUAGES', 'VideoApiError', 'createClient']) {
  const r = await build({ stdin: { contents: `import { ${name} } from './dist/index.js'; globalThis.k = ${name};`, resolveDir: '.' }, bundle: true, minify: true, format: 'esm', platform: 'node', write: false, external: ['openapi-fetch'] });
  console.log(name, r.outputFiles[0].text.length, /UPLOAD_LIMITS|pdf_file|ratelimit/.test(r.outputFiles[0].text));
}
