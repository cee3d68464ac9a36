// The MCP server: one McpServer per connection (stdio) or per request (Streamable HTTP, stateless),
// built by this factory around the process's one session (its client and the account's pacer).
import { readFileSync } from 'node:fs';
import {
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  McpServer,
} from '@modelcontextprotocol/server';
import { ToolProblem } from './answers.js';
import { createSession, type Session, type VideoMcpOptions } from './options.js';
import { registerResources } from './resources.js';
import { runTool } from './tool-kit.js';
import { convertVideo, getConversionOptions } from './tools/conversions.js';
import { downloadVideo } from './tools/download-video.js';
import { generateVideo } from './tools/generate-video.js';
import { listVideoSettings } from './tools/list-video-settings.js';
import { listVideos } from './tools/list-videos.js';
import type { VideoTool } from './tools/tool.js';
import * as z from 'zod/v4';
import { waitForVideoTool } from './tools/wait-for-video.js';

// The installed version: package.json sits one level above both src/ and dist/.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const INSTRUCTIONS = [
  'Generates and converts videos with the video generation service.',
  'Flow: list_video_settings, then generate_video (answers at once with a video_id), then wait_for_video until completed (call it again while it is running),',
  "then download_video or convert_video. Starts spend credit; reads do not. This server paces every request to the account's limits",
  'and refuses a start when every running slot is busy, naming the running videos, instead of sending it.',
].join(' ');

/** The tools, in the order a model meets them in the flow. */
export function videoTools(session: Session) {
  return [
    listVideoSettings,
    generateVideo(session.plan),
    waitForVideoTool(session.defaultWaitMs / 1000),
    downloadVideo,
    getConversionOptions,
    convertVideo,
    listVideos,
  ] as const;
}

/**
 * The SDK would answer arguments that break a schema with its own text ("Input validation error: ..."),
 * without an error_code: the schema is advertised as JSON Schema with a validator that lets every call
 * through, and the handler checks the arguments with the same zod schema, answering a break as every other
 * refusal (INVALID_REQUEST, the problem, the fix).
 */
const letThrough: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    // (The handler's zod schema types the arguments: this one only passes them on.)
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** Each tool's advertised JSON Schema, converted once (an HTTP server builds an instance per request). */
const advertised = new WeakMap<object, JsonSchemaType>();
function advertisedSchema(schema: z.ZodObject): JsonSchemaType {
  let json = advertised.get(schema);
  // zod's JSON Schema type and the SDK's differ in details of keywords neither uses here.
  if (!json) advertised.set(schema, (json = z.toJSONSchema(schema, { io: 'input' }) as JsonSchemaType));
  return json;
}

function register<S extends z.ZodObject>(server: McpServer, session: Session, tool: VideoTool<S>) {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: fromJsonSchema(advertisedSchema(tool.inputSchema), letThrough),
      annotations: tool.annotations,
    },
    (args, ctx) =>
      runTool(session, ctx, (call) => {
        const parsed = tool.inputSchema.safeParse(args);
        if (!parsed.success)
          throw new ToolProblem(
            'INVALID_REQUEST',
            `Invalid arguments for ${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}.`,
            `correct the arguments: ${tool.name}'s input schema lists each one, its type and its allowed values.`,
          );
        return tool.run(parsed.data, call);
      }),
  );
}

/** A factory of McpServer instances sharing one session: give it to serveStdio or createMcpHandler. */
export function createVideoMcpServerFactory(options: VideoMcpOptions = {}): () => McpServer {
  const session = createSession(options);
  const tools = videoTools(session);
  return () => createVideoMcpServer(session, options, tools);
}

export function createVideoMcpServer(
  session: Session,
  options: Pick<VideoMcpOptions, 'serverInfo'> = {},
  tools: ReturnType<typeof videoTools> = videoTools(session),
): McpServer {
  const server = new McpServer(options.serverInfo ?? { name: '@videogen/mcp', version }, {
    instructions: INSTRUCTIONS,
  });
  const [settings, generate, wait, download, conversionOptions, convert, videos] = tools;
  register(server, session, settings);
  register(server, session, generate);
  register(server, session, wait);
  register(server, session, download);
  register(server, session, conversionOptions);
  register(server, session, convert);
  register(server, session, videos);
  registerResources(server, session);
  return server;
}
