// @module-tag full/processes
// `videogen mcp` as MCP hosts run it: a child process speaking stdio, started by the official SDK's
// StdioClientTransport, against a sandbox started here: the session of item 6; a server started without
// a key (it answers each tool with the fix); and `videogen mcp --http 0` as a child process.
import { spawn, spawnSync } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SANDBOX_KEYS } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startTestSandbox, type ToolText } from './harness.js';
import { sessionSteps, TOOL_NAMES } from './session.js';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let client: Client;
let stderr = '';

/** Only what the server reads: the developer's own settings cannot leak in. */
const env = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  VIDEO_API_BASE_URL: sb.baseUrl,
  VIDEO_API_PLAN: 'business',
  ...extra,
});

async function connectStdio(extra: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: env(extra),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => (stderr += d));
  const c = new Client({ name: 'videogen-mcp-test', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

beforeAll(async () => {
  sb = await startTestSandbox();
  client = await connectStdio({ VIDEO_API_KEY: SANDBOX_KEYS.acme });
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
  expect(stderr).not.toContain(SANDBOX_KEYS.acme);
});

describe('videogen mcp over stdio', () => {
  sessionSteps('videogen MCP session over stdio (videogen mcp)', 'session-stdio.md', () => ({ client, sb }));
});

describe('videogen mcp without VIDEO_API_KEY', () => {
  it('starts, says so on stderr, and answers every tool with the fix', async () => {
    const before = stderr;
    const c = await connectStdio({});
    try {
      const r = (await c.callTool({ name: 'list_video_settings', arguments: {} })) as ToolText;
      expect(r.isError).toBe(true);
      expect(r.structuredContent?.error_code).toBe('UNAUTHORIZED');
      expect(String(r.structuredContent?.error)).toMatch(/No API key/);
      expect(String(r.structuredContent?.fix)).toContain('VIDEO_API_KEY');
      expect(stderr.slice(before.length)).toContain('VIDEO_API_KEY is not set');
    } finally {
      await c.close();
    }
  });
});

describe('videogen mcp with a key the service refuses', () => {
  it('answers with UNAUTHORIZED and the fix, and never shows the key', async () => {
    const key = 'sandbox-key-revoked-7d1e';
    const before = stderr.length;
    const c = await connectStdio({ VIDEO_API_KEY: key });
    try {
      const r = (await c.callTool({ name: 'list_video_settings', arguments: {} })) as ToolText;
      expect(r.structuredContent).toMatchObject({ error_code: 'UNAUTHORIZED', status: 401 });
      expect(String(r.structuredContent?.fix)).toContain('VIDEO_API_KEY');
      expect(JSON.stringify(r)).not.toContain(key);
      expect(stderr.slice(before)).not.toContain(key);
    } finally {
      await c.close();
    }
  });
});

describe('videogen mcp refuses bad flags with a one-line usage error (exit 2)', () => {
  it.each([
    [['--http', 'seventy'], '--http takes a port number'],
    [['--host', '0.0.0.0'], '--host goes with --http PORT'],
  ])('videogen mcp %j', (args, message) => {
    const r = spawnSync(process.execPath, [CLI, 'mcp', ...args], { env: env({}), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});

describe('videogen mcp --http 0', () => {
  it('serves Streamable HTTP on loopback, says where on stderr, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--http', '0'], {
      env: env({ VIDEO_API_KEY: SANDBOX_KEYS.acme }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        err += d;
        const m = /Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const c = new Client({ name: 'videogen-mcp-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    await c.close();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(out).toBe('');
  });
});
