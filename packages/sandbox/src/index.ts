export {
  createSandbox,
  startSandbox,
  type SandboxOptions,
  type Sandbox,
  type RunningSandbox,
  type SandboxClock,
  type SandboxFaults,
  type AccountRef,
} from './server.js';
export type { SandboxFetch } from './in-process.js';
export type { ClockView, FaultRequest } from './controls.js';
export { RATE_LIMITER_STYLES, DEFAULT_RATE_LIMITER, type RateLimiterStyle } from './rate-limit.js';
export { SANDBOX_KEYS, type AccountConfig } from './accounts.js';
export { FIXTURES, MAGIC, type AccountFixtures } from './fixtures.js';
export { PERSONALITIES, type PersonalityName } from './personality.js';
export type { TwinSource } from './twin-behaviour.js';
export { TwinError, parseTwin, readTwin, BUILTIN_TWINS, type Twin } from '@videogen/openapi/twin';
export { FAULT_KINDS, type FaultKind, type Fault } from './faults.js';
