import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../src/clock.js';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
/** Answers one scripted step per request; the last step repeats. */
export type Step = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void;

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
export const err = (status: number, error_code: string, headers?: Record<string, string>) =>
  json(status, { error_code, error: `scripted ${status}` }, headers);
/** Closes the connection without an answer. */
export const drop: Step = (req) => req.socket.destroy();
/** Never answers (until the server closes). */
export const hang: Step = () => {};

/** A small HTTP server on loopback that plays a script of faults, for the retry and pacing rules. */
export async function faultServer(steps: Step[] | ((seen: Seen, i: number) => Step)) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      const i = seen.length - 1;
      const step = typeof steps === 'function' ? steps(s, i) : steps[Math.min(i, steps.length - 1)];
      step(req, res, s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A clock whose sleeps return at once and move its time forward; records every wait. */
export function fakeClock(start = 1_000_000): Clock & { sleeps: number[]; t: number } {
  const c = {
    t: start,
    sleeps: [] as number[],
    now: () => c.t,
    async sleep(ms: number, signal?: AbortSignal) {
      signal?.throwIfAborted();
      c.sleeps.push(ms);
      c.t += ms;
      await new Promise((r) => setImmediate(r));
      signal?.throwIfAborted();
    },
  };
  return c;
}

export const VIDEO_ID = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';
export const video = (status: string, extra: object = {}) => ({
  video_id: VIDEO_ID,
  status,
  download_url: status === 'completed' ? 'https://x.example/v.mp4' : '',
  copyright: [],
  ...extra,
});

// ---- hostile bodies -------------------------------------------------------

/** Headers, then `chunk` bytes of JSON whitespace every `everyMs`, for as long as the connection lasts. */
export const drip =
  (everyMs = 1000, chunk = 1, headers: Record<string, string> = { 'content-type': 'application/json' }): Step =>
  (_req, res) => {
    res.writeHead(200, headers);
    res.write('{"results": [');
    const timer = setInterval(() => res.write(' '.repeat(chunk)), everyMs);
    res.on('close', () => clearInterval(timer));
  };

/**
 * Headers (with `headers`, e.g. a Content-Length of 10 GB, or none: chunked), then `prefix`, then 64 KiB
 * chunks of `fill` as fast as the reader takes them, until `limit` bytes or the connection closes.
 */
export const flood =
  (headers: Record<string, string>, limit = Infinity, fill = 0x20, prefix?: Buffer): Step =>
  (_req, res) => {
    res.writeHead(200, headers);
    if (prefix) res.write(prefix);
    const chunk = Buffer.alloc(64 * 1024, fill);
    let sent = 0;
    let open = true;
    res.on('close', () => (open = false));
    const pump = () => {
      while (open && sent < limit) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (open) res.end();
    };
    pump();
  };

export { gzipBomb } from '../../../scripts/hostile/gzip-bomb.mjs';

/** Answers with `body` as a gzip-encoded JSON body (its Content-Length the compressed size, as honest servers do). */
export const gzipped =
  (body: Buffer): Step =>
  (_req, res) =>
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(body.length),
      })
      .end(body);

/** `n` bytes (at least 8) that start like an MP4 file: an ISO BMFF \`ftyp\` box header. */
export function mp4Bytes(n = 16): Buffer {
  const b = Buffer.alloc(Math.max(n, 8));
  b.writeUInt32BE(Math.min(b.length, 32), 0);
  b.write('ftyp', 4, 'latin1');
  return b;
}
