// The docs' llms.txt and llms-full.txt (written by packages/docs/scripts/build.mjs from the guides and
// the document) ship inside the package, served as MCP resources: a model reads them without the
// network. @videogen/docs is a dev dependency, so turbo builds the docs first.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const from = join(here, '../../docs/dist');
const to = join(here, '../dist/docs');
mkdirSync(to, { recursive: true });
for (const name of ['llms.txt', 'llms-full.txt']) {
  const source = join(from, name);
  if (!existsSync(source)) {
    console.error(`copy-docs: ${source} is missing: build the docs first (npm run build -w @videogen/docs).`);
    process.exit(1);
  }
  copyFileSync(source, join(to, name));
}
