// @module-tag full/tools
// The account's limits as manners across processes: with VIDEO_API_PACING_URL (a real redis-server on a
// free port) the MCP server reads the schedule every process of the account shares. Two `videogen
// generate` runs in other processes hold both running slots; the MCP server's generate_video then names
// their videos and sends nothing (no 503 at the sandbox); once one is seen finished, a start goes through.
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../../pacer-redis/test/redis-server.mjs';
import { type RunningHttpServer, serveMcpHttp } from '../src/index.js';
import { CLI, GENERATION_SECONDS, textOf, type ToolText } from './harness.js';

let redis: RedisServer;
let sb: Awaited<ReturnType<typeof startSandbox>>;
let server: RunningHttpServer;
let client: Client;

beforeAll(async () => {
  redis = await startRedis();
  // 10×: a start's slot is counted for a minute of real time, longer than two CLI runs take to start.
  sb = await startSandbox({ port: 0, timeScale: 10, generationSeconds: GENERATION_SECONDS });
  server = await serveMcpHttp({
    port: 0,
    // (Redis stopped at the end is not news here.)
    clientOptions: {
      apiKey: SANDBOX_KEYS.acme,
      baseUrl: sb.baseUrl,
      pacingUrl: redis.url,
      plan: 'business',
      logLevel: 'error',
    },
  });
  client = new Client({ name: 'videogen-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await sb?.close();
  await redis?.stop();
});

/** `videogen generate --json` in its own process, sharing the account's schedule on Redis. */
function generateElsewhere(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, 'generate', '--setting', FIXTURES.acme.settings.text, '--text', text, '--json'],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          VIDEO_API_KEY: SANDBOX_KEYS.acme,
          VIDEO_API_BASE_URL: sb.baseUrl,
          VIDEO_API_PACING_URL: redis.url,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out).video_id) : reject(new Error(err))));
  });
}

/** The running videos of the schedule the MCP server reads (its videogen://account/schedule), once it reads the shared one. */
async function sharedRunning(): Promise<string[] | undefined> {
  const read = await client.readResource({ uri: 'videogen://account/schedule' }).catch(() => undefined);
  const content = read?.contents[0];
  if (!content || !('text' in content)) return undefined;
  const schedule = JSON.parse(content.text);
  return schedule.scope === 'shared' ? schedule.running.map((v: { videoId: string }) => v.videoId) : undefined;
}

it("refuses a start while other processes' videos hold both slots, then starts once one is seen finished", async () => {
  const others = await Promise.all([generateElsewhere('one elsewhere'), generateElsewhere('two elsewhere')]);
  // The start is asked once the MCP server has learned, from Redis, that the others hold both slots: its first
  // connection can take longer on a busy machine than a decision waits for it (the store's timeoutMs), and a
  // server that cannot read the shared schedule sends the start and lets the service decide (slots.ts).
  for (;;) {
    const running = await sharedRunning();
    if (running && others.every((id) => running.includes(id))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const busy = (await client.callTool({
    name: 'generate_video',
    arguments: { video_setting_id: FIXTURES.acme.settings.text, text: 'mine' },
  })) as ToolText;
  expect(busy.structuredContent).toMatchObject({ error_code: 'SLOTS_BUSY', schedule_scope: 'shared' });
  const named = (busy.structuredContent!.running as Array<{ video_id: string }>).map((v) => v.video_id);
  expect(named.sort()).toEqual([...others].sort());
  expect(sb.stats('acme')['503'] ?? 0).toBe(0);

  sb.clock.advance(GENERATION_SECONDS, 'acme');
  const done = (await client.callTool({
    name: 'wait_for_video',
    arguments: { video_id: others[0], timeout_seconds: 0 },
  })) as ToolText;
  expect(done.structuredContent).toMatchObject({ status: 'completed' });

  const started = (await client.callTool({
    name: 'generate_video',
    arguments: { video_setting_id: FIXTURES.acme.settings.text, text: 'mine' },
  })) as ToolText;
  expect(started.isError, textOf(started)).toBeFalsy();
  expect(sb.stats('acme')['503'] ?? 0).toBe(0);
  expect(sb.stats('acme')['429'] ?? 0).toBe(0);
});
