import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

/** The entries of the build; the pacing proxy's (src/proxy/, `videogen-contract proxy`) once it exists. */
export function entries(dir = process.cwd()): Record<string, string> {
  return {
    index: 'src/index.ts',
    // The bin (dist/cli.js).
    cli: 'src/cli/bin.ts',
    // Its own module, loaded by the bin only when asked (dist/proxy/index.js).
    ...(existsSync(join(dir, 'src/proxy/index.ts')) ? { 'proxy/index': 'src/proxy/index.ts' } : {}),
  };
}

export default defineConfig({
  entry: entries(),
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Types for the library and the proxy's programmatic API (startPacingProxy: `@videogen/contract-tests/proxy`).
  dts: { entry: Object.fromEntries(Object.entries(entries()).filter(([name]) => name !== 'cli')) },
  clean: true,
  splitting: true,
  removeNodeProtocol: false,
});
