// `npm run proxy -- UPSTREAM [prism options]`: Prism's validation proxy on 127.0.0.1:4012 in front of
// UPSTREAM. The tools pointed at it send their keys on to UPSTREAM, so UPSTREAM is held to the rule every
// part of the toolkit holds (5.2, HTTPS only): https, or http to loopback or to a host VIDEO_API_ALLOW_HTTP
// names (the rules' insecureUrlProblem), refused before Prism starts.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ALLOW_HTTP_VARIABLE, allowedHttpHosts, insecureUrlProblem } from '@videogen/openapi/rules';

const [upstream, ...rest] = process.argv.slice(2);
if (!upstream || upstream.startsWith('-')) {
  console.error('usage: npm run proxy -- UPSTREAM [prism proxy options]   (UPSTREAM: the API, including /v1)');
  process.exit(2);
}
let url;
try {
  url = new URL(upstream);
} catch {
  console.error('prism proxy: UPSTREAM is not a URL (the API, including /v1: https://staging.example/v1)');
  process.exit(2);
}
const problem = insecureUrlProblem(url, allowedHttpHosts(process.env[ALLOW_HTTP_VARIABLE]));
if (problem) {
  console.error(`prism proxy: refusing to forward the tools' API keys in the clear: ${problem}`);
  process.exit(2);
}
const spec = fileURLToPath(new URL('../../../openapi/dist/openapi.json', import.meta.url));
const prism = spawn('prism', ['proxy', spec, upstream, '--errors', '-h', '127.0.0.1', '-p', '4012', ...rest], {
  stdio: 'inherit',
});
prism.on('error', (err) => {
  console.error(`prism proxy: could not start prism (${err.message}): run npm ci in the repository`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => prism.kill(signal));
prism.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
