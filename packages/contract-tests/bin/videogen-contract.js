#!/usr/bin/env node
// The bin is this committed launcher, not dist/cli.js: `npm ci` runs before the build, and npm links
// no bin whose file does not exist yet, so a fresh clone would have no `videogen-contract` command (and
// `npx videogen-contract` would ask the registry for a package of that name).
try {
  await import('../dist/cli.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli.js')) {
    console.error('videogen-contract is not built yet: run "npm run build" (or "npm start") at the repository root.');
    process.exit(1);
  }
  throw err;
}
