// The tags of the tests, defined once and read by every package's vitest.config.ts (vitest refuses a tag it
// does not know). The fast lane (`npm run test:fast`, the root vitest.config.ts) leaves out every `full/*`
// tag; `npm test` runs everything; .ci/run's Node 22/24 legs run the client whole and, of the CLI and the
// contract suite, the tests tagged `node-versions`. A test file carries tags on its first lines (one
// `// @module-tag full/browser` line each); a single test or describe block takes `{ tags: ['full/tools'] }`.
export const TAGS = [
  { name: 'full/browser', description: "drives Debian's chromium through playwright-core" },
  { name: 'full/packed', description: 'packs a package (npm pack) or installs packed tarballs into fresh projects' },
  { name: 'full/runtimes', description: 'runs other runtimes: Node 22 and 24, Bun, Deno, workerd' },
  {
    name: 'full/tools',
    description:
      'starts an outside tool: Prism, the Redocly CLI, redis-server, python3, curl, the TypeScript compiler (tsc) or a nested vitest run on samples, the generators and runners of ecosystem-tests',
  },
  {
    name: 'full/processes',
    description:
      'runs a command line of ours (videogen, videogen-contract, videogen-sandbox) as a child process, end to end',
  },
  { name: 'full/replicas', description: 'the replica matrix: many processes of one account, sharing Redis' },
  {
    name: 'node-versions',
    description:
      "exercises what can differ between Node versions (fetch and undici, streams, node:http, TLS, the built bins): .ci/run's Node 22 and 24 legs run these",
  },
  {
    name: 'full/clone',
    description:
      'a fresh clone of the repository, installed offline from npm’s cache, where the documented commands run',
  },
  {
    name: 'full/runs',
    description:
      'whole contract runs against sandboxes of their own, several per file (budgets, faults, generated requests, fresh accounts): CPU the fast lane leaves to npm test',
  },
  {
    name: 'full/matrix',
    description:
      'whole contract runs repeated over a matrix: both personalities under every limiter style, one per deliberate break',
  },
];

/**
 * Files of one package run side by side in `npm test` (its packages' vitest.config.ts), where the tests
 * mostly wait on sockets, sandboxes and child processes rather than on the CPU. turbo runs two packages at
 * a time, so about four files share the two cores; vitest's default (cores - 1) would run one.
 */
export const FILES_AT_ONCE = 2;

/**
 * Spread into a package's test config: its files share their workers (vitest's `isolate: false`), so that
 * a worker keeps the modules it loaded (the spec, Ajv, Fastify, the sandbox) from one file to the next
 * instead of loading them again in a new process per file. Its tests restore what they change of the
 * process (environment variables, timers, the tracer provider), and the client keys its pacers by clock,
 * so that a new sandbox on a reused port starts a fresh schedule. Measured alone, each package's whole
 * `vitest run` with and without: the sandbox 72 → 57 s (112 → 89 s of CPU), the client 41 → 27 s
 * (55 → 29), openapi 28 → 16 s (35 → 21), the MCP server 20 → 17 s (23 → 15), the relay 29 → 30 s (30 → 23);
 * the contract suite's self-test (`npm test` there, with alternative.test.ts's uploads at the plans' limits
 * under one limiter style instead of four) 412 → 382 s (377 → 319 s of CPU).
 */
export const SHARED_WORKERS = { isolate: false } as const;
