import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  // The hashbang lives in src/cli.ts; tsup keeps it and marks dist/cli.js executable.
  dts: false,
  sourcemap: false,
});
