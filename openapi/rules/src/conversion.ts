// The 400 rows of interface 7.2 for POST /videos/{video_id}/conversions/, in the order of
// DECISIONS #25: CONVERT_TARGET_REQUIRED → INVALID_LANGUAGE / INVALID_ASPECT_RATIO →
// UNSUPPORTED_HEAVY_AVATAR → SOURCE_VIDEO_NOT_CONVERTIBLE → CONVERT_NO_CHANGE →
// LANGUAGE_NOT_SUPPORTED_BY_VOICES. (NOT_FOUND, the Free-plan 403, 500, 429 and 503 depend on the
// service's state, not on the request and the source: they are not decided here.)
import { ASPECT_RATIOS, LANGUAGES, type ConversionErrorCode } from './generated/constants.js';

export interface ConversionTarget {
  language?: unknown;
  aspect_ratio?: unknown;
}

/** What is known of the source video: its conversion options (GET .../conversions/) and, if known, why it is not convertible. */
export interface ConversionSource {
  is_convertible: boolean;
  current_language: string;
  current_aspect_ratio: string;
  available_languages: readonly string[];
  /**
   * Why `is_convertible` is false. The service knows (the sandbox passes it); a client does not: the
   * options say only `false` (a real avatar, DECISIONS #19, or no generated video data). Leave it out
   * when unknown, and the answer carries no error_code rather than a guess.
   */
  notConvertibleReason?: 'real_avatar' | 'no_video_data';
}

export type ConversionProblemKind =
  | 'target_required'
  | 'invalid_language'
  | 'invalid_aspect_ratio'
  | 'heavy_avatar'
  | 'source_not_convertible'
  | 'not_convertible'
  | 'no_change'
  | 'language_not_available';

export interface ConversionProblem {
  kind: ConversionProblemKind;
  /**
   * The code the service answers (status 400). Undefined only for kind `not_convertible`: the video
   * cannot be converted but the caller does not know why, so the code (SOURCE_VIDEO_NOT_CONVERTIBLE or
   * UNSUPPORTED_HEAVY_AVATAR) is the service's to give. Callers send the request and report its answer.
   */
  error_code?: ConversionErrorCode;
  status: 400;
  /** The request field at fault. */
  field: 'language' | 'aspect_ratio' | 'video_id';
  message: string;
  /** The allowed values, where a list helps the user (languages, ratios). */
  allowed?: readonly string[];
}

const problem = (
  kind: ConversionProblemKind,
  error_code: ConversionErrorCode | undefined,
  field: ConversionProblem['field'],
  message: string,
  allowed?: readonly string[],
): ConversionProblem => ({
  kind,
  ...(error_code && { error_code }),
  status: 400,
  field,
  message,
  ...(allowed && { allowed }),
});

const has = (list: readonly string[], v: unknown) => typeof v === 'string' && list.includes(v);

/**
 * The first 7.2 problem of converting `source` to `target`, or undefined when the request may be sent.
 * Without `source`, only the checks that need no source (target given, codes supported) run.
 */
export function conversionProblem(target: ConversionTarget, source?: ConversionSource): ConversionProblem | undefined {
  const { language: l, aspect_ratio: a } = target;
  if (l === undefined && a === undefined) {
    return problem('target_required', 'CONVERT_TARGET_REQUIRED', 'language', 'Give language, aspect_ratio, or both.');
  }
  if (l !== undefined && !has(LANGUAGES, l)) {
    return problem(
      'invalid_language',
      'INVALID_LANGUAGE',
      'language',
      `language ${JSON.stringify(l)} is not a supported language code.`,
      LANGUAGES,
    );
  }
  if (a !== undefined && !has(ASPECT_RATIOS, a)) {
    return problem(
      'invalid_aspect_ratio',
      'INVALID_ASPECT_RATIO',
      'aspect_ratio',
      `aspect_ratio ${JSON.stringify(a)} is not a supported aspect ratio.`,
      ASPECT_RATIOS,
    );
  }
  if (!source) return undefined;
  if (source.notConvertibleReason === 'real_avatar') {
    return problem(
      'heavy_avatar',
      'UNSUPPORTED_HEAVY_AVATAR',
      'video_id',
      'The source video contains a real avatar and cannot be converted.',
    );
  }
  if (!source.is_convertible) {
    return source.notConvertibleReason === 'no_video_data'
      ? problem(
          'source_not_convertible',
          'SOURCE_VIDEO_NOT_CONVERTIBLE',
          'video_id',
          'The source video has no generated video data (or is not completed) and cannot be converted.',
        )
      : problem(
          'not_convertible',
          undefined,
          'video_id',
          'The source video cannot be converted (is_convertible is false; the service says why).',
        );
  }
  // A value equal to the source's alongside a real change is "unchanged", not an error.
  const changesLanguage = l !== undefined && l !== source.current_language;
  const changesRatio = a !== undefined && a !== source.current_aspect_ratio;
  if (!changesLanguage && !changesRatio) {
    return problem(
      'no_change',
      'CONVERT_NO_CHANGE',
      l !== undefined ? 'language' : 'aspect_ratio',
      `The source video already has language "${source.current_language}" and aspect ratio "${source.current_aspect_ratio}".`,
    );
  }
  if (changesLanguage && !source.available_languages.includes(l as string)) {
    return problem(
      'language_not_available',
      'LANGUAGE_NOT_SUPPORTED_BY_VOICES',
      'language',
      `language "${l}" is not in the available_languages of the source video.`,
      source.available_languages,
    );
  }
  return undefined;
}
