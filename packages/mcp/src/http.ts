// `videogen mcp --http PORT`: Streamable HTTP on /mcp, bound to loopback unless told otherwise. Both
// protocol eras: a 2026-07-28 request is served statelessly by the SDK's createMcpHandler (one McpServer
// per request); a 2025-era client gets a session of its own (legacy-sessions.ts), as the SDK's
// legacy-routing recipe does, so that its cancellations reach their requests. Every request passes the browser check the
// sandbox's /_sandbox/ controls use (the rules' browserRequestProblem): a web page of another site, or one
// that reached this server under a name of its own (DNS rebinding), is refused with 403; MCP hosts, which
// are not browsers, send neither Origin nor Sec-Fetch-Site and are not concerned.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { LegacySessions } from './legacy-sessions.js';
import { browserRequestProblem } from '@videogen/openapi/rules';
import type { VideoMcpOptions } from './options.js';
import { createVideoMcpServerFactory } from './server.js';

export interface HttpOptions extends VideoMcpOptions {
  /** 0: a free port. */
  port: number;
  /** Default 127.0.0.1 (loopback): other machines cannot connect. */
  host?: string;
  /** Where a failure of the handler itself is reported (never to a client). */
  onError?: (error: Error) => void;
}

export interface RunningHttpServer {
  /** http://HOST:PORT/mcp */
  url: string;
  close(): Promise<void>;
}

export const MCP_PATH = '/mcp';

function refuse(res: ServerResponse, status: number, error_code: string, error: string) {
  const body = JSON.stringify({ error_code, error });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function serveMcpHttp(options: HttpOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const factory = createVideoMcpServerFactory(options);
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror: options.onError });
  const legacy = new LegacySessions(factory);
  const node = toNodeHandler(
    {
      // The SDK's own classification (isLegacyRequest reads the body: it gets a copy). GET and DELETE
      // are the 2025 session's verbs.
      fetch: async (request) =>
        request.method !== 'POST' || (await isLegacyRequest(request.clone()))
          ? legacy.fetch(request)
          : modern.fetch(request),
    },
    { onerror: options.onError },
  );
  // Names a browser may use besides localhost and IP addresses: the host it was told to listen on.
  const own = /^[\d.:]+$|^\[/.test(host) || host === '0.0.0.0' || host === '::' ? [] : [host.toLowerCase()];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const problem = browserRequestProblem(req.headers, own);
    if (problem)
      return refuse(
        res,
        403,
        'FORBIDDEN',
        problem.kind === 'foreign-host'
          ? `This MCP server refuses browser requests addressed to ${problem.named}, a name that is not its own (a page can point its own name at this machine): connect from an MCP host, or address it as http://localhost or http://127.0.0.1.`
          : `This MCP server refuses requests from web pages of another origin${problem.named ? ` (Origin ${problem.named})` : ''}: connect from an MCP host (Claude Desktop, VS Code, Cursor, an SDK client), not from a web page.`,
      );
    const path = (req.url ?? '').split('?')[0];
    if (path !== MCP_PATH)
      return refuse(res, 404, 'NOT_FOUND', `Nothing here: the MCP endpoint is ${MCP_PATH} (Streamable HTTP).`);
    void node(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${MCP_PATH}`,
    async close() {
      await Promise.all([modern.close(), legacy.close()]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
