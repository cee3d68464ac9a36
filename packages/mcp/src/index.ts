// @videogen/mcp: an MCP server for the video generation service, over the client (pacing, retries,
// typed errors). `videogen mcp` (the CLI) runs it; these are its parts for a program of your own.
export { createVideoMcpServer, createVideoMcpServerFactory, videoTools } from './server.js';
export { createSession, DEFAULT_WAIT_MS, MAX_CALL_WAIT_MS, type Session, type VideoMcpOptions } from './options.js';
export { serveMcpStdio } from './stdio.js';
export { MCP_PATH, serveMcpHttp, type HttpOptions, type RunningHttpServer } from './http.js';
export { expiryOf } from './download-expiry.js';
