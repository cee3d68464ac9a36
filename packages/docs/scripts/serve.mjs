// `npm run serve` (and `npm run docs` at the root): serve dist/ on loopback under /docs/, the path the
// sandbox serves them at (the root leads there), and print that URL.
// Usage: node scripts/serve.mjs [--port 4020] [--host 127.0.0.1]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startStaticServer } from './static-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '4020' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

if (!existsSync(join(root, 'index.html'))) {
  console.error(
    `No ${join(root, 'index.html')}: run "npm run build -w @videogen/docs" (or "npm run docs" at the root) first.`,
  );
  process.exit(1);
}

const server = await startStaticServer({ root, prefix: '/docs', host: values.host, port: Number(values.port) });
console.log(`Docs: ${server.url}  (Ctrl+C to stop)`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close().then(() => process.exit(0)));
}
