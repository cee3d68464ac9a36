// GET /downloads/{video_id}.mp4?expires=…&signature=…: the presigned URL of a completed video,
// served by the sandbox itself with a real (tiny) MP4.
import { createReadStream, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

/** An XML body as storage hosts write their errors (S3, GCS). */
const xmlEscape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerDownloads(app: FastifyInstance, ctx: Context) {
  const { refusal, authorization } = ctx.twin.download;
  /** The download host's refusal, in the twin's form: the envelope, or a storage host's XML. */
  const refuse = (reply: FastifyReply, r: { status: number; form: string; error_code: string }, message: string) => {
    if (r.form === 'envelope') throw new ApiError(r.status, r.error_code, message);
    return reply
      .code(r.status)
      .type('application/xml')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(r.error_code)}</Code><Message>${xmlEscape(message)}</Message></Error>`,
      );
  };

  app.get<{ Params: { file: string }; Querystring: Record<string, unknown> }>(
    '/downloads/:file',
    async (request, reply) => {
      // Any case: an id in another case is a tampered URL (403), not an unknown file.
      const m = /^([0-9a-f-]{36})\.mp4$/i.exec(request.params.file);
      if (!m) throw new ApiError(404, 'NOT_FOUND', 'No such download.');
      const videoId = m[1];
      // A host that takes its signature as the only authentication refuses a second one.
      if (authorization.answer === 'refused' && request.headers.authorization !== undefined)
        return refuse(
          reply,
          authorization,
          'Only one auth mechanism allowed: the URL is presigned, do not send an Authorization header.',
        );
      const video = ctx.store.find(videoId);
      // The owner's time: an account moved forward with /_sandbox/clock/advance sees its URLs expire.
      const now = ctx.clock.now(video?.account);
      // The signature covers the whole query: a parameter added to a signed URL makes it another URL.
      const check = ctx.signer.verify(videoId, request.query, now);
      if (check === 'invalid')
        return refuse(reply, refusal, 'The download URL signature is invalid (use the URL exactly as issued).');
      if (check === 'expired')
        return refuse(reply, refusal, 'The download URL has expired: read the video again for a fresh download_url.');
      if (!video || statusAt(video, now) !== 'completed')
        return refuse(reply, refusal, 'The video is no longer available for download.');
      const { size } = statSync(SAMPLE_MP4);
      reply.header('Content-Type', 'video/mp4');
      reply.header('Content-Length', String(size));
      reply.header('Content-Disposition', `attachment; filename="${videoId}.mp4"`);
      reply.header('Cache-Control', 'private, no-store');
      return reply.send(request.method === 'HEAD' ? '' : createReadStream(SAMPLE_MP4));
    },
  );
}
