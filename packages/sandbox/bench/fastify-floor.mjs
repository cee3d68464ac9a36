// The floor of a sandbox on Fastify: a bare Fastify route answering the bytes and headers of the
// sandbox's GET /v1/videos/{id}/ (CORS and RateLimit headers, the body serialized once), with none of the
// sandbox's work. node bench/instructions.mjs --script bench/fastify-floor.mjs measures it.
import Fastify from 'fastify';
const VIDEO = '71de0a00-0000-4000-8000-000000000001';
const body = JSON.stringify({
  video_id: VIDEO,
  status: 'completed',
  download_url: 'http://127.0.0.1/downloads/' + VIDEO + '.mp4?expires=1795268764262&signature=' + 'f'.repeat(64),
  copyright: [
    'Background music: "Morning Light" by Sandbox Audio (royalty-free)',
    'Stock footage: Sandbox Media Library, licensed for generated videos',
  ],
});
const app = Fastify({ logger: false });
app.get('/v1/videos/:id/', (req, reply) => {
  reply
    .header('access-control-allow-origin', '*')
    .header(
      'access-control-expose-headers',
      'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy',
    );
  reply
    .header('RateLimit-Limit', '1')
    .header('RateLimit-Remaining', '1')
    .header('RateLimit-Reset', '0')
    .header('RateLimit-Policy', '1;w=2');
  reply.type('application/json; charset=utf-8');
  return body;
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('ORIGIN http://127.0.0.1:' + app.server.address().port);
