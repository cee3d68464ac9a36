// `npm run mock` (this package's script, and the root's; `npm run proxy` is prism-proxy.mjs, which checks
// its upstream first): Prism on the bundled document, on 127.0.0.1:4011 (mock) or 127.0.0.1:4012 (proxy,
// answering 500 VIOLATIONS for a response that breaks the contract) unless `--port N` / `--host H` say otherwise; any other argument is
// Prism's. A script rather than the command written in package.json, so that a second mock can take
// another port (`npm run mock -- --port 4111`) instead of a second `-p` that Prism refuses.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULTS = { mock: 4011, proxy: 4012 };
const [mode, ...rest] = process.argv.slice(2);
if (!(mode in DEFAULTS)) {
  console.error('usage: node scripts/prism.mjs mock|proxy [UPSTREAM] [--port N] [--host H] [PRISM OPTIONS…]');
  process.exit(2);
}
let port = String(DEFAULTS[mode]);
let host = '127.0.0.1';
const passed = [];
for (let i = 0; i < rest.length; i++) {
  const a = rest[i];
  if (a === '--port' || a === '-p') port = rest[++i];
  else if (a.startsWith('--port=')) port = a.slice('--port='.length);
  else if (a === '--host') host = rest[++i];
  else if (a.startsWith('--host=')) host = a.slice('--host='.length);
  else passed.push(a);
}
if (!/^\d+$/.test(port ?? '') || Number(port) > 65535) {
  console.error(`--port must be a port number (0-65535), not ${port}`);
  process.exit(2);
}
const require = createRequire(import.meta.url);
const manifestFile = require.resolve('@stoplight/prism-cli/package.json');
const { bin } = require(manifestFile);
const prism = join(dirname(manifestFile), typeof bin === 'string' ? bin : bin.prism);
const spec = fileURLToPath(new URL('../../../openapi/dist/openapi.json', import.meta.url));
// proxy: the upstream first, as Prism takes it; --errors turns every violation into a 500.
const args = mode === 'mock' ? ['mock', spec] : ['proxy', spec, ...passed.splice(0, 1), '--errors'];
const child = spawn(process.execPath, [prism, ...args, '-h', host, '-p', port, ...passed], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
