// The relay's own HTTP endpoint (`--listen`): `POST /announce` from the client (a process that created a
// video: watch it at once), `GET /healthz` (alive; 503 while its state store cannot be reached) and
// `GET /status` (what it holds). Announces and the status are authorized by the token the client derives
// from the API key (relayToken); every refusal is the spec's envelope `{ error_code, error }`. An
// announce is answered 202 only once the store has it (on Redis, or flushed to the state file).
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ANNOUNCE_PATH, type Announcement } from '@videogen/client';
import { pathParameterProblem } from '@videogen/openapi/rules';
import type { ListenOptions } from './options.js';

/** The largest announce body read (an id, a source id, a trace context: a few hundred bytes). */
const MAX_BODY_BYTES = 4096;

export interface ListenerHandlers {
  /** The token an announce must carry (the client's relayToken of the relay's key). */
  token: string;
  announce(a: Announcement): Promise<'added' | 'known' | 'done'>;
  health(): Promise<{ ok: boolean; detail: Record<string, unknown> }>;
  status(): Promise<Record<string, unknown>>;
}

export interface Listener {
  server: Server;
  /** `http://host:port`: what the client's relayUrl (VIDEO_RELAY_URL) is set to. */
  url: string;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};
const refuse = (res: ServerResponse, status: number, error_code: string, error: string) =>
  send(res, status, { error_code, error });

/** The body, at most MAX_BODY_BYTES: undefined when larger. */
async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function authorized(req: IncomingMessage, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The announce's fields, checked: an error message, or the announcement. */
function announcementOf(text: string): Announcement | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return 'the body is not a JSON object';
  const idProblem = pathParameterProblem('video_id', b.video_id);
  if (idProblem) return idProblem;
  if (b.source_video_id !== undefined) {
    const p = pathParameterProblem('video_id', b.source_video_id);
    if (p) return `source_video_id: ${p}`;
  }
  for (const f of ['traceparent', 'tracestate'] as const)
    if (b[f] !== undefined && (typeof b[f] !== 'string' || (b[f] as string).length > 512))
      return `${f} must be a string of at most 512 characters`;
  return {
    video_id: b.video_id as string,
    ...(typeof b.source_video_id === 'string' && { source_video_id: b.source_video_id }),
    ...(typeof b.traceparent === 'string' && { traceparent: b.traceparent }),
    ...(typeof b.tracestate === 'string' && { tracestate: b.tracestate }),
  };
}

export async function listen(where: ListenOptions, h: ListenerHandlers): Promise<Listener> {
  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://relay').pathname;
      if (path === ANNOUNCE_PATH) {
        if (req.method !== 'POST') return refuse(res, 405, 'METHOD_NOT_ALLOWED', `${path} takes POST`);
        if (!authorized(req, h.token))
          return refuse(res, 401, 'UNAUTHORIZED', "The announce token is not the one of this relay's API key");
        const text = await bodyOf(req);
        if (text === undefined)
          return refuse(res, 413, 'PAYLOAD_TOO_LARGE', `An announce is at most ${MAX_BODY_BYTES} bytes`);
        const a = announcementOf(text);
        if (typeof a === 'string') return refuse(res, 400, 'INVALID_REQUEST', a);
        const state = await h.announce(a);
        return send(res, 202, { video_id: a.video_id, state });
      }
      if (path === '/healthz') {
        if (req.method !== 'GET') return refuse(res, 405, 'METHOD_NOT_ALLOWED', `${path} takes GET`);
        const { ok, detail } = await h.health();
        return send(res, ok ? 200 : 503, { ok, ...detail });
      }
      if (path === '/status') {
        if (req.method !== 'GET') return refuse(res, 405, 'METHOD_NOT_ALLOWED', `${path} takes GET`);
        if (!authorized(req, h.token))
          return refuse(res, 401, 'UNAUTHORIZED', "The status needs the token of this relay's API key");
        return send(res, 200, await h.status());
      }
      return refuse(res, 404, 'NOT_FOUND', `No ${path} here: POST ${ANNOUNCE_PATH}, GET /healthz, GET /status`);
    } catch (e) {
      // The store could not take it (Redis away): not acknowledged, so the client says so and the listing finds it.
      if (!res.headersSent)
        refuse(res, 503, 'RELAY_STORE_UNAVAILABLE', `The relay could not store it: ${(e as Error)?.message}`);
      else res.destroy();
    }
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  const host = where.host && where.host !== '0.0.0.0' && where.host !== '::' ? where.host : '127.0.0.1';
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
