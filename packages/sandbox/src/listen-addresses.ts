// Where a sandbox bound to --host can be reached, for the CLI's banner: a wildcard bind (0.0.0.0, ::) is
// every interface's address, not 127.0.0.1, and anything beyond loopback puts the public keys and the
// /_sandbox/ controls on the network (the banner says so, as Vite prints its "Network:" addresses).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface Reachable {
  /** http://ADDRESS:PORT for every address the sandbox answers on (loopback first). */
  urls: string[];
  /** Whether any of them is reachable from other machines. */
  network: boolean;
}

const isLoopback = (address: string) => address === '::1' || address.startsWith('127.') || address === 'localhost';
const urlOf = (address: string, port: number) => `http://${address.includes(':') ? `[${address}]` : address}:${port}`;

export async function reachableAt(host: string, port: number): Promise<Reachable> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (bare === '0.0.0.0' || bare === '::' || bare === '') {
    const ipv4Only = bare === '0.0.0.0';
    addresses = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i !== undefined)
      // A link-local IPv6 address needs a zone to be used: no URL a person can paste.
      .filter((i) => (i.family === 'IPv4' || !ipv4Only) && !i.address.toLowerCase().startsWith('fe80:'))
      .map((i) => i.address);
  } else if (isIP(bare)) {
    addresses = [bare];
  } else {
    addresses = (await lookup(bare, { all: true }).catch(() => [])).map((a) => a.address);
  }
  const unique = [...new Set(addresses)].sort((a, b) => Number(!isLoopback(a)) - Number(!isLoopback(b)));
  return {
    urls: unique.map((a) => urlOf(a, port)),
    // A wildcard bind listens beyond loopback even on a machine whose only interface is lo today.
    network: bare === '0.0.0.0' || bare === '::' || bare === '' || unique.some((a) => !isLoopback(a)),
  };
}
