// This package's version, read from its manifest (the built bin sits in dist/, the sources in src/cli/).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function version(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === '@videogen/contract-tests') return pkg.version;
    }
  }
  return 'unknown';
}
