// The Node HTTP server under Fastify, with every connection bounded in time (DECISIONS: connection
// time limits) and every answer Node would give on its own (no Host, Expect, CONNECT, timeouts,
// bad bytes) given with the envelope instead of an empty body or a silent close.
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { envelope } from './errors.js';

export interface HttpLimits {
  /** Request line and headers must have arrived within this time of the connection (or of the previous answer). */
  headersMs: number;
  /** A request in progress is cut when no byte moves in either direction for this long (408 while the body is unread). Longer than headersMs, so that slow headers get their 408 first. */
  idleMs: number;
  /** A whole request, body included, must have arrived within this time (408): a body trickled byte by byte is cut too. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveMs: number;
  /** After an answer given before the body was read (401, 404, 413, an upload error…), the rest of the body is discarded for at most this long, then the connection is closed. */
  lingerMs: number;
  /** At most this many open connections; further ones are closed at once. Default: the open-file limit less 256 kept for the sandbox's own files. */
  maxConnections: number;
}

/** Open files kept for the store, the sample MP4, the docs: a flood of connections never makes those fail. */
const RESERVED_FILES = 256;

/** The soft limit of open files of this process (Linux); undefined elsewhere. */
function openFileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function defaultHttpLimits(): HttpLimits {
  const files = openFileLimit();
  return {
    headersMs: 10_000,
    idleMs: 15_000,
    requestMs: 300_000,
    keepAliveMs: 5_000,
    lingerMs: 5_000,
    maxConnections: files ? Math.max(64, files - RESERVED_FILES) : 10_000,
  };
}

const json = (status: number, code: string, message: string) => {
  const body = JSON.stringify(envelope(code, message));
  return {
    body,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    },
  };
};

/** Answer on a socket that has no usable ServerResponse (before a request exists), then close it. */
export function rawAnswer(socket: Socket, status: number, code: string, message: string) {
  if (!socket.writable) return void socket.destroy();
  const { body, headers } = json(status, code, message);
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  // end() waits for the peer's FIN; a peer that never reads must not keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** An envelope answer on a ServerResponse, the connection closed after it. */
export function answerEnvelope(res: ServerResponse, status: number, code: string, message: string) {
  const { body, headers } = json(status, code, message);
  res.writeHead(status, headers);
  res.end(body);
}

type Parsed = Socket & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } | null };

const TIMEOUT_MESSAGE = 'The request was not received in time: the connection is closed (see the sandbox limits).';

/** A request too slow to arrive: 408 with the envelope while nothing was answered yet, else just close. */
function cutSlowRequest(socket: Parsed) {
  const res = socket._httpMessage;
  if (res && !res.headersSent) {
    answerEnvelope(res, 408, 'REQUEST_TIMEOUT', TIMEOUT_MESSAGE);
    setTimeout(() => socket.destroy(), 1000).unref();
  } else if (res) {
    socket.destroy();
  } else {
    rawAnswer(socket, 408, 'REQUEST_TIMEOUT', TIMEOUT_MESSAGE);
  }
}

/** Errors Node raises before a request exists (oversized headers, garbage bytes, timeouts). */
export function onClientError(err: NodeJS.ErrnoException, socket: Parsed) {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return cutSlowRequest(socket);
  if (socket._httpMessage?.headersSent) return void socket.destroy();
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return rawAnswer(socket, 431, 'INVALID_REQUEST', 'The request headers are too large.');
  rawAnswer(socket, 400, 'INVALID_REQUEST', 'Malformed HTTP request.');
}

/** The server Fastify runs on (its `serverFactory`). */
export function createHttpServer(handler: http.RequestListener, limits: HttpLimits): http.Server {
  const server = http.createServer(
    {
      // Checked by the request guards, which answer with the envelope (Node's own answer is an empty 400).
      requireHostHeader: false,
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      // How often the two limits above are checked (Node's default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersMs / 4)),
    },
    handler,
  );
  server.setTimeout(limits.idleMs);
  server.maxConnections = limits.maxConnections;
  server.on('timeout', (socket: Parsed) => {
    const req = socket.parser?.incoming;
    const res = socket._httpMessage;
    // A complete request whose answer is still being prepared (e.g. an injected latency) is not the client's fault.
    if (req?.complete && res && !res.headersSent) return;
    if (req && !req.complete) return cutSlowRequest(socket);
    socket.destroy();
  });
  // ('clientError' is given to Fastify as its clientErrorHandler: onClientError.)
  // Expect: 100-continue: no automatic "100 Continue"; the request guards send it once the request
  // has passed authentication, so a client whose upload would be refused never sends its body.
  server.on('checkContinue', (req, res) => server.emit('request', req, res));
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    answerEnvelope(res, 417, 'INVALID_REQUEST', 'Only "Expect: 100-continue" is supported.'),
  );
  server.on('connect', (_req: IncomingMessage, socket: Socket) =>
    rawAnswer(socket, 400, 'INVALID_REQUEST', 'CONNECT is not supported: the sandbox is not a proxy.'),
  );
  return server;
}
