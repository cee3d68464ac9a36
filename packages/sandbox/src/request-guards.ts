// Checks every request passes before anything reads its body: one Host (RFC 9112 §3.2) and at most one
// Authorization, answered with the envelope; unknown paths and methods answered before the body;
// "100 Continue" only for a request that got past authentication; and a bound on how long the unread
// body of a request answered early may keep its connection.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from './errors.js';
import type { HttpLimits } from './http-server.js';

function countHeader(rawHeaders: string[], name: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].length === name.length && rawHeaders[i].toLowerCase() === name) n++;
  return n;
}

export function registerRequestGuards(
  app: FastifyInstance,
  limits: HttpLimits,
  notFound: (request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const hosts = countHeader(raw.rawHeaders, 'host');
    if (hosts > 1 || (hosts === 0 && raw.httpVersion === '1.1')) {
      reply.header('Connection', 'close');
      return done(invalidRequest(hosts ? 'More than one Host header.' : 'The Host header is missing.'));
    }
    if (countHeader(raw.rawHeaders, 'authorization') > 1) {
      reply.header('Connection', 'close');
      return done(invalidRequest('More than one Authorization header: send exactly one "Authorization: Bearer <API_KEY>".'));
    }
    // Fastify would read (and wait for) the body before its not-found handler runs.
    if (request.is404) return void notFound(request, reply);
    done();
  });

  // Reached only once the route's onRequest hooks (authentication, rate limit) have passed.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (/^100-continue$/i.test(request.headers.expect ?? '') && !reply.raw.headersSent) reply.raw.writeContinue();
    done(null, payload);
  });

  // An answer sent before the whole body arrived: Node discards the rest of the body so that the
  // connection can be reused; a body that never ends must not keep it.
  app.addHook('onResponse', (request, _reply, done) => {
    const raw = request.raw;
    const socket = raw.socket;
    // (An in-process request, sb.fetch, has no connection to free.)
    if (!raw.complete && !raw.destroyed && typeof socket?.destroy === 'function') {
      const timer = setTimeout(() => socket.destroy(), limits.lingerMs);
      timer.unref();
      raw.once('end', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    }
    done();
  });
}
