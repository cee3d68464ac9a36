import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // @videogen/openapi (a dev dependency) is inlined, as in the client: its rules in the JS, its types in
  // the declarations, so that a consumer of the packed server needs no other package of ours but the client.
  dts: {
    resolve: [/^@videogen\/openapi/],
    compilerOptions: {
      baseUrl: '.',
      paths: {
        '@videogen/openapi/rules': ['../../openapi/rules/src/index.ts'],
        '@videogen/openapi/types': ['../../openapi/types/src/index.ts'],
      },
    },
  },
  clean: true,
  treeshake: true,
  removeNodeProtocol: false,
  // The SDK, zod and the client stay runtime dependencies, never inlined.
  external: [/^@modelcontextprotocol\//, 'zod', '@videogen/client', '@videogen/pacer-redis'],
});
