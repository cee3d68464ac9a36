// GET /downloads/{video_id}.mp4?expires=…&signature=…: the presigned URL of a completed video,
// served by the sandbox itself with a real (tiny) MP4.
import { createReadStream, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { statusAt } from '../lifecycle.js';

// dist/*.js and src/routes/../ both sit one or two levels below the package root.
const candidates = ['../assets/sample.mp4', '../../assets/sample.mp4'].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);
export const SAMPLE_MP4 =
  candidates.find((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  }) ?? candidates[0];

const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message);

export function registerDownloads(app: FastifyInstance, ctx: Context) {
  app.get<{ Params: { file: string }; Querystring: Record<string, unknown> }>(
    '/downloads/:file',
    async (request, reply) => {
      // Any case: an id in another case is a tampered URL (403), not an unknown file.
      const m = /^([0-9a-f-]{36})\.mp4$/i.exec(request.params.file);
      if (!m) throw new ApiError(404, 'NOT_FOUND', 'No such download.');
      const videoId = m[1];
      // The signature covers the whole query: a parameter added to a signed URL makes it another URL.
      const names = Object.keys(request.query);
      if (names.length !== 2 || !names.includes('expires') || !names.includes('signature')) {
        throw forbidden('The download URL signature is invalid (its query must be exactly expires and signature).');
      }
      const video = ctx.store.find(videoId);
      // The owner's time: an account moved forward with /_sandbox/clock/advance sees its URLs expire.
      const now = ctx.clock.now(video?.account);
      const check = ctx.signer.verify(videoId, request.query.expires, request.query.signature, now);
      if (check === 'invalid') throw forbidden('The download URL signature is invalid.');
      if (check === 'expired')
        throw forbidden('The download URL has expired: read the video again for a fresh download_url.');
      if (!video || statusAt(video, now) !== 'completed')
        throw forbidden('The video is no longer available for download.');
      const { size } = statSync(SAMPLE_MP4);
      reply.header('Content-Type', 'video/mp4');
      reply.header('Content-Length', String(size));
      reply.header('Content-Disposition', `attachment; filename="${videoId}.mp4"`);
      reply.header('Cache-Control', 'private, no-store');
      return reply.send(request.method === 'HEAD' ? '' : createReadStream(SAMPLE_MP4));
    },
  );
}
