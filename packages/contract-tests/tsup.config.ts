import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // The bin (dist/cli.js).
    cli: 'src/cli/bin.ts',
    // The pacing proxy (`videogen-contract proxy`), its own module, loaded by the bin only when asked.
    ...(existsSync('src/proxy/index.ts') ? { 'proxy/index': 'src/proxy/index.ts' } : {}),
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  splitting: true,
  removeNodeProtocol: false,
});
