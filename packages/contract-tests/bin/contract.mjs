#!/usr/bin/env node
// Runs the contract suite with vitest: against VIDEO_API_BASE_URL when set, else against the
// sandbox started for the run, or (--prism) against the Prism mock started for the run.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startVitest } from 'vitest/node';
import { addDriftToJUnit } from './junit-drift.mjs';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  process.stdout.write(`usage: contract [--prism] [vitest filters…]
       contract --replay FILE [--target sandbox]   re-send a failure bundle (test-results/failures/) and re-check
       contract --plan                             requests, credits and floor wall time per profile; nothing sent
       contract --har FILE                         check recorded traffic (HAR or JSON lines) offline, nothing sent
       contract --seed                             full profile only: create a completed video and a conversion once, write their ids
                                                   to test-results/fixtures.json (CONTRACT_FIXTURES_FILE) for later read-only runs

  VIDEO_API_BASE_URL            target, including /v1 (unset: start the sandbox)
  VIDEO_API_KEY                 API key (never printed)
  VIDEO_API_OTHER_ACCOUNT_KEY   key of a second account (isolation checks)
  CONTRACT_PROFILE              read-only | full
  CONTRACT_*                    fixtures: see README.md
`);
  process.exit(0);
}
const root = dirname(dirname(fileURLToPath(import.meta.url)));
if (args.includes('--replay') || args.includes('--har') || args.includes('--plan') || args.includes('--seed')) {
  // Not a vitest run: load the TypeScript command module through Vite's module runner.
  // (a runner kept open for the whole command: the commands import modules lazily, e.g. the sandbox).
  const { createServer, createServerModuleRunner } = await import('vite');
  const server = await createServer({ root, configFile: false, logLevel: 'error', appType: 'custom', server: { middlewareMode: true, hmr: false, ws: false } });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  let code = 2;
  try {
    const module = await runner.import(join(root, 'src/commands.ts'));
    code = await module.runCommand(args);
  } catch (err) {
    process.stderr.write(`contract: ${err.message}\n`);
  }
  await runner.close();
  await server.close();
  process.exit(code);
}
if (args.includes('--prism')) {
  if (process.env.VIDEO_API_BASE_URL) {
    process.stderr.write('--prism starts its own mock: unset VIDEO_API_BASE_URL\n');
    process.exit(2);
  }
  process.env.CONTRACT_TARGET = 'prism';
}
const filters = args.filter((a) => a !== '--prism');
process.chdir(root);
const vitest = await startVitest('test', filters, { config: 'vitest.contract.config.ts', run: true, watch: false });
// The drift report's entries (already redacted) as their own section of the JUnit XML.
const driftFile = process.env.CONTRACT_DRIFT_FILE ?? 'test-results/drift.md';
addDriftToJUnit(process.env.CONTRACT_JUNIT_FILE ?? 'test-results/junit.xml', driftFile.replace(/\.md$/, '') + '.json');
const failed = !vitest || vitest.state.getCountOfFailedTests() > 0 || vitest.state.getUnhandledErrors().length > 0 || process.exitCode;
await vitest?.close();
process.exit(failed ? 1 : 0);
