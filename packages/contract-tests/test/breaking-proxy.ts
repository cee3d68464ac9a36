// A proxy in front of the real sandbox that breaks the contract on purpose, one way per instance:
// it can rewrite the request (key, path), answer by itself, or rewrite the response.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ProxiedRequest {
  method: string;
  /** Path with query, as received (e.g. /v1/videos/?page=2). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Close the caller's connection without an answer (after the sandbox did the work, from `response`). */
export const DROP = 'drop';
/** An answer written by hand on the caller's response (a body that never ends, a bomb): hostile transports. */
export type Handwritten = (res: ServerResponse) => void;
type Outcome = ProxiedResponse | typeof DROP | Handwritten | void;

export interface Break {
  /** Change the request before it is forwarded, or answer it without forwarding. */
  request?(req: ProxiedRequest, upstream: (r: ProxiedRequest) => Promise<ProxiedResponse>): Promise<Outcome> | Outcome;
  /** Change the sandbox's response. */
  response?(
    res: ProxiedResponse,
    req: ProxiedRequest,
    upstream: (r: ProxiedRequest) => Promise<ProxiedResponse>,
  ): Promise<Outcome> | Outcome;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface RunningProxy {
  /** Base URL with /v1, as the suite wants it. */
  baseUrl: string;
  origin: string;
  close(): Promise<void>;
}

export async function startBreakingProxy(upstreamOrigin: string, brk: Break = {}): Promise<RunningProxy> {
  const upstream = async (r: ProxiedRequest): Promise<ProxiedResponse> => {
    const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !HOP.has(k)));
    const res = await fetch(upstreamOrigin + r.url, {
      method: r.method,
      headers,
      body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body,
      redirect: 'manual',
    });
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!HOP.has(k)) out[k] = v;
    });
    return { status: res.status, headers: out, text: await res.text() };
  };
  const server: Server = createServer(async (req, res) => {
    try {
      const pr: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
        ),
        body: await readBody(req),
      };
      let out = (await brk.request?.(pr, upstream)) ?? undefined;
      if (!out) {
        const answered = await upstream(pr);
        out = (await brk.response?.(answered, pr, upstream)) ?? answered;
      }
      if (out === DROP) return void req.socket.destroy();
      if (typeof out === 'function') return void out(res);
      res.writeHead(out.status, out.headers);
      res.end(out.text);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${(err as Error).message}`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Rewrite a JSON body in place (the response is left as is when it is not JSON). */
export function editJson(res: ProxiedResponse, edit: (body: any) => any): ProxiedResponse {
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return res;
  }
  const next = edit(body);
  return { ...res, text: JSON.stringify(next === undefined ? body : next) };
}

export const pathOf = (req: ProxiedRequest) => req.url.split('?')[0];
export const queryOf = (req: ProxiedRequest) => new URL(req.url, 'http://x').searchParams;
