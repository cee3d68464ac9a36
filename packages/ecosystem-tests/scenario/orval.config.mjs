// orval's configuration for the matrix: the bundled document in, the fetch client out as one file.
export default {
  videogen: {
    input: { target: process.env.OPENAPI_DOCUMENT },
    output: {
      target: './generated/videogen.ts',
      client: 'fetch',
      mode: 'single',
      override: { mutator: { path: './orval-fetch.ts', name: 'customFetch' } },
    },
  },
};
