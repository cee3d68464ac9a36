// The proxy's own answers: the interface's error envelope `{error_code, error}` (7.1) with codes of
// the proxy's own, and a header that says the proxy answered, not the target. A tool (or a person
// reading a HAR or a log) can always tell the two apart: the target's answers never carry it.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Present on every answer the proxy made itself; its value is the answer's error_code. */
export const PROXY_HEADER = 'x-videogen-proxy';
/** On a target's 5xx to a POST that the proxy did not send again (the same header as the client's). */
export const NOT_RESENT_HEADER = 'x-videogen-not-resent';

/**
 * The proxy's error codes and their statuses. The budget refusal is a 403: 7.1 retries 429, 503 and
 * every 5xx, and "other: no retry", so a tool that follows the interface gives up at once instead of
 * sending the refused generation again; and 403 is declared on every operation of the document (an
 * account not allowed to do this), so a tool that checks statuses against the document still reads it.
 */
export const PROXY_ERRORS = {
  PROXY_CREDIT_BUDGET_EXCEEDED: 403,
  /** The request would have waited longer than --max-wait and the target had not answered it yet. */
  PROXY_WAIT_CEILING_EXCEEDED: 429,
  PROXY_TARGET_UNREACHABLE: 502,
  PROXY_TARGET_TIMEOUT: 504,
  PROXY_INVALID_REQUEST: 400,
  PROXY_METHOD_NOT_ALLOWED: 405,
  PROXY_PAYLOAD_TOO_LARGE: 413,
  PROXY_HEADERS_TOO_LARGE: 431,
  PROXY_REQUEST_TIMEOUT: 408,
  PROXY_CLOSING: 503,
  PROXY_INTERNAL_ERROR: 500,
} as const;
export type ProxyErrorCode = keyof typeof PROXY_ERRORS;

export interface ProxyAnswer {
  status: number;
  error_code: ProxyErrorCode;
  error: string;
  headers?: Record<string, string>;
}

export function proxyAnswer(
  error_code: ProxyErrorCode,
  error: string,
  extra: { status?: number; headers?: Record<string, string> } = {},
): ProxyAnswer {
  return { status: extra.status ?? PROXY_ERRORS[error_code], error_code, error, headers: extra.headers };
}

function encode(a: ProxyAnswer): { body: string; headers: Record<string, string | number> } {
  const body = JSON.stringify({ error_code: a.error_code, error: a.error });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      [PROXY_HEADER]: a.error_code,
      ...a.headers,
    },
  };
}

/** Sends the proxy's own answer; when an answer has already begun, the connection is cut instead. */
export function sendAnswer(res: ServerResponse, a: ProxyAnswer): void {
  if (res.headersSent) return void res.destroy();
  const { body, headers } = encode(a);
  res.writeHead(a.status, headers);
  res.end(body);
}

/** The same answer written on a raw socket (a CONNECT, or a request Node's parser refused), then closed. */
export function sendRawAnswer(socket: Socket, a: ProxyAnswer, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  const { body, headers } = encode(a);
  const lines = Object.entries({ ...headers, connection: 'close' }).map(([k, v]) => `${k}: ${v}`);
  socket.end(`HTTP/1.1 ${a.status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
}
