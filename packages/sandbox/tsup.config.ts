import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: false,
  // node:fs, not fs: the built-ins' own names, which every runtime resolves.
  removeNodeProtocol: false,
});
