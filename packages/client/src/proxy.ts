// HTTPS_PROXY / HTTP_PROXY / NO_PROXY on Node. Node's fetch ignores them (before 22.21, and after it
// unless NODE_USE_ENV_PROXY=1), so when one is set the client sends through undici's
// EnvHttpProxyAgent, which reads all three: no proxy code of our own. undici is an optional
// dependency, loaded only here, only on Node, only when a proxy variable is set: a bundle for a
// browser or a Worker never contains it. Bun and Deno read the variables themselves; a Worker has
// no proxy to go through.
import { builtin } from './runtime.js';

type Env = Record<string, string | undefined>;
let shared: { key: string; dispatcher: object } | undefined;

const isNode = () => {
  const g = globalThis as { Bun?: unknown; Deno?: unknown; process?: { release?: { name?: string } } };
  return g.Bun === undefined && g.Deno === undefined && g.process?.release?.name === 'node';
};

/** Node 22.21+ (and 24) with NODE_USE_ENV_PROXY=1 or --use-env-proxy: its own fetch already proxies. */
function nodeReadsProxyEnv(env: Env): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string }; execArgv?: string[] } }).process;
  const [major, minor] = (p?.versions?.node ?? '0.0').split('.').map(Number);
  const recent = major >= 24 || (major === 22 && minor >= 21);
  return recent && (env.NODE_USE_ENV_PROXY === '1' || !!p?.execArgv?.includes('--use-env-proxy'));
}

/**
 * The dispatcher that honours the proxy variables, when the client needs one: on Node, with
 * HTTPS_PROXY or HTTP_PROXY (any case) set, unless Node's own fetch reads them. One per process (per
 * set of variables), so that every client shares its connections.
 */
export function envProxyDispatcher(env: Env): object | undefined {
  const vars = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map(
    (n) => env[n] ?? '',
  );
  if (!vars.slice(0, 4).some(Boolean) || !isNode() || nodeReadsProxyEnv(env)) return undefined;
  const key = vars.join('\n');
  if (shared?.key === key) return shared.dispatcher;
  let undici: { EnvHttpProxyAgent: new () => object };
  try {
    // createRequire, not import(): bundlers do not follow it, so undici never enters a browser or Worker bundle.
    const module = builtin<typeof import('node:module')>('node:module');
    if (!module) throw new Error('node:module is not available in this runtime');
    undici = module.createRequire(import.meta.url)('undici');
  } catch (e) {
    throw new Error(
      'HTTPS_PROXY or HTTP_PROXY is set, but the optional dependency undici (which Node needs to use a proxy) could not be loaded: ' +
        'install it (npm install undici), or on Node 22.21+ set NODE_USE_ENV_PROXY=1, or pass fetchOptions: { dispatcher }',
      { cause: e },
    );
  }
  shared = { key, dispatcher: new undici.EnvHttpProxyAgent() };
  return shared.dispatcher;
}
