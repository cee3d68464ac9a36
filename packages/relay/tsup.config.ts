import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/defaults.ts'],
  splitting: true,
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // @videogen/openapi (a dev dependency) is inlined, as in the client: the rules in the JS and the types,
  // so that an install needs no other package of ours than those it declares.
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
  external: [
    '@opentelemetry/api',
    '@videogen/client',
    '@videogen/pacer-redis',
    'ioredis',
    'proper-lockfile',
    'standardwebhooks',
  ],
});
