// The fast lane, `npm run test:fast`: the unit and in-process tests of every package in one vitest run
// over the packages' own configs (vitest projects), without the tests tagged `full/*` in vitest.shared.ts
// (a browser, packing, other runtimes, outside tools, our command lines run as child processes, the
// replica matrix, the contract suite's whole runs).
// A budget for people: 90 s on two idle cores with the build cached (README). `npm test` and .ci/run
// still run everything, package by package, with each package's own config.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SHARED_WORKERS, TAGS } from './vitest.shared.js';

/** Files running at once across the lane's packages (see maxWorkers below). */
const WORKERS = 6;

/**
 * A package of the lane, from its own config, with the lane's one number of workers (vitest runs projects
 * side by side only when they agree on it; `npm test`'s per-package FILES_AT_ONCE differs between packages).
 * `shareWorkers`: its files share their workers here as the packages' own configs do for openapi, the
 * client, the sandbox, the relay and the MCP server (SHARED_WORKERS in vitest.shared.ts). The contract
 * suite's and the CLI's files do so in the lane only, since their whole runs and child processes
 * (`full/runs`, `full/processes`) are not in it: two lane runs of the suite's files without isolation at
 * load 17-24 had met fresh-account counting 6 credits for 5 and plan skips it did not announce.
 */
const project = (
  dir: string,
  shareWorkers = false,
  env: Record<string, string> = {},
): TestProjectInlineConfiguration => ({
  extends: `./${dir}/vitest.config.ts`,
  test: {
    name: JSON.parse(readFileSync(new URL(`./${dir}/package.json`, import.meta.url), 'utf8')).name,
    root: `./${dir}`,
    maxWorkers: WORKERS,
    ...(shareWorkers && SHARED_WORKERS),
    env,
  },
});

/**
 * Left out of the lane whole: every test of theirs is tagged `full/*`, and their globalSetup packs tarballs
 * or prepares runtimes before any test, whatever the filter.
 */
const LEFT_OUT = ['packages/release', 'packages/runtime-tests', 'packages/ecosystem-tests', 'packages/replica-tests'];

/** Every package with a vitest config but those: a new package is in the lane by having one. */
const LANE_PACKAGES = ['openapi', ...readdirSync(new URL('./packages/', import.meta.url)).map((n) => `packages/${n}`)]
  .filter((dir) => existsSync(new URL(`./${dir}/vitest.config.ts`, import.meta.url)))
  .filter((dir) => !LEFT_OUT.includes(dir));

/** Packages whose files share workers in the lane only (see `project`). */
const SHARED_IN_LANE_ONLY = ['packages/contract-tests', 'packages/cli'];

/**
 * The lane's thoroughness where a test reads one from the environment: the sandbox's fuzz test sends 2,500
 * generated requests here where npm test sends its default 10,000 (about 3 ms of CPU each, client and server).
 */
const LANE_ENV: Record<string, Record<string, string>> = {
  'packages/sandbox': { FUZZ_REQUESTS: '2500' },
};

/**
 * The packages with the longest files first (longest processing time first, by package: a package's files
 * stay together as vitest keeps them, so that its shared workers load its modules once; interleaving every
 * file by duration cost 30 s more CPU). vitest's own order is by package name, which left the sandbox's
 * fuzz test (20 s) to start 70 s in and end the lane alone. Durations are those of each file's last run
 * (vitest's results cache); with none known, vitest's order.
 */
class LongestPackageFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const longest = new Map<string, number>();
    for (const spec of ordered) {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const duration = this.ctx.cache.getFileTestResults(key)?.duration ?? 0;
      longest.set(spec.project.name, Math.max(longest.get(spec.project.name) ?? 0, duration));
    }
    const rank = (spec: TestSpecification) => longest.get(spec.project.name) ?? 0;
    // Array.prototype.sort is stable: within a package, vitest's order stays.
    return ordered.sort((a, b) => rank(b) - rank(a));
  }
}

export default defineConfig({
  test: {
    projects: LANE_PACKAGES.map((dir) => project(dir, SHARED_IN_LANE_ONLY.includes(dir), LANE_ENV[dir])),
    tags: TAGS,
    sequence: { sequencer: LongestPackageFirst },
    // Files are parsed before they run, so that a file whose every test the tag filter leaves out is not
    // loaded at all (the docs' browser files alone import playwright-core): 37 fewer files, 50 s less CPU.
    // The lane passed the same 1151 tests with it as without.
    experimental: { preParse: true },
    // Across packages, files run side by side (npm run test:fast adds --file-parallelism over the packages'
    // own one-at-a-time): much of their time is spent waiting on sockets and paced requests (about 1.7 cores
    // busy on average on two; 8 at once was slower).
    maxWorkers: WORKERS,
  },
});
