// Where the API key may travel over plain HTTP. The interface says "Requests use HTTPS only" (5.2); the
// toolkit makes one exception by itself, loopback (the local sandbox): a key sent to 127.0.0.1 never
// leaves the machine. Any other host over http:// is refused before anything connects, by the client,
// the CLI, the contract suite and the pacing proxy alike (the proxy also for the address it listens on:
// tools send it their keys), unless the operator names that host in VIDEO_API_ALLOW_HTTP (or the
// option of each tool that takes the same list): a lab network allowed explicitly, host by host, the way
// Docker's `insecure-registries` and Go's `GOINSECURE` name the hosts they may reach without TLS.

/** The variable every tool reads: the hosts plain HTTP may reach besides loopback. */
export const ALLOW_HTTP_VARIABLE = 'VIDEO_API_ALLOW_HTTP';

/** A host name without the brackets of an IPv6 address, lower case. */
const bare = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');

/** localhost, 127.0.0.0/8 or ::1: the machine itself. */
export function isLoopbackHost(host: string): boolean {
  const h = bare(host);
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The hosts a VIDEO_API_ALLOW_HTTP value names: comma-separated host names or IP addresses (`lab-api`,
 * `10.0.0.5`, `[fd00::2]`); `.lab.example` or `*.lab.example` names every host under that domain, and `*`
 * every host. Empty or unset: none.
 */
export function allowedHttpHosts(value: string | readonly string[] | undefined): string[] {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []);
  return parts.map(bare).filter(Boolean);
}

function allowed(host: string, hosts: readonly string[]): boolean {
  const h = bare(host);
  return hosts.some((entry) => {
    const e = bare(entry);
    if (e === '*' || e === h) return true;
    const domain = e.startsWith('*.') ? e.slice(1) : e.startsWith('.') ? e : undefined;
    return domain !== undefined && h.endsWith(domain);
  });
}

/**
 * What is wrong with sending an API key to `url`, or undefined when it may go: https, or http to
 * loopback or to a host `allowedHosts` names (allowedHttpHosts of VIDEO_API_ALLOW_HTTP). The message
 * names the URL's scheme and host only, never a path, user or query.
 */
export function plainHttpProblem(url: string | URL, allowedHosts: readonly string[] = []): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return 'is not a URL';
  }
  const { protocol, hostname } = parsed;
  if (protocol === 'https:') return undefined;
  if (protocol === 'http:' && (isLoopbackHost(hostname) || allowed(hostname, allowedHosts))) return undefined;
  const where = `${protocol}//${hostname}`;
  return protocol === 'http:'
    ? `${where} would carry the API key in the clear: use https (http only on loopback, or to a host named in ${ALLOW_HTTP_VARIABLE})`
    : `${where}: use https (http only on loopback, or to a host named in ${ALLOW_HTTP_VARIABLE})`;
}
