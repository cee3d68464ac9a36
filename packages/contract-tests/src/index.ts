// @videogen/contract-tests as a library: run the suite or plan it from code (the bin, videogen-contract,
// is the usual way: see the README).
export { main as runCli, USAGE } from './cli/main.ts';
export { settingsFrom, externalTarget, envForTarget, type Settings } from './cli/target.ts';
export { launchTarget, startSandboxTarget, sandboxTarget, SANDBOX_TIME_SCALE, type Launched } from './cli/launch.ts';
export { runContract, type ContractRun, type Io } from './commands/run.ts';
export { plans, formatPlans } from './commands/plan.ts';
export { checkTarget, type TargetCheck } from './commands/preflight.ts';
export { preflight, type PreflightResult, type PreflightOptions } from './preflight.ts';
export { coverageOf, type Coverage, type CoverageCell } from './report/coverage.ts';
export { catalogue } from './checks/index.ts';
export { select, type Selection, type PlannedCheck } from './engine/selection.ts';
export { Run } from './engine/run.ts';
export { runCatalogue, type RunResult } from './engine/runner.ts';
export { checkId, type Catalogue, type Check, type Scenario } from './engine/catalogue.ts';
export type {
  CheckResult,
  CheckState,
  Exchange,
  FixtureIds,
  Profile,
  TargetConfig,
  TargetKind,
  TransientAnswer,
  Mismatch,
  Cost,
  GenerationSettings,
} from './shapes.ts';
