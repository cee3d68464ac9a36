export { startSandbox, startSandbox as createSandbox, type SandboxOptions, type RunningSandbox } from './server.js';
export { RATE_LIMITER_STYLES, DEFAULT_RATE_LIMITER, type RateLimiterStyle } from './rate-limit.js';
export { SANDBOX_KEYS, type AccountConfig } from './accounts.js';
export { FIXTURES, MAGIC, type AccountFixtures } from './fixtures.js';
export { PERSONALITIES, type PersonalityName } from './personality.js';
export { FAULT_KINDS, type FaultKind } from './faults.js';
