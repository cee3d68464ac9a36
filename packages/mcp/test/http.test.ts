// The MCP server over Streamable HTTP (serveMcpHttp, in this process), driven by the official SDK's
// client against a sandbox started here: the session of item 6, a bad key, files by URL, and the browser
// check it shares with the sandbox's controls.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FIXTURES, SANDBOX_KEYS } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveMcpHttp } from '../src/index.js';
import { GENERATION_SECONDS, startTestSandbox, textOf, type ToolText } from './harness.js';
import { sessionSteps } from './session.js';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let server: RunningHttpServer;
let client: Client;

async function connect(url: string, o: ConstructorParameters<typeof Client>[1] = {}) {
  const c = new Client({ name: 'videogen-mcp-test', version: '1.0.0' }, o);
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

beforeAll(async () => {
  sb = await startTestSandbox();
  server = await serveMcpHttp({
    port: 0,
    clientOptions: { apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, plan: 'business' },
  });
  client = await connect(server.url);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await sb?.close();
});

describe('the session over Streamable HTTP', () => {
  sessionSteps('videogen MCP session over Streamable HTTP', 'session-http.md', () => ({ client, sb }));
});

describe('the 2026-07-28 protocol revision', () => {
  it('serves a client pinned to it (server/discover, no initialize) from the same endpoint', async () => {
    const modern = await connect(server.url, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      expect((await modern.listTools()).tools).toHaveLength(7);
      const r = (await modern.callTool({
        name: 'get_conversion_options',
        arguments: { video_id: FIXTURES.acme.videos.convertible },
      })) as ToolText;
      expect(r.structuredContent).toMatchObject({ is_convertible: true, current_language: 'ja' });
    } finally {
      await modern.close();
    }
  });
});

describe('a bad key', () => {
  it('is a tool error naming VIDEO_API_KEY, and never shows the key', async () => {
    const key = 'sandbox-key-not-an-account-3f9a';
    const bad = await serveMcpHttp({ port: 0, clientOptions: { apiKey: key, baseUrl: sb.baseUrl } });
    const c = await connect(bad.url);
    try {
      const r = (await c.callTool({ name: 'list_video_settings', arguments: {} })) as ToolText;
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ error_code: 'UNAUTHORIZED', status: 401 });
      expect(String(r.structuredContent?.fix)).toContain('VIDEO_API_KEY');
      expect(JSON.stringify(r)).not.toContain(key);
    } finally {
      await c.close();
      await bad.close();
    }
  });
});

describe('a base URL with a password', () => {
  it('is a configuration error that shows it redacted, as every URL the toolkit prints', async () => {
    const baseUrl = 'http://operator:S3CRET-PW@127.0.0.1:1/v1';
    const bad = await serveMcpHttp({ port: 0, clientOptions: { apiKey: SANDBOX_KEYS.acme, baseUrl } });
    const c = await connect(bad.url);
    try {
      const r = (await c.callTool({ name: 'list_video_settings', arguments: {} })) as ToolText;
      expect(r.structuredContent).toMatchObject({ error_code: 'CONFIGURATION_ERROR' });
      expect(textOf(r)).toContain('Refusing base URL http://[redacted]:[redacted]@127.0.0.1:1/v1');
      expect(JSON.stringify(r)).not.toContain('S3CRET');
    } finally {
      await c.close();
      await bad.close();
    }
  });
});

