// What a model reads, as the official SDK's client lists it (tools/list over Streamable HTTP), written as a
// transcript (test-results/tools.md) and held to the rules: every description names its cost (a
// credit or none, the rate class of what it sends; a start, the running slot it holds) and what to do next;
// the input schemas carry the document's values (languages, aspect ratios, the plan's formats and sizes)
// and no top-level oneOf/anyOf/allOf (which some model APIs refuse in a tool's input schema); arguments
// that break a schema are a tool error with the envelope's error_code and the fix.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  ASPECT_RATIOS,
  LANGUAGES,
  MAX_RUNNING,
  OPERATIONS,
  type OperationId,
  RATE_LIMITS,
  UPLOAD_LIMITS,
} from '@videogen/openapi/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveMcpHttp } from '../src/index.js';
import { textOf, type ToolText } from './harness.js';

/** The operations each tool sends (its cost is theirs). */
const SENDS: Record<string, OperationId[]> = {
  list_video_settings: ['listVideoSettings'],
  generate_video: ['generateVideo'],
  wait_for_video: ['getVideo'],
  download_video: ['getVideo'],
  get_conversion_options: ['getConversionOptions'],
  convert_video: ['getConversionOptions', 'createConversion'],
  list_videos: ['listVideos'],
};

let server: RunningHttpServer;
let client: Client;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];

beforeAll(async () => {
  // No request reaches the service in this file: an address nothing answers on is enough.
  server = await serveMcpHttp({
    port: 0,
    clientOptions: { apiKey: 'test-key', baseUrl: 'http://127.0.0.1:9/v1', plan: 'personal' },
  });
  client = new Client({ name: 'videogen-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('tools/list, as a model reads it', () => {
  it('writes the transcript of the tools', () => {
    const lines = ['# The tools of videogen mcp, as tools/list gives them (personal plan)', ''];
    for (const t of tools)
      lines.push(
        `## ${t.name}: ${t.title}`,
        '',
        t.description ?? '',
        '',
        '```json',
        JSON.stringify(t.inputSchema, null, 2),
        '```',
        '',
      );
    const dir = fileURLToPath(new URL('../test-results/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}tools.md`, lines.join('\n'));
    expect(tools).toHaveLength(Object.keys(SENDS).length);
  });

  it.each(Object.entries(SENDS))('%s names its cost and what to do next', (name, ops) => {
    const d = tools.find((t) => t.name === name)?.description ?? '';
    expect(d).toMatch(/Cost: /);
    expect(d).toMatch(/Next: /);
    for (const id of ops) {
      const op = OPERATIONS.find((o) => o.operationId === id);
      const { requests, windowMs } = RATE_LIMITS[op!.rateClass];
      expect(d).toContain(`rate class ${op!.rateClass} (${requests} requests per ${windowMs / 1000} s per account)`);
    }
    const starts = ops.some((id) => OPERATIONS.find((o) => o.operationId === id)!.startsVideo);
    if (starts) {
      expect(d).toMatch(/spends credit for one video/);
      expect(d).toContain(`one of the account's ${MAX_RUNNING} running slots`);
    } else expect(d).toMatch(/Cost: no credit/);
  });

  it("carries the document's values in the input schemas, with no top-level combinator", () => {
    for (const t of tools) for (const k of ['oneOf', 'anyOf', 'allOf']) expect(t.inputSchema).not.toHaveProperty(k);
    const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, any>;
    expect(props('convert_video').language.enum).toEqual([...LANGUAGES]);
    expect(props('convert_video').aspect_ratio.enum).toEqual([...ASPECT_RATIOS]);
    const generate = props('generate_video');
    expect(generate.image_files.maxItems).toBe(UPLOAD_LIMITS.image_files.maxItems);
    for (const ext of UPLOAD_LIMITS.video_file.extensions.personal)
      expect(generate.video_file.description).toContain(ext);
    expect(generate.video_file.description).toContain(`${UPLOAD_LIMITS.video_file.maxBytes.personal / 1e6} MB`);
    // The Business plan's extra formats are not offered on the Personal plan.
    expect(generate.video_file.description).not.toContain('.webm');
  });
});

describe('arguments that break a schema', () => {
  it('are a tool error with INVALID_REQUEST and the fix, before anything is sent', async () => {
    const r = (await client.callTool({
      name: 'convert_video',
      arguments: { video_id: 'not-a-uuid', language: 'xx' },
    })) as ToolText;
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ error_code: 'INVALID_REQUEST' });
    expect(textOf(r)).toMatch(/video_id/);
    expect(textOf(r)).toMatch(/language/);
    expect(String(r.structuredContent?.fix)).toContain("convert_video's input schema");
  });

  it('a combination the interface does not show is refused with the valid ones', async () => {
    const r = (await client.callTool({
      name: 'generate_video',
      arguments: {
        video_setting_id: '5e77a000-0000-4000-8000-000000000001',
        pptx_file: '/tmp/a.pptx',
        audio_file: '/tmp/a.mp3',
      },
    })) as ToolText;
    expect(r.structuredContent).toMatchObject({ error_code: 'INVALID_REQUEST' });
    expect(textOf(r)).toContain('text + pdf_file [from-documents with instruction]');
  });
});
