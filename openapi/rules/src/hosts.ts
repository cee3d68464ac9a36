// Which hosts a local tool may trust, in one place: the client's "plain HTTP only on loopback" (its base
// URL, and the files an MCP server fetches by URL), and the browser check of the servers we run on a
// developer's machine (the sandbox's /_sandbox/ controls, `videogen mcp --http`).
//
// Plain HTTP (5.2: "Requests use HTTPS only"): the toolkit makes one exception by itself, loopback (the
// local sandbox: a key sent to 127.0.0.1 never leaves the machine). Any other host over http:// is refused
// before anything connects, by the client, the CLI, the contract suite, the pacing proxy (also for the
// address it listens on: tools send it their keys), the Prism proxy script and the MCP server's file
// fetches alike, unless the operator names that host in VIDEO_API_ALLOW_HTTP (or the option of each tool
// that takes the same list): a lab network allowed explicitly, host by host, the way Docker's
// `insecure-registries` and Go's `GOINSECURE` name the hosts they may reach without TLS (DECISIONS T7).
//
// The browser check is the rule of Vite's and webpack-dev-server's host and origin checks: a browser says
// where a request comes from (`Sec-Fetch-Site`, `Origin`); such a request is accepted only from the
// server's own origin, addressed by a name no other site can own (localhost, an IP address, the host the
// server listens on). That refuses other sites' pages (no CORS is needed for a "simple" cross-site POST to
// reach a server) and DNS rebinding (a page of evil.example whose name now resolves to 127.0.0.1 is
// same-origin for the browser). Tools that are not browsers (tests, curl, the client, MCP hosts) send
// neither header and are not concerned.

/** localhost, 127.0.0.0/8 and [::1], as a URL's hostname writes them (URL parsing canonicalises IPv4). */
const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/** A URL hostname that names this machine. */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK.test(hostname.toLowerCase());
}

/** The variable every tool reads: the hosts plain HTTP may reach besides loopback. */
export const ALLOW_HTTP_VARIABLE = 'VIDEO_API_ALLOW_HTTP';

/** A host as a list names it or a URL's hostname writes it: lower case, no IPv6 brackets. */
const bare = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');

/**
 * The hosts a VIDEO_API_ALLOW_HTTP value (or a tool's option) names: comma-separated host names or IP
 * addresses (`lab-api`, `10.0.0.5`, `[fd00::2]`); `.lab.example` or `*.lab.example` names every host
 * under that domain, and `*` every host. Empty or unset: none.
 */
export function allowedHttpHosts(value: string | readonly string[] | undefined): string[] {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []);
  return parts.map(bare).filter(Boolean);
}

/** Whether `hostname` is one `hosts` names (allowedHttpHosts). */
function named(hostname: string, hosts: readonly string[]): boolean {
  const h = bare(hostname);
  return hosts.some((entry) => {
    const e = bare(entry);
    if (e === '*' || e === h) return true;
    const domain = e.startsWith('*.') ? e.slice(1) : e.startsWith('.') ? e : undefined;
    return domain !== undefined && h.endsWith(domain);
  });
}

/**
 * Why a URL may not be used to reach a service or fetch a file, or undefined when it may: https
 * anywhere, plain http on loopback (a sandbox or a test server on this machine) or to a host
 * `allowedHosts` names (allowedHttpHosts of VIDEO_API_ALLOW_HTTP). Names the scheme and host only,
 * never a path, user or query.
 */
export function insecureUrlProblem(url: URL, allowedHosts: readonly string[] = []): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && (isLoopbackHostname(url.hostname) || named(url.hostname, allowedHosts)))
    return undefined;
  return `use https (http only on loopback, or to a host named in ${ALLOW_HTTP_VARIABLE}), not ${url.protocol}//${url.hostname}`;
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

/** An IP address as URL parsing writes a hostname: dotted IPv4 (any IPv4 form is canonicalised) or bracketed IPv6. */
const isIpHostname = (hostname: string) =>
  /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || /^\[[0-9a-f:.]+\]$/.test(hostname);

/** A name no other site can make a browser send: localhost (and *.localhost), an IP address, or one of the server's own. */
function isOwnName(hostname: string, ownHostnames: readonly string[]): boolean {
  if (isIpHostname(hostname)) return true;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return ownHostnames.includes(hostname);
}

/** Why a browser's request is refused: a page of another site, or a name that is not the server's own. */
export interface BrowserRequestProblem {
  kind: 'cross-site' | 'foreign-host';
  /** The Origin sent, or the Host, cut to 200 characters, for the message. */
  named: string;
}

/**
 * Why a request is refused by the browser check, or undefined when it may proceed. `ownHostnames`: the
 * names the server is addressed by besides localhost and IP addresses (the host it listens on).
 */
export function browserRequestProblem(
  headers: { host?: string; origin?: string; 'sec-fetch-site'?: string | string[] },
  ownHostnames: readonly string[],
): BrowserRequestProblem | undefined {
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  // Not a browser (or one too old to say, with no Origin either: then a GET, which reads only).
  if (site === undefined && origin === undefined) return undefined;
  const named = (origin ?? '').slice(0, 200);
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return { kind: 'cross-site', named };
  const host = hostOf(headers.host ?? '');
  if (!host || !isOwnName(host.hostname, ownHostnames))
    return { kind: 'foreign-host', named: JSON.stringify((headers.host ?? '').slice(0, 200)) };
  if (origin !== undefined && hostOf(origin.replace(/^https?:\/\//i, ''))?.host !== host.host)
    return { kind: 'cross-site', named };
  return undefined;
}
