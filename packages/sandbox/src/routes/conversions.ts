// GET and POST /videos/{video_id}/conversions/, with the error rows of interface 7.2 in a fixed order:
// NOT_FOUND → Free plan 403 → body → CONVERT_TARGET_REQUIRED → INVALID_LANGUAGE / INVALID_ASPECT_RATIO →
// UNSUPPORTED_HEAVY_AVATAR → SOURCE_VIDEO_NOT_CONVERTIBLE → CONVERT_NO_CHANGE →
// LANGUAGE_NOT_SUPPORTED_BY_VOICES → UNKNOWN_ERROR scenario → INSUFFICIENT_CREDIT 429 → 503.
import { conversionProblem } from '@videogen/openapi/rules';
import type { Context } from '../context.js';
import { ApiError, notFound, refusal } from '../errors.js';
import { conversionOptions } from '../lifecycle.js';
import type { Untrusted, RequestBody } from '@videogen/openapi/types';
import type { OperationHandlers } from '../spec-routes.js';
import { checkCapacity, startVideo } from '../videos.js';

const bad = (code: string, message: string) => new ApiError(400, code, message);

export function conversionHandlers(ctx: Context): Pick<OperationHandlers, 'getConversionOptions' | 'createConversion'> {
  const { languages, aspectRatios } = ctx.model;
  /** A video of the account; an unknown one is 7.2's NOT_FOUND on a conversion, an open refusal on a read. */
  const findVideo = (account: string, id: string, read: boolean) => {
    const v = ctx.store.get(account, id);
    if (!v) throw read ? refusal('unknown_id', `Video ${id} was not found.`) : notFound(`Video ${id}`);
    return v;
  };
  return {
    getConversionOptions: async ({ account, path: { video_id } }) => {
      const v = findVideo(account.name, video_id, true);
      return conversionOptions(v, ctx.clock.now(v.account), languages, aspectRatios);
    },
    createConversion: async ({ request, account, path: { video_id } }) => {
      const source = findVideo(account.name, video_id, false);
      if (account.plan === 'free')
        throw new ApiError(403, 'INSUFFICIENT_CREDIT', 'The conversion API is not available on the Free plan.');
      const { language, aspect_ratio } = parseJsonObject(request.headers['content-type'], request.body);
      // The 400 rows of 7.2 in the order of DECISIONS #25: the one rule shared with the client and the CLI.
      // The sandbox knows why a video is not convertible, so it passes the reason (DECISIONS #19).
      const options = conversionOptions(source, ctx.clock.now(account.name), languages, aspectRatios);
      const problem = conversionProblem(
        { language, aspect_ratio },
        {
          ...options,
          notConvertibleReason: source.real_avatar
            ? 'real_avatar'
            : options.is_convertible
              ? undefined
              : 'no_video_data',
        },
      );
      // (Only a source whose reason is unknown has no code; the sandbox always knows it.)
      if (problem) throw bad(problem.error_code ?? 'SOURCE_VIDEO_NOT_CONVERTIBLE', problem.message);
      if (source.unknown_error_on_convert) throw new ApiError(500, 'UNKNOWN_ERROR', 'An unexpected error occurred.');
      checkCapacity(ctx, account, 'conversion');
      const v = await startVideo(ctx, account, {
        seconds: ctx.twin.durationSeconds('conversion', undefined, account.name),
        prompt: source.prompt,
        language: (language as string | undefined) ?? source.language,
        aspect_ratio: (aspect_ratio as string | undefined) ?? source.aspect_ratio,
        voices: source.voices,
        outcome: 'completed',
        has_video_data: true,
        real_avatar: false,
        expire_soon: false,
        source_video_id: source.video_id,
      });
      return { video_id: v.video_id };
    },
  };
}

/**
 * The body arrives unparsed (see server.ts) so that its errors come after NOT_FOUND and the plan check;
 * once it is a JSON object, its fields are the document's names, their values still to be checked.
 */
function parseJsonObject(contentType: string | undefined, raw: unknown): Untrusted<RequestBody<'createConversion'>> {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json')
    throw refusal(
      'conversion_body_invalid',
      'The request body must be a JSON object (Content-Type: application/json).',
    );
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '');
  } catch {
    throw refusal('conversion_body_invalid', 'The request body must be a JSON object (it is not valid JSON).');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw refusal('conversion_body_invalid', 'The request body must be a JSON object.');
  return body;
}
