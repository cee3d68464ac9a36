// What every generator of this package does with its output: write it, or with `--check` write nothing
// and exit 1 when the committed file differs from what the document gives (the drift check of npm test).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function writeOrCheck(outFile, content) {
  const name = relative(root, outFile);
  if (process.argv.includes('--check')) {
    if (!existsSync(outFile) || readFileSync(outFile, 'utf8') !== content) {
      console.error(`${name} differs from the spec: run \`npm run build -w @videogen/openapi\`.`);
      process.exit(1);
    }
    console.log(`${name} matches the spec.`);
  } else {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, content);
    console.log(`generated ${outFile}`);
  }
}
