// What a twin adds to every answer of the API, each registered only when the twin has it (the default
// twin has neither, and its answers pay nothing for them):
//   latency   the operation's answer waits the twin's latency for it (sampled under the seed, scaled)
//   encoding  an answer of at least `min_bytes` goes out in the best coding the request accepts (gzip, br,
//             deflate: node:zlib; the Accept-Encoding negotiation: @fastify/accept-negotiator)
import { promisify } from 'node:util';
import { brotliCompress, deflate, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import type { OperationId } from '@videogen/openapi/types';
import type { Context } from './context.js';

/** Longest latency added to one answer, real ms (a fitted tail must not hold a client forever). */
const MAX_LATENCY_MS = 120_000;

const CODERS: Record<string, (body: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gzip),
  br: promisify(brotliCompress),
  deflate: promisify(deflate),
};

export function registerTwinHooks(app: FastifyInstance, ctx: Context, apiPrefix: string) {
  const { twin } = ctx;
  if (twin.hasLatency) {
    app.addHook('onSend', (request, _reply, payload, done) => {
      const op = request.routeOptions.config?.operation;
      if (!op) return done(null, payload);
      const serviceMs = twin.latencyMs(op.operationId as OperationId, request.account?.name ?? '-');
      const realMs = Math.min(MAX_LATENCY_MS, ctx.clock.ms(serviceMs / 1000));
      if (!(realMs > 0)) return done(null, payload);
      setTimeout(() => done(null, payload), realMs);
    });
  }

  const { codings, minBytes } = twin.encoding;
  if (codings.length) {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!request.url.startsWith(`${apiPrefix}/`) || reply.getHeader('content-encoding') !== undefined)
        return done(null, payload);
      reply.header('vary', 'accept-encoding');
      const accepted = request.headers['accept-encoding'];
      if (!accepted || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return done(null, payload);
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const coding = body.length >= minBytes ? negotiate(accepted, codings) : null;
      const coder = coding ? CODERS[coding] : undefined;
      if (!coding || !coder) return done(null, payload);
      coder(body).then(
        (encoded) => {
          reply.header('content-encoding', coding);
          done(null, encoded);
        },
        (err: Error) => done(err),
      );
    });
  }
}
