// CORS for browser apps on a local dev server: every origin is allowed on the API and the downloads (the
// key travels in the Authorization header, never in a cookie), scripts may read the pacing headers, and a
// preflight (OPTIONS, on any path but the /_sandbox/ controls: controls-origin.ts) is answered at once
// with what the sandbox accepts. Written here rather than
// with @fastify/cors because a fixed `*` needs none of its generality, and its hook cost about 0.5 µs on
// every request and 10 ms of start-up (bench/README.md).
import type { FastifyReply } from 'fastify';

const EXPOSED = 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy';
const PREFLIGHT = {
  'access-control-allow-methods': 'GET,HEAD,POST',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '600',
};

/** The CORS headers of every answer. */
export function allowAnyOrigin(reply: FastifyReply) {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', EXPOSED);
}

/** A preflight (any OPTIONS request, with or without the preflight headers): 204 and the rules. */
export function answerPreflight(reply: FastifyReply) {
  reply.code(204).headers(PREFLIGHT).header('content-length', '0').send();
}
