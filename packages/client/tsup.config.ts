import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // The rules module (@videogen/openapi/rules, a dev dependency) is inlined in the JS and in the types,
  // so that a consumer of the packed client needs no private package.
  dts: {
    resolve: [/^@videogen\/openapi/],
    compilerOptions: { baseUrl: '.', paths: { '@videogen/openapi/rules': ['../../openapi/rules/src/index.ts'] } },
  },
  clean: true,
  treeshake: true,
  removeNodeProtocol: false,
  // openapi-fetch stays a runtime dependency, never inlined.
  external: ['openapi-fetch'],
});
