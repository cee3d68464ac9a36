#!/usr/bin/env node
// npm run bench -w @videogen/mcp — how long an agent waits on the MCP server, against a sandbox started
// here: (1) from a generate_video call to its answer (the video id), and (2) from the moment a video
// completes to the moment wait_for_video returns it. Over Streamable HTTP (the server in this process)
// and stdio (`videogen mcp` as a child process, as hosts run it), at the sandbox's real time (the
// interface's 10 s polling interval) and at --time-scale 60 (the interval in the sandbox's time).
//
// A video completes when the bench says so: generations run an hour of sandbox time, and the bench moves
// the account's clock forward at a random moment of a polling interval after the wait's first status
// read, so (2) samples the whole interval. Prints a table; nothing is asserted (the machine is shared).
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { POLLING, RATE_LIMITS } from '@videogen/openapi/rules';
import { serveMcpHttp } from '../dist/index.js';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const CLI = fileURLToPath(new URL('../../cli/dist/cli.js', import.meta.url));
const GENERATION_SECONDS = 3600;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) =>
  `median ${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))})`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function measure(label, timeScale, connect) {
  const sb = await startSandbox({ port: 0, timeScale, generationSeconds: GENERATION_SECONDS });
  const { client, close } = await connect(sb);
  const intervalMs = POLLING.intervalMs / timeScale;
  const answers = [];
  const returns = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const g = await client.callTool({
        name: 'generate_video',
        arguments: { video_setting_id: FIXTURES.acme.settings.text, text: `bench ${label} ${round}` },
      });
      answers.push(performance.now() - started);
      if (g.isError) throw new Error(JSON.stringify(g));
      const { video_id } = g.structuredContent;
      let completedAt = 0;
      let scheduled = false;
      const waited = client.callTool(
        { name: 'wait_for_video', arguments: { video_id, timeout_seconds: 120 } },
        {
          resetTimeoutOnProgress: true,
          onprogress: () => {
            if (scheduled) return;
            scheduled = true;
            // Complete the video somewhere in the next polling interval.
            setTimeout(() => {
              sb.clock.advance(GENERATION_SECONDS, 'acme');
              completedAt = performance.now();
            }, Math.random() * intervalMs);
          },
        },
      );
      const w = await waited;
      const returnedAt = performance.now();
      if (w.structuredContent?.status !== 'completed') throw new Error(JSON.stringify(w));
      returns.push(returnedAt - completedAt);
      // The next generate waits for class A's even spacing anyway; let it pass outside the measure.
      await sleep((RATE_LIMITS.A.windowMs / RATE_LIMITS.A.requests / timeScale) * 1.05);
    }
  } finally {
    await close();
    await sb.close();
  }
  console.log(`${label.padEnd(40)} generate → answer: ${fmt(answers)}`);
  console.log(
    `${''.padEnd(40)} completed → wait returns: ${fmt(returns)} (polling interval ${Math.round(intervalMs)} ms)`,
  );
}

const http = async (sb) => {
  const server = await serveMcpHttp({
    port: 0,
    clientOptions: { apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, plan: 'business' },
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
};

const stdio = async (sb) => {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        VIDEO_API_KEY: SANDBOX_KEYS.acme,
        VIDEO_API_BASE_URL: sb.baseUrl,
      },
    }),
  );
  return { client, close: () => client.close() };
};

console.log(`mcp latency: ${ROUNDS} rounds each (ROUNDS=N to change), against a sandbox started here`);
await measure('Streamable HTTP, real time', 1, http);
await measure('stdio (videogen mcp), real time', 1, stdio);
await measure('Streamable HTTP, --time-scale 60', 60, http);
await measure('stdio (videogen mcp), --time-scale 60', 60, stdio);
