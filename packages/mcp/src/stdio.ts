// `videogen mcp` (stdio, the default): the host starts this process and speaks JSON-RPC on its stdin and
// stdout; nothing else may write to stdout. Both protocol eras are served (the SDK's default).
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { VideoMcpOptions } from './options.js';
import { createVideoMcpServerFactory } from './server.js';

export function serveMcpStdio(options: VideoMcpOptions = {}): StdioServerHandle {
  return serveStdio(createVideoMcpServerFactory(options));
}
