// The /_sandbox/ controls wipe an account (a data dir's videos too), move its time and queue faults, with
// keys that are public (the README prints them). No web page may use them: not one of another origin
// (the controls answer no CORS, and a cross-site request is refused even when it is a "simple" one that
// needs no preflight), nor one that reached the sandbox under a name of its own (DNS rebinding: a page of
// evil.example whose name now resolves to 127.0.0.1 is same-origin for the browser). The rule is that of
// Vite's and webpack-dev-server's host and origin checks: a browser says where a request comes from
// (`Sec-Fetch-Site`, `Origin`); such a request is accepted only from the sandbox's own origin, addressed by
// a name no other site can own (localhost, an IP address, the host the sandbox listens on). Tools that are
// not browsers (tests, curl, the client, sb.fetch) send neither header and are not concerned.
import { isIP } from 'node:net';

/** `/_sandbox` and below, also percent-encoded (`/%5Fsandbox/reset` reaches the same route). */
export function isControlPath(url: string, prefix: string): boolean {
  let path = url;
  // (Every request asks: the usual URL is answered without a split or a decode.)
  if (url.includes('%')) {
    try {
      path = decodeURIComponent(url.split('?')[0]);
    } catch {
      return false; // not a path any route matches
    }
  }
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

/** `host[:port]` as a URL's host (lower case, default port dropped), or undefined when it is not one. */
function hostOf(value: string): { host: string; hostname: string } | undefined {
  try {
    const url = new URL(`http://${value}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return { host: url.host, hostname: url.hostname };
  } catch {
    return undefined;
  }
}

/** A name no other site can make a browser send: localhost (and *.localhost), an IP address, or one of the sandbox's own. */
function isOwnName(hostname: string, ownHostnames: readonly string[]): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return true;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return ownHostnames.includes(hostname);
}

/**
 * Why a request to the controls is refused, or undefined when it may proceed. `ownHostnames`: the names
 * the sandbox is addressed by besides localhost and IP addresses (the host it listens on, its in-process
 * origin's).
 */
export function controlRequestProblem(
  headers: { host?: string; origin?: string; 'sec-fetch-site'?: string | string[] },
  ownHostnames: readonly string[],
): string | undefined {
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  // Not a browser (or one too old to say, with no Origin either: then a GET, which reads only).
  if (site === undefined && origin === undefined) return undefined;
  const from = origin ? ` (Origin ${origin.slice(0, 200)})` : '';
  const fix =
    'call them from your tests, a script or curl, or from a page the sandbox itself serves (/docs) at http://localhost or http://127.0.0.1.';
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return `The sandbox controls (/_sandbox/) refuse requests from web pages of another origin${from}: ${fix}`;
  const host = hostOf(headers.host ?? '');
  if (!host || !isOwnName(host.hostname, ownHostnames))
    return `The sandbox controls (/_sandbox/) refuse browser requests addressed to ${JSON.stringify((headers.host ?? '').slice(0, 200))}, a name that is not the sandbox's own (a page can point its own name at this machine): ${fix}`;
  if (origin !== undefined && hostOf(origin.replace(/^https?:\/\//i, ''))?.host !== host.host)
    return `The sandbox controls (/_sandbox/) refuse requests from web pages of another origin${from}: ${fix}`;
  return undefined;
}
