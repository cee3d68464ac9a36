export { startSandbox, type SandboxOptions, type RunningSandbox } from './server.js';
export { SANDBOX_KEYS, type AccountConfig } from './accounts.js';
export { FIXTURES, MAGIC, type AccountFixtures } from './fixtures.js';
