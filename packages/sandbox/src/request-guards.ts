// Checks every request passes before anything reads its body (and its CORS headers, cors.ts, for all but
// the /_sandbox/ controls, which refuse web pages of other origins: controls-origin.ts): one Host (RFC 9112 §3.2) and at most one
// Authorization, answered with the envelope; unknown paths and methods answered before the body;
// "100 Continue" only for a request that got past authentication; and a bound on how long the unread
// body of a request answered early may keep its connection.
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { allowAnyOrigin, answerPreflight } from './cors.js';
import { controlRequestProblem, isControlPath } from './controls-origin.js';
import { ApiError, invalidRequest } from './errors.js';
import type { HttpLimits } from './http-server.js';
import { SANDBOX_PREFIX } from './sandbox-api.js';

/** How many times the request carries Host and Authorization (one pass over the raw headers). */
function countHostAndAuthorization(rawHeaders: string[]): [host: number, authorization: number] {
  let host = 0;
  let authorization = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length === 4 && name.toLowerCase() === 'host') host++;
    else if (name.length === 13 && name.toLowerCase() === 'authorization') authorization++;
  }
  return [host, authorization];
}

/** Methods whose requests carry a body: only their routes wait for one (and may send "100 Continue"). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function registerRequestGuards(
  app: FastifyInstance,
  notFound: (request: FastifyRequest, reply: FastifyReply) => unknown,
  /** The names the sandbox is addressed by besides localhost and IP addresses (for its controls). */
  ownHostnames: () => readonly string[],
) {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    // The API (and its downloads) is called from browser apps: CORS for every origin. The controls: none.
    const control = isControlPath(raw.url ?? '', SANDBOX_PREFIX);
    if (!control) allowAnyOrigin(reply);
    const [hosts, authorizations] = countHostAndAuthorization(raw.rawHeaders);
    if (hosts > 1 || (hosts === 0 && raw.httpVersion === '1.1')) {
      reply.header('Connection', 'close');
      return done(invalidRequest(hosts ? 'More than one Host header.' : 'The Host header is missing.'));
    }
    if (authorizations > 1) {
      reply.header('Connection', 'close');
      return done(
        invalidRequest('More than one Authorization header: send exactly one "Authorization: Bearer <API_KEY>".'),
      );
    }
    if (control) {
      const problem = controlRequestProblem(raw.headers, ownHostnames());
      if (problem) return done(new ApiError(403, 'FORBIDDEN', problem));
      if (raw.method === 'OPTIONS') return void reply.code(204).header('content-length', '0').send();
    }
    if (raw.method === 'OPTIONS') return answerPreflight(reply);
    // Fastify would read (and wait for) the body before its not-found handler runs.
    if (request.is404) return void notFound(request, reply);
    done();
  });

  // Reached only once the route's onRequest hooks (authentication, rate limit) have passed. Added to the
  // routes that take a body only (a hook on every route is a cost on every GET).
  const sendContinue: preParsingHookHandler = (request, reply, payload, done) => {
    if (/^100-continue$/i.test(request.headers.expect ?? '') && !reply.raw.headersSent) reply.raw.writeContinue();
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    if (!methods.some((m) => BODY_METHODS.has(m))) return;
    route.preParsing = [sendContinue, ...([] as preParsingHookHandler[]).concat(route.preParsing ?? [])];
  });
}

/**
 * An answer sent before the whole body arrived: Node discards the rest of the body so that the
 * connection can be reused; a body that never ends must not keep it (called once the answer is sent).
 */
export function boundUnreadBody(request: FastifyRequest, limits: HttpLimits) {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  const socket = raw.socket;
  // (An in-process request, sb.fetch, has no connection to free.)
  if (typeof socket?.destroy !== 'function') return;
  const timer = setTimeout(() => socket.destroy(), limits.lingerMs);
  timer.unref();
  // The socket outlives the request on a keep-alive connection: its listener goes with the timer, or
  // every early answer would leave one more (MaxListenersExceededWarning after ten).
  const settle = () => {
    clearTimeout(timer);
    raw.off('end', settle);
    socket.off('close', settle);
  };
  raw.once('end', settle);
  socket.once('close', settle);
}
