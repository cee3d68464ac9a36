// The fast lane, `npm run test:fast`: the unit and in-process tests of every package in one vitest run
// over the packages' own configs (vitest projects), without the tests tagged `full/*` in vitest.shared.ts
// (a browser, packing, other runtimes, outside tools, our command lines run as child processes, the
// replica matrix, matrix runs of the contract suite).
// A budget for people: 90 s on two idle cores with the build cached (README). `npm test` and .ci/run
// still run everything, package by package, with each package's own config.
import { readFileSync } from 'node:fs';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { TAGS } from './vitest.shared.js';

/** Files running at once across the lane's packages (see maxWorkers below). */
const WORKERS = 6;

/**
 * A package of the lane, from its own config, with the lane's one number of workers (vitest runs projects
 * side by side only when they agree on it; `npm test`'s per-package FILES_AT_ONCE differs between packages).
 * `shareWorkers`: its files share their workers here (isolate: false): a worker keeps the modules it loaded
 * (the spec, Ajv, the sandbox) from one file to the next instead of loading them again in a new process
 * per file, most of the lane's CPU in small files (openapi's 17 rule files: 13.1 s of CPU, 6.1 s shared).
 * Their tests restore what they change of the process (environment variables, timers, the tracer
 * provider), and the client keys its pacers by clock, so that a new sandbox on a reused port starts a
 * fresh schedule. The contract suite's files stay isolated: two lane runs without isolation at load 17-24
 * met fresh-account counting 6 credits for 5 and plan skips it did not announce (not seen isolated, though
 * plan and generated fail under such load isolated too).
 */
const project = (dir: string, shareWorkers = false): TestProjectInlineConfiguration => ({
  extends: `./${dir}/vitest.config.ts`,
  test: {
    name: JSON.parse(readFileSync(new URL(`./${dir}/package.json`, import.meta.url), 'utf8')).name,
    root: `./${dir}`,
    maxWorkers: WORKERS,
    ...(shareWorkers && { isolate: false }),
  },
});

export default defineConfig({
  test: {
    // release, runtime-tests, ecosystem-tests and replica-tests are left out whole: every test of theirs is
    // tagged, and their globalSetup packs tarballs or prepares runtimes before any test, whatever the filter.
    projects: [
      ...['openapi', 'packages/client', 'packages/sandbox', 'packages/relay', 'packages/mcp'].map((dir) =>
        project(dir, true),
      ),
      ...[
        'packages/contract-tests',
        'packages/cli',
        'packages/docs',
        'packages/pacer-redis',
        'packages/clone-tests',
      ].map((dir) => project(dir)),
    ],
    tags: TAGS,
    // Across packages, files run side by side (npm run test:fast adds --file-parallelism over the packages'
    // own one-at-a-time): most of their time is spent waiting on sockets and paced requests, not on the CPU
    // (about 1.2 cores busy on average on two).
    maxWorkers: WORKERS,
  },
});
