// sb.fetch: the sandbox answered in-process, without a socket, through Fastify's inject
// (light-my-request): the same routes, hooks, validation and envelopes as over HTTP. It takes what the
// global fetch takes (a URL or a WHATWG Request, and init), streams a request body into the sandbox as
// it is read (a streamed multipart upload stays streamed), answers a real WHATWG Response as soon as
// the headers are written (its body streams), and honours the request's AbortSignal before and after
// the headers. Only the sandbox's own origin is reached: its API and the download URLs it issues.
import { Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** fetch, answered by the sandbox in-process. */
export type SandboxFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose response has no body (Fetch standard). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What the global fetch rejects with when no answer comes: TypeError('fetch failed') with the cause. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

/** The decoders of the content codings the global fetch decodes (Node's: gzip, deflate, br). */
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export function inProcessFetch(
  app: FastifyInstance,
  sandbox: { origin: string; downloadOrigin: string; closed: boolean },
): SandboxFetch {
  return async (input, init) => {
    const request = new Request(input, init); // the global fetch's own checks, errors and defaults
    const url = new URL(request.url);
    if (url.origin !== sandbox.origin && url.origin !== sandbox.downloadOrigin) {
      throw new TypeError(
        `sb.fetch reaches only this sandbox (${sandbox.origin}), not ${url.origin}: use the global fetch for other hosts`,
      );
    }
    const { signal } = request;
    signal.throwIfAborted();
    if (sandbox.closed) throw fetchFailed(new Error('the sandbox is closed'));

    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // As the global fetch sends them: the host addressed, and the codings it decodes.
    headers.host = url.host;
    headers['accept-encoding'] ??= 'gzip, deflate';
    // A body is streamed in as it is read, sent like fetch sends a stream (chunked).
    const payload = request.body
      ? Readable.fromWeb(request.body as import('node:stream/web').ReadableStream)
      : undefined;
    if (payload && headers['content-length'] === undefined) headers['transfer-encoding'] = 'chunked';

    return new Promise<Response>((resolve, reject) => {
      let body: Readable | undefined;
      const onAbort = () => {
        payload?.destroy();
        // Before the headers the promise rejects; after them the body stream errors, as with fetch.
        if (body) body.destroy(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal.removeEventListener('abort', onAbort);
      app
        .inject({
          method: request.method as 'GET',
          url: url.pathname + url.search,
          headers,
          ...(payload && { payload }),
          payloadAsStream: true,
        })
        .then(
          (res) => {
            // The global fetch decodes a coded body (its headers stay as they came).
            const coding = String(res.headers['content-encoding'] ?? '').toLowerCase();
            const decoder = DECODERS[coding];
            const raw = res.stream();
            body = decoder ? raw.pipe(decoder()) : raw;
            if (decoder) raw.on('error', (err) => body?.destroy(err));
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined) continue;
              for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(v));
            }
            const hasBody = request.method !== 'HEAD' && !NULL_BODY_STATUSES.has(res.statusCode);
            if (!hasBody) {
              body.resume();
              settle();
            } else {
              body.once('close', settle);
            }
            const response = new Response(hasBody ? (Readable.toWeb(body) as ReadableStream) : null, {
              status: res.statusCode,
              statusText: res.statusMessage,
              headers: responseHeaders,
            });
            // As the global fetch's: the URL the response came from.
            Object.defineProperty(response, 'url', { value: request.url });
            resolve(response);
          },
          (err) => {
            settle();
            // A connection the sandbox dropped (a `drop` fault) is a network error, as over a socket.
            reject(signal.aborted ? signal.reason : fetchFailed(err));
          },
        );
    });
  };
}