describe('files by URL', () => {
  let files: Server;
  let base = '';
  /** The same files on an IPv4 address of this machine that is not loopback, counting its connections. */
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  let lanFiles: Server | undefined;
  let lanBase = '';
  let lanConnections = 0;
  beforeAll(async () => {
    if (lan) {
      lanFiles = createServer((_req, res) => {
        // Declares more than the Business plan's 180 MB for a PDF: refused before a byte is read.
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(180_000_001) });
        res.write('%PDF');
      }).listen(0, lan);
      lanFiles.on('connection', () => lanConnections++);
      await new Promise((r) => lanFiles?.once('listening', r));
      lanBase = `http://${lan}:${(lanFiles.address() as AddressInfo).port}`;
    }
    files = createServer((req, res) => {
      if (req.url === '/deck.pdf') return res.end(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(30_000, 32)]));
      if (req.url === '/moved') return res.writeHead(302, { location: '/deck.pdf' }).end();
      // A hop to plain http beyond loopback (this machine's own non-loopback address, or a name that is none).
      if (req.url?.startsWith('/away?'))
        return res.writeHead(302, { location: `${lanBase || 'http://files.example'}/huge.pdf?token=S3CRET-2` }).end();
      if (req.url === '/bad-location') return res.writeHead(302, { location: 'http://[::1' }).end();
      if (req.url === '/huge.pdf') {
        // Declares more than the Business plan's 180 MB for a PDF: refused before a byte is read.
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(180_000_001) });
        return res.write('%PDF');
      }
      res.writeHead(404).end();
    }).listen(0, '127.0.0.1');
    await new Promise((r) => files.once('listening', r));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    files.closeAllConnections();
    files.close();
    lanFiles?.closeAllConnections();
    lanFiles?.close();
  });

  it('fetches a PDF by URL (http on loopback, a redirect followed) and generates from it', async () => {
    const r = (await client.callTool({
      name: 'generate_video',
      arguments: { video_setting_id: FIXTURES.acme.settings.pdf, pdf_file: `${base}/moved` },
    })) as ToolText;
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 'running' });
  });

  it('refuses plain http beyond loopback, and a file over the plan limit, before uploading', async () => {
    const http = (await client.callTool({
      name: 'generate_video',
      arguments: { video_setting_id: FIXTURES.acme.settings.pdf, pdf_file: 'http://files.example/deck.pdf' },
    })) as ToolText;
    expect(http.structuredContent).toMatchObject({ error_code: 'FILE_URL_REFUSED' });
    expect(textOf(http)).toContain(
      'use https (http only on loopback, or to a host named in VIDEO_API_ALLOW_HTTP), not http://files.example',
    );

    const huge = (await client.callTool({
      name: 'generate_video',
      arguments: { video_setting_id: FIXTURES.acme.settings.pdf, pdf_file: `${base}/huge.pdf` },
    })) as ToolText;
    expect(huge.structuredContent).toMatchObject({ error_code: 'FILE_UPLOAD_ERROR' });
    expect(textOf(huge)).toContain('180 MB');
  });

  it('holds each redirect hop to the same rule and opt-in, and prints no query value', async () => {
    const call = (c: Client, pdf_file: string) =>
      c.callTool({
        name: 'generate_video',
        arguments: { video_setting_id: FIXTURES.acme.settings.pdf, pdf_file },
      }) as Promise<ToolText>;
    const away = await call(client, `${base}/away?sig=S3CRET-1`);
    const host = lanBase ? new URL(lanBase).host : 'files.example';
    expect(away.structuredContent).toMatchObject({ error_code: 'FILE_URL_REFUSED' });
    expect(textOf(away)).toContain(
      `${base}/away?sig=[redacted] redirects to http://${host}, refused: use https (http only on loopback, or to a host named in VIDEO_API_ALLOW_HTTP)`,
    );
    expect(JSON.stringify(away)).not.toMatch(/S3CRET/);
    expect(lanConnections).toBe(0);

    const bad = await call(client, `${base}/bad-location`);
    expect(bad.structuredContent).toMatchObject({ error_code: 'FILE_URL_REFUSED' });
    expect(textOf(bad)).toContain(`${base}/bad-location redirects to "http://[::1", which is not a URL`);

    if (!lan) return;
    // Named by the operator (the client's allowHttpHosts, default VIDEO_API_ALLOW_HTTP): the hop is followed.
    const lab = await serveMcpHttp({
      port: 0,
      clientOptions: { apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, plan: 'business', allowHttpHosts: [lan] },
    });
    const c = await connect(lab.url);
    try {
      const followed = await call(c, `${base}/away?sig=S3CRET-1`);
      expect(followed.structuredContent, textOf(followed)).toMatchObject({ error_code: 'FILE_UPLOAD_ERROR' });
      expect(textOf(followed)).toContain('180 MB');
      expect(lanConnections).toBeGreaterThan(0);
    } finally {
      await c.close();
      await lab.close();
    }
  });
});

describe("the browser check (the sandbox controls' rule)", () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '0' } },
  });
  const post = (headers: Record<string, string>) =>
    fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: initialize,
    });

  it('refuses a page of another site, with the envelope', async () => {
    const r = await post({ origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ error_code: 'FORBIDDEN', error: expect.stringContaining('another origin') });
  });

  it('accepts its own origin and tools that are not browsers', async () => {
    const own = await post({ origin: new URL(server.url).origin });
    expect(own.status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it('answers another path with a 404 envelope naming /mcp', async () => {
    const r = await fetch(new URL('/', server.url));
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ error_code: 'NOT_FOUND', error: expect.stringContaining('/mcp') });
  });
});

describe('a cancelled call', () => {
  it.each([
    ['a 2025-era client (its session receives the notifications/cancelled)', undefined],
    ['a 2026-07-28 client (the request is its own stream)', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
  ] as const)('stops the server polling for it: %s', async (_name, o) => {
    const c = await connect(server.url, o);
    try {
      const g = (await c.callTool({
        name: 'generate_video',
        arguments: { video_setting_id: FIXTURES.acme.settings.text, text: 'Cancelled wait' },
      })) as ToolText;
      const video_id = g.structuredContent?.video_id as string;
      const stop = new AbortController();
      const reads = () => sb.stats('acme')['200'] ?? 0;
      const wait = c.callTool(
        { name: 'wait_for_video', arguments: { video_id } },
        { signal: stop.signal, onprogress: () => stop.abort('the user clicked Stop') },
      );
      await expect(wait).rejects.toThrow();
      // Polling at 10×: a read every second. Give the cancellation time to arrive, then look for more
      // reads over two and a half intervals (an uncancelled wait made one per interval).
      await new Promise((r) => setTimeout(r, 1200));
      const after = reads();
      await new Promise((r) => setTimeout(r, 2500));
      expect(reads()).toBe(after);
    } finally {
      sb.clock.advance(GENERATION_SECONDS, 'acme');
      await c.close();
    }
  });
});

describe('a wait longer than a tool call should hold', () => {
  it("is answered with the service's code and retry_after_seconds, not slept", async () => {
    // globex's own server: the 429 below blocks globex's class B, not the account of the other tests.
    const globex = await serveMcpHttp({ port: 0, clientOptions: { apiKey: SANDBOX_KEYS.globex, baseUrl: sb.baseUrl } });
    const c = await connect(globex.url);
    try {
      // Two hours of the sandbox's time: twelve minutes of real time at 10×, beyond the server's 60 s ceiling.
      sb.faults.add('globex', { kind: '429', retry_after_seconds: 7200 });
      const r = (await c.callTool({ name: 'list_videos', arguments: {} })) as ToolText;
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ error_code: 'RATE_LIMIT_EXCEEDED', status: 429 });
      expect(r.structuredContent?.retry_after_seconds).toBeGreaterThan(60);
      expect(String(r.structuredContent?.fix)).toMatch(/call again then/);
    } finally {
      await c.close();
      await globex.close();
    }
  });
});
