import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', webhooks: 'src/webhooks-entry.ts' },
  splitting: true,
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // @videogen/openapi (a dev dependency) is inlined: its rules in the JS and the types, the document's
  // types (@videogen/openapi/types) in the types, so that a consumer of the packed client needs no
  // other package of ours.
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
  // The runtime dependencies stay dependencies, never inlined.
  external: ['openapi-fetch', '@opentelemetry/api', 'standardwebhooks'],
});
