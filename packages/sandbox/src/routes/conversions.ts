// GET and POST /videos/{video_id}/conversions/, with the error rows of interface 7.2 in a fixed order:
// NOT_FOUND → Free plan 403 → body → CONVERT_TARGET_REQUIRED → INVALID_LANGUAGE / INVALID_ASPECT_RATIO →
// UNSUPPORTED_HEAVY_AVATAR → SOURCE_VIDEO_NOT_CONVERTIBLE → CONVERT_NO_CHANGE →
// LANGUAGE_NOT_SUPPORTED_BY_VOICES → UNKNOWN_ERROR scenario → INSUFFICIENT_CREDIT 429 → 503.
import type { Context } from '../context.js';
import { ApiError, invalidRequest, notFound } from '../errors.js';
import { conversionOptions } from '../lifecycle.js';
import type { OperationHandler } from '../spec-routes.js';
import { checkCapacity, startVideo } from '../videos.js';

const bad = (code: string, message: string) => new ApiError(400, code, message);

export function conversionHandlers(ctx: Context): Record<string, OperationHandler> {
  const { languages, aspectRatios, validate } = ctx.model;
  const findVideo = (account: string, id: string) => {
    const v = ctx.store.get(account, id);
    if (!v) throw notFound(`Video ${id}`);
    return v;
  };
  return {
    getConversionOptions: async (request, _reply, params) => {
      const v = findVideo(request.account!.name, params.video_id as string);
      return conversionOptions(v, ctx.clock.now(v.account), languages, aspectRatios);
    },
    createConversion: async (request, _reply, params) => {
      const account = request.account!;
      const source = findVideo(account.name, params.video_id as string);
      if (account.plan === 'free') throw new ApiError(403, 'INSUFFICIENT_CREDIT', 'The conversion API is not available on the Free plan.');
      const body = parseJsonObject(request.headers['content-type'], request.body);
      const { language, aspect_ratio } = body as { language?: unknown; aspect_ratio?: unknown };
      if (language === undefined && aspect_ratio === undefined) throw bad('CONVERT_TARGET_REQUIRED', 'Give language, aspect_ratio, or both.');
      if (language !== undefined && !validate.language(language)) {
        throw bad('INVALID_LANGUAGE', `language ${JSON.stringify(language)} is not a supported language code.`);
      }
      if (aspect_ratio !== undefined && !validate.aspectRatio(aspect_ratio)) {
        throw bad('INVALID_ASPECT_RATIO', `aspect_ratio ${JSON.stringify(aspect_ratio)} is not a supported aspect ratio.`);
      }
      if (source.real_avatar) throw bad('UNSUPPORTED_HEAVY_AVATAR', 'The source video contains a real avatar and cannot be converted.');
      const options = conversionOptions(source, ctx.clock.now(account.name), languages, aspectRatios);
      if (!options.is_convertible) {
        throw bad('SOURCE_VIDEO_NOT_CONVERTIBLE', 'The source video has no generated video data (or is not completed) and cannot be converted.');
      }
      const changesLanguage = language !== undefined && language !== source.language;
      const changesRatio = aspect_ratio !== undefined && aspect_ratio !== source.aspect_ratio;
      if (!changesLanguage && !changesRatio) {
        throw bad('CONVERT_NO_CHANGE', `The source video already has language "${source.language}" and aspect ratio "${source.aspect_ratio}".`);
      }
      // A language equal to the current one alongside a new ratio is "unchanged", not an error.
      if (changesLanguage && !options.available_languages.includes(language as string)) {
        throw bad('LANGUAGE_NOT_SUPPORTED_BY_VOICES', `language "${language}" is not in the available_languages of the source video.`);
      }
      if (source.unknown_error_on_convert) throw new ApiError(500, 'UNKNOWN_ERROR', 'An unexpected error occurred.');
      checkCapacity(ctx, account, 'conversion');
      const v = await startVideo(ctx, account, {
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

/** The body arrives unparsed (see server.ts) so that its errors come after NOT_FOUND and the plan check. */
function parseJsonObject(contentType: string | undefined, raw: unknown): Record<string, unknown> {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw invalidRequest('The request body must be a JSON object (Content-Type: application/json).');
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '');
  } catch {
    throw invalidRequest('The request body must be a JSON object (it is not valid JSON).');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}
