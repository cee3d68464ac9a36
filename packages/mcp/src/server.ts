// The MCP server: one McpServer per connection (stdio) or per request (Streamable HTTP, stateless),
// built by this factory around the process's one session (its client and the account's pacer).
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { createSession, type Session, type VideoMcpOptions } from './options.js';
import { registerResources } from './resources.js';
import { runTool } from './tool-kit.js';
import { convertVideo, getConversionOptions } from './tools/conversions.js';
import { downloadVideo } from './tools/download-video.js';
import { generateVideo } from './tools/generate-video.js';
import { listVideoSettings } from './tools/list-video-settings.js';
import { listVideos } from './tools/list-videos.js';
import type { VideoTool } from './tools/tool.js';
import type * as z from 'zod/v4';
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
  ];
}

function register<S extends z.ZodObject>(server: McpServer, session: Session, tool: VideoTool<S>) {
  // Registered as a plain object schema (the SDK's types do not resolve over a generic one).
  const inputSchema: z.ZodObject = tool.inputSchema;
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema,
      annotations: tool.annotations,
    },
    // The SDK has validated the arguments against this schema; parsing them again types them without a cast.
    (args, ctx) => runTool(session, ctx, (call) => tool.run(tool.inputSchema.parse(args), call)),
  );
}

/** A factory of McpServer instances sharing one session: give it to serveStdio or createMcpHandler. */
export function createVideoMcpServerFactory(options: VideoMcpOptions = {}): () => McpServer {
  const session = createSession(options);
  return () => createVideoMcpServer(session, options);
}

export function createVideoMcpServer(session: Session, options: Pick<VideoMcpOptions, 'serverInfo'> = {}): McpServer {
  const server = new McpServer(options.serverInfo ?? { name: '@videogen/mcp', version }, {
    instructions: INSTRUCTIONS,
  });
  const [settings, generate, wait, download, conversionOptions, convert, videos] = videoTools(session);
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
