// Proxies: HTTP_PROXY / HTTPS_PROXY / NO_PROXY honoured on Node for API calls,
// uploads and downloads, through a real proxy server (the `proxy` package) started here; and an
// explicit dispatcher. The scripts run as a user runs them: a child process importing the built package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createProxy } from 'proxy';
import { mp4Bytes } from './helpers.js';
import { generate } from 'selfsigned';
import { ProxyAgent } from 'undici';
import { startSandbox, SANDBOX_KEYS, FIXTURES, type RunningSandbox } from '@videogen/sandbox';
import { createClient } from '../src/index.js';

const script = fileURLToPath(new URL('./fixtures/proxy-session.mjs', import.meta.url));
const KEY = 'sk-live-PROXY-SECRET-0123456789';

/** A real proxy server: what it was asked (absolute URLs, CONNECT targets) and every byte it received. */
async function startProxy() {
  const server = createProxy(http.createServer());
  const asked: string[] = [];
  const raw: Buffer[] = [];
  server.on('connection', (socket: Socket) => socket.on('data', (c: Buffer) => raw.push(c)));
  server.on('request', (req) => asked.push(`${req.method} ${req.url}`));
  server.on('connect', (req) => asked.push(`CONNECT ${req.url}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    received: () => Buffer.concat(raw).toString('latin1'),
    reset: () => ((asked.length = 0), (raw.length = 0)),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const run = async (args: string[], env: Record<string, string>) => {
  const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout);
};

let proxy: Awaited<ReturnType<typeof startProxy>>;
let sb: RunningSandbox;
beforeAll(async () => {
  proxy = await startProxy();
  sb = await startSandbox({ port: 0, timeScale: 100 });
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});

describe('HTTP_PROXY (plain HTTP target)', () => {
  it('sends API calls, the upload and the download through the proxy', async () => {
    proxy.reset();
    const F = FIXTURES.acme;
    const out = await run([F.videos.convertible, F.settings.pdf], {
      VIDEO_API_KEY: SANDBOX_KEYS.acme,
      VIDEO_API_BASE_URL: sb.baseUrl,
      HTTP_PROXY: proxy.url,
    });
    expect(out).toMatchObject({ status: 'completed', created: expect.any(String), downloaded: out.size });
    // undici tunnels every request (CONNECT), plain HTTP too: inside the tunnel the requests are readable.
    const { host } = new URL(sb.baseUrl);
    expect(proxy.asked.length).toBeGreaterThan(0);
    expect(proxy.asked.every((a) => a === `CONNECT ${host}`)).toBe(true);
    const bytes = proxy.received();
    expect(bytes).toContain(`GET /v1/videos/${F.videos.convertible}/ HTTP/1.1`);
    expect(bytes).toContain('POST /v1/videos/generate/ HTTP/1.1'); // the upload
    expect(bytes).toMatch(/GET \/(?!v1\/)\S+ HTTP\/1\.1/); // the download (the sandbox's own path, not the API's)
  });

  it('NO_PROXY sends the matching hosts directly', async () => {
    proxy.reset();
    const F = FIXTURES.acme;
    const out = await run([F.videos.convertible], {
      VIDEO_API_KEY: SANDBOX_KEYS.acme,
      VIDEO_API_BASE_URL: sb.baseUrl,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    });
    expect(out.status).toBe('completed');
    expect(proxy.asked).toEqual([]);
  });
});

describe('HTTPS_PROXY (HTTPS target, a CA made here)', () => {
  it('opens a CONNECT tunnel: the proxy never sees the key, the path or the body', async () => {
    const dir = mkdtempSync('/tmp/vg-tls-');
    const ca = await generate([{ name: 'commonName', value: 'videogen test CA' }], {
      algorithm: 'sha256',
      keySize: 2048,
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
      ],
    });
    const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
      algorithm: 'sha256',
      keySize: 2048,
      ca: { key: ca.private, cert: ca.cert },
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    writeFileSync(`${dir}/ca.pem`, ca.cert);
    const seen: string[] = [];
    const id = FIXTURES.acme.videos.convertible;
    const api = https.createServer({ key: leaf.private, cert: leaf.cert }, (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
      const { port } = api.address() as AddressInfo;
      if (req.url === `/v1/videos/${id}/`)
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            video_id: id,
            status: 'completed',
            download_url: `https://localhost:${port}/storage/v.mp4?sig=abc`,
            copyright: [],
          }),
        );
      res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4Bytes(1234));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      proxy.reset();
      const { port } = api.address() as AddressInfo;
      const out = await run([id], {
        VIDEO_API_KEY: KEY,
        VIDEO_API_BASE_URL: `https://localhost:${port}/v1`,
        HTTPS_PROXY: proxy.url,
        NODE_EXTRA_CA_CERTS: `${dir}/ca.pem`,
      });
      expect(out).toMatchObject({ status: 'completed', downloaded: 1234 });
      // The server behind the tunnel got the key; the proxy only the tunnels' targets.
      // (the download reads the status again first, for a fresh URL)
      expect(seen).toEqual([
        `GET /v1/videos/${id}/ Bearer ${KEY}`,
        `GET /v1/videos/${id}/ Bearer ${KEY}`,
        'GET /storage/v.mp4?sig=abc -',
      ]);
      expect(proxy.asked.length).toBeGreaterThan(0);
      expect(proxy.asked.every((a) => a === `CONNECT localhost:${port}`)).toBe(true);
      const bytes = proxy.received();
      expect(bytes).toContain(`CONNECT localhost:${port}`);
      expect(bytes).not.toContain(KEY);
      expect(bytes).not.toContain('PROXY-SECRET');
      expect(bytes).not.toContain('/v1/videos');
    } finally {
      api.closeAllConnections();
      await new Promise((r) => api.close(r));
    }
  });
});

describe('fetchOptions.dispatcher', () => {
  it('sends through the dispatcher given (an undici ProxyAgent), no variable needed', async () => {
    proxy.reset();
    const client = createClient({
      apiKey: SANDBOX_KEYS.acme,
      baseUrl: sb.baseUrl,
      fetchOptions: { dispatcher: new ProxyAgent(proxy.url) },
    });
    expect((await client.videos.get(FIXTURES.acme.videos.convertible)).status).toBe('completed');
    expect(proxy.asked).toEqual([`CONNECT ${new URL(sb.baseUrl).host}`]);
    expect(proxy.received()).toContain(`GET /v1/videos/${FIXTURES.acme.videos.convertible}/ HTTP/1.1`);
  });
});
