// The HTTP messages of the proxy: the request target it forwards, the headers it passes (end-to-end
// only, RFC 9110 7.6.1), the body it records for the HAR, and how much of an answer it reads before
// deciding. No decision and no state: exchange.ts uses these.
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { proxyAnswer, type ProxyAnswer } from './envelope.ts';
import { isTextual, type Exchange } from './har-log.ts';
import type { BodySpool } from './spool.ts';

/** Headers that belong to one connection, not to the request (RFC 9110 7.6.1), and those the proxy sets itself. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];
const SET_BY_PROXY = ['host', 'content-length', 'expect', 'accept-encoding'];
/** The path to forward, or the proxy's answer to a request target it does not serve. */
export function requestPath(target: URL, raw: string): string | ProxyAnswer {
  let path = raw;
  if (/^https?:\/\//i.test(raw)) {
    // Absolute form: the tool uses the proxy as an HTTP proxy. Fine for the target's own origin.
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return proxyAnswer('PROXY_INVALID_REQUEST', 'The request target is not a valid URL.');
    }
    if (url.origin !== target.origin) {
      return proxyAnswer(
        'PROXY_INVALID_REQUEST',
        `This pacing proxy forwards only to ${target.origin}: set the tool's base URL to the proxy's address instead of using it as an HTTP proxy for ${url.origin}.`,
      );
    }
    path = url.pathname + url.search;
  }
  if (!path.startsWith('/'))
    return proxyAnswer(
      'PROXY_INVALID_REQUEST',
      'The request target must be a path (origin form) or a URL of the target.',
    );
  // Node refuses such a path on the way out; answer it here with the reason instead.
  if (/[^\x21-\x7e]/.test(path))
    return proxyAnswer('PROXY_INVALID_REQUEST', 'The request path holds characters that must be percent-encoded.');
  return path;
}

export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** The caller's headers for the target: end-to-end ones only; host, length and encoding set by the proxy. */
export function forwardHeaders(rawHeaders: string[], target: URL, body: BodySpool | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of endToEnd(rawHeaders, SET_BY_PROXY)) {
    const prev = out[name];
    out[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [String(prev)]), value];
  }
  out.host = target.host;
  // Uncompressed answers: the proxy reads error codes and ids, and the HAR keeps readable text.
  out['accept-encoding'] = 'identity';
  if (body) out['content-length'] = body.size;
  return out;
}

/** The caller's raw headers (casing and repeats kept), less those that are not end-to-end. */
export function endToEnd(rawHeaders: string[], also: string[] = []): Array<[string, string]> {
  const names = new Set([...HOP_BY_HOP, ...also]);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'connection')
      for (const n of rawHeaders[i + 1].split(',')) names.add(n.trim().toLowerCase());
  }
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (!names.has(rawHeaders[i].toLowerCase())) out.push([rawHeaders[i], rawHeaders[i + 1]]);
  return out;
}

export function responseHeaders(rawHeaders: string[], extra: Record<string, string>): string[] {
  const flat = endToEnd(rawHeaders).flat();
  for (const [k, v] of Object.entries(extra)) flat.push(k, v);
  return flat;
}

export function requestBodyOf(body: BodySpool | undefined, headers: OutgoingHttpHeaders): Exchange['requestBody'] {
  if (!body) return undefined;
  const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const mimeType = Array.isArray(type) ? type.join(', ') : String(type ?? '');
  const bytes = body.bytes();
  return {
    size: body.size,
    mimeType,
    ...(bytes && isTextual(mimeType) && { text: bytes.toString('utf8') }),
    ...(body.fields && { params: body.fields }),
  };
}

/** Reads at most about `cap` bytes; `complete` when the body ended within them. The rest stays in the stream. */
export function readUpTo(stream: IncomingMessage, cap: number): Promise<{ bytes: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (fn: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      fn();
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= cap) {
        stream.pause();
        done(() => resolve({ bytes: Buffer.concat(chunks), complete: false }));
      }
    };
    const onEnd = () => done(() => resolve({ bytes: Buffer.concat(chunks), complete: true }));
    const onError = (err: Error) => done(() => reject(err));
    const onClose = () =>
      done(() => reject(new Error('the target closed the connection before its answer was complete')));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** A body that is a JSON object, its members still to read; undefined for anything else. */
export function jsonOf(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
