// @module-tag full/packed
// @videogen/mcp as users meet it, against a sandbox installed from its own tarball: `npx videogen mcp`
// where the CLI and the MCP server are installed side by side (an agent's machine), driven over stdio by
// the official SDK's client; the package alone (nested install) serving Streamable HTTP from a program
// of the user's own; and the CLI alone, which says what to install for `videogen mcp`.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installedBin, run, show, startSandboxBin, type SandboxProcess } from './helpers.ts';

const { projects } = inject('release');
const TEXT_SETTING = '5e77a000-0000-4000-8000-000000000001'; // the sandbox's documented fixture (acme, text)
const KEY = 'sandbox-key-acme';
let sandbox: SandboxProcess;

/** Only what the server needs from the environment. */
const env = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  VIDEO_API_BASE_URL: sandbox.baseUrl,
  VIDEO_API_KEY: KEY,
});

beforeAll(async () => {
  sandbox = await startSandboxBin(projects['@videogen/sandbox']!, ['--time-scale', '60', '--quiet']);
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('npx videogen mcp, with @videogen/mcp installed beside the CLI', () => {
  let client: Client;
  let stderr = '';
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['videogen', 'mcp'],
      cwd: projects.agent!,
      env: env(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += d));
    client = new Client({ name: 'release-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    expect(stderr).not.toContain(KEY);
  });

  it('generates a video and waits for it to complete', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    const started = await client.callTool({
      name: 'generate_video',
      arguments: { video_setting_id: TEXT_SETTING, text: 'Explain tides' },
    });
    expect(started.isError, JSON.stringify(started)).toBeFalsy();
    const video_id = (started.structuredContent as { video_id: string }).video_id;
    const done = await client.callTool({ name: 'wait_for_video', arguments: { video_id } });
    expect(done.structuredContent).toMatchObject({ video_id, status: 'completed' });
    expect(JSON.stringify(done)).not.toContain(KEY);
  });

  it("serves the docs' llms.txt shipped in the package", async () => {
    const { contents } = await client.readResource({ uri: 'videogen://docs/llms.txt' });
    expect(String((contents[0] as { text: string }).text)).toMatch(/^# Video Generation Service API/);
  });
});

describe('@videogen/mcp alone, from a program of your own', () => {
  it('serves Streamable HTTP with serveMcpHttp', async () => {
    const dir = projects['@videogen/mcp']!;
    writeFileSync(
      join(dir, 'server.mjs'),
      "import { serveMcpHttp } from '@videogen/mcp';\nconst server = await serveMcpHttp({ port: 0 });\nconsole.log(server.url);\n",
    );
    const child = spawn(process.execPath, ['server.mjs'], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /http:\/\/\S+\/mcp/.exec(out);
          if (m) resolve(m[0]);
        });
        child.once('exit', (code) => reject(new Error(`server.mjs exited ${code}: ${err}`)));
      });
      const c = new Client({ name: 'release-test', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      const r = await c.callTool({ name: 'list_video_settings', arguments: {} });
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      expect((r.structuredContent as { settings: unknown[] }).settings).toHaveLength(7);
      await c.close();
    } finally {
      child.kill();
    }
  });
});

// The installed bin itself: `npx videogen mcp` resolving is checked above, in the agent's project.
describe('videogen mcp with the CLI alone', () => {
  it('exits 1 saying which package to install', async () => {
    const cli = projects['@videogen/cli']!;
    const r = await run(installedBin(cli, 'videogen'), ['mcp'], { cwd: cli, env: env() });
    expect(r.code, show(r)).toBe(1);
    expect(r.stderr).toContain('npm install --global @videogen/mcp');
    expect(r.stdout).toBe('');
  });
});
