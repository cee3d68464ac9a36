// 2025-era clients over Streamable HTTP (what today's hosts speak), one session each (`Mcp-Session-Id`),
// as the SDK's legacy-routing recipe serves them. The SDK's own default for them, stateless serving,
// answers each POST from a fresh server instance: a cancellation (`notifications/cancelled`, a POST of
// its own) then reaches an instance with nothing to cancel, and a cancelled wait_for_video kept polling
// until its bound. With a session, the cancellation reaches the request it names. 2026-07-28 requests
// carry their own lifetime and stay with createMcpHandler.
import { randomUUID } from 'node:crypto';
import {
  isInitializeRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

/** Sessions a server holds at most; beyond it the least recently used one is closed. */
const MAX_SESSIONS = 1_000;
/** A session unused this long is closed (its client starts a new one on its next request: a 404 says so). */
const IDLE_MS = 60 * 60_000;

const jsonRpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

export class LegacySessions {
  readonly #sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; usedAt: number }>();

  constructor(private readonly factory: () => McpServer) {}

  /** Answers a 2025-era request: POST, GET (the session's notification stream) or DELETE (its end). */
  async fetch(request: Request): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = this.#sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, 'Session not found: send initialize again.');
      // Most recently used last, for the eviction below.
      this.#sessions.delete(id);
      this.#sessions.set(id, { ...session, usedAt: Date.now() });
      return session.transport.handleRequest(request);
    }
    const body: unknown =
      request.method === 'POST'
        ? await request
            .clone()
            .json()
            .catch(() => undefined)
        : undefined;
    if (!isInitializeRequest(body))
      return jsonRpcError(400, -32000, 'Bad Request: no Mcp-Session-Id: send initialize first.');
    this.#evict();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void this.#sessions.set(sid, { transport, usedAt: Date.now() }),
      onsessionclosed: (sid) => void this.#sessions.delete(sid),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await this.factory().connect(transport);
    return transport.handleRequest(request);
  }

  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((s) => s.transport.close()));
  }

  /** Closes the sessions idle for IDLE_MS, and the least recently used beyond MAX_SESSIONS - 1. */
  #evict(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) {
      if (now - s.usedAt < IDLE_MS && this.#sessions.size < MAX_SESSIONS) break;
      this.#sessions.delete(id);
      void s.transport.close();
    }
  }
}
