// 5.2, HTTPS only (issue 35, hole 5): the suite and the pacing proxy send keys over plain HTTP only to
// loopback, as the client does, unless the operator names the host (VIDEO_API_ALLOW_HTTP, --allow-http).
// Proven against a real listener on this machine's non-loopback address, which counts the connections
// it gets: none before the opt-in, some after. (Without such an address, the refusal alone is checked.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { proxyCommand, startPacingProxy } from '../src/proxy/index.ts';

const KEY = 'plain-http-test-key-0123456789';
/** An IPv4 address of this machine that is not loopback, if it has one. */
const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

async function suite(env: Record<string, string>, args: string[] = []) {
  let text = '';
  const io = { out: (t: string) => void (text += t), err: (t: string) => void (text += t) };
  // --plan: the run's preflight (one GET per key) and nothing more; the first request a run would send.
  const code = await main(['--plan', ...args], io, { VIDEO_API_KEY: KEY, ...env });
  return { code, text };
}

async function proxy(argv: string[], env: Record<string, string> = {}) {
  let text = '';
  const stop = new AbortController();
  const code = await proxyCommand(argv, {
    env,
    stdout: (t) => void (text += t),
    stderr: (t) => void (text += t),
    signal: stop.signal,
    onListening: () => stop.abort(),
  });
  return { code, text };
}

describe('plain HTTP beyond loopback is refused before anything connects', () => {
  it('the suite and the proxy name the host, the rule and the opt-in, and never the key', async () => {
    const run = await suite({ VIDEO_API_BASE_URL: 'http://lab-api.invalid/v1' });
    expect(run.code).toBe(2);
    expect(run.text).toContain(
      'VIDEO_API_BASE_URL: refusing to send the API keys in the clear: use https (http only on loopback, or to a host named in VIDEO_API_ALLOW_HTTP), not http://lab-api.invalid; --allow-http HOST names a host too',
    );
    const p = await proxy(['--target', 'http://lab-api.invalid/v1']);
    expect(p.code).toBe(2);
    expect(p.text).toContain(
      '--target: refusing to send the API keys in the clear: use https (http only on loopback, or to a host named in VIDEO_API_ALLOW_HTTP), not http://lab-api.invalid',
    );
    for (const t of [run.text, p.text]) expect(t).not.toContain(KEY);
  });

  it('a base URL holding a password is refused, and neither tool prints the password', async () => {
    // fetch would refuse it anyway, with an error naming the URL whole.
    const run = await suite({ VIDEO_API_BASE_URL: 'https://operator:S3CRET-PW@api.example.invalid/v1' });
    expect(run.code).toBe(2);
    expect(run.text).toContain(
      "VIDEO_API_BASE_URL must not hold a user or password: the keys travel in each request's Authorization header",
    );
    const p = await proxy(['--target', 'https://operator:S3CRET-PW@api example/v1']);
    expect(p.code).toBe(2);
    expect(p.text).toContain('--target must be a URL such as https://staging.example/v1, got "https://[redacted]');
    for (const t of [run.text, p.text]) expect(t).not.toContain('S3CRET');
  });

  it('the proxy listens beyond loopback only when that address is named: tools would send it their keys', async () => {
    const address = lan ?? '192.0.2.1';
    await expect(startPacingProxy({ target: 'http://127.0.0.1:1/v1', host: address })).rejects.toThrow(
      `--host ${address}: the proxy speaks plain HTTP, so every tool's API key would reach it in the clear over the network`,
    );
    await expect(startPacingProxy({ target: 'http://127.0.0.1:1/v1', host: '0.0.0.0' })).rejects.toThrow(
      /--host 0\.0\.0\.0/,
    );
    if (!lan) return;
    const p = await startPacingProxy({ target: 'http://127.0.0.1:1/v1', host: lan, allowHttpHosts: [lan] });
    expect(p.origin).toBe(`http://${lan}:${p.port}`);
    await p.close();
  });
});

describe.skipIf(!lan)(`a listener on ${lan ?? 'a non-loopback address'}`, () => {
  let server: http.Server;
  let url = '';
  let connections = 0;
  beforeAll(async () => {
    // Not the API: each connection is counted and answered 404 (the preflight then stops the command, exit 2).
    server = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not here'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, lan, resolve));
    url = `http://${lan}:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gets no connection from the suite or the proxy, until the host is named', async () => {
    expect((await suite({ VIDEO_API_BASE_URL: url })).code).toBe(2);
    expect((await proxy(['--target', url])).code).toBe(2);
    expect(connections).toBe(0);

    // Named (the variable, or the option): the request goes, and meets this listener.
    const run = await suite({ VIDEO_API_BASE_URL: url, VIDEO_API_ALLOW_HTTP: `other-host,${lan}` });
    expect(run.text).not.toMatch(/in the clear/);
    expect(connections).toBeGreaterThan(0);
    const before = connections;
    const p = await proxy(['--target', url, '--allow-http', lan ?? '']);
    expect(p.text).not.toMatch(/in the clear/);
    expect(connections).toBeGreaterThan(before);
  });
});
