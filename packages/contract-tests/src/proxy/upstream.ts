// One attempt at the target: node:http or node:https, the body streamed from its spool, a time limit
// for the answer's headers once the request is sent, and whether the request can have reached the
// target at all (a refused or failed connection, or a failed TLS handshake, sent nothing). The answer's
// body is watched by its reader (body-watch.ts); a caller that leaves stops the attempt at once.
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { pipeline } from 'node:stream';
import type { BodySpool } from './spool.ts';

export type Attempt =
  | { kind: 'answer'; res: IncomingMessage; sentAt: number; bodySentAt: number; headersAt: number }
  | { kind: 'failed'; error: Error; reached: boolean; timedOut: boolean; sentAt: number };

export interface UpstreamOptions {
  /** Extra CA certificates (PEM) trusted for an HTTPS target, besides the default roots. */
  ca?: string | Buffer | Array<string | Buffer>;
}

export class Upstream {
  private readonly keepAlive: http.Agent;
  private readonly fresh: http.Agent;
  readonly secure: boolean;

  constructor(
    readonly origin: URL,
    options: UpstreamOptions = {},
  ) {
    this.secure = origin.protocol === 'https:';
    const extra = options.ca === undefined ? [] : Array.isArray(options.ca) ? options.ca : [options.ca];
    const tls = extra.length ? { ca: [...rootCertificates, ...extra] } : {};
    const Agent = this.secure ? https.Agent : http.Agent;
    this.keepAlive = new Agent({ keepAlive: true, ...tls });
    // Starts (generate, convert) go on a new connection: a reset of an idle keep-alive socket would
    // leave unknown whether the target read the request, and a start is never sent twice blindly.
    this.fresh = new Agent({ keepAlive: false, ...tls });
  }

  send(o: {
    method: string;
    path: string;
    headers: OutgoingHttpHeaders;
    body?: BodySpool;
    fresh?: boolean;
    timeoutMs: number;
    /** Aborted when the caller leaves: the attempt stops at once (no answer will be waited for). */
    signal?: AbortSignal;
  }): Promise<Attempt> {
    const sentAt = Date.now();
    return new Promise<Attempt>((resolve) => {
      let reached = false;
      let timedOut = false;
      let bodySentAt = sentAt;
      let timer: NodeJS.Timeout | undefined;
      const request = (this.secure ? https : http).request({
        protocol: this.origin.protocol,
        hostname: this.origin.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: this.origin.port || undefined,
        method: o.method,
        path: o.path,
        headers: o.headers,
        agent: o.fresh ? this.fresh : this.keepAlive,
      });
      request.on('socket', (socket) => {
        // A socket still connecting has sent nothing; a reused one may carry the request at once.
        if (!socket.connecting) reached = true;
        else socket.once(this.secure ? 'secureConnect' : 'connect', () => (reached = true));
      });
      request.on('finish', () => {
        bodySentAt = Date.now();
        timer = setTimeout(() => {
          timedOut = true;
          request.destroy(new Error(`no answer from the target within ${Math.round(o.timeoutMs / 1000)} s`));
        }, o.timeoutMs);
      });
      const onAbort = () => request.destroy(new Error('the caller closed the connection'));
      o.signal?.addEventListener('abort', onAbort, { once: true });
      request.on('response', (res) => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        resolve({ kind: 'answer', res, sentAt, bodySentAt, headersAt: Date.now() });
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        resolve({ kind: 'failed', error, reached, timedOut, sentAt });
      });
      if (o.signal?.aborted) onAbort();
      if (o.body) pipeline(o.body.stream(), request, () => {});
      else request.end();
    });
  }

  close(): void {
    this.keepAlive.destroy();
    this.fresh.destroy();
  }
}
