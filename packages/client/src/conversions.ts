import type { components } from './generated/openapi.js';
import { ASPECT_RATIOS, LANGUAGES } from './generated/spec.js';
import { ValidationError } from './errors.js';

type Schemas = components['schemas'];
export type ConversionTarget = Schemas['ConversionRequest'];

/**
 * Fails fast, with the error_code the service would answer (interface 7.2), when the conversion
 * options show that the target cannot be reached. Returns nothing when the request may be sent.
 */
export function checkConversion(t: ConversionTarget, o?: Schemas['ConversionOptions']) {
  const { language: l, aspect_ratio: a } = t;
  const fail = (error_code: string, message: string, field = 'language', limit?: unknown) => {
    throw new ValidationError(`${error_code}: ${message}`, { error_code, field, limit });
  };
  const langs = o?.available_languages ?? LANGUAGES;
  if (!l && !a) fail('CONVERT_TARGET_REQUIRED', 'give language, aspect_ratio or both', 'language', ['language', 'aspect_ratio']);
  if (l && !LANGUAGES.includes(l)) fail('INVALID_LANGUAGE', `${l} is not one of ${langs}`, 'language', langs);
  if (a && !ASPECT_RATIOS.includes(a)) fail('INVALID_ASPECT_RATIO', `${a} is not one of ${ASPECT_RATIOS}`, 'aspect_ratio', ASPECT_RATIOS);
  if (!o) return;
  if (!o.is_convertible) fail('SOURCE_VIDEO_NOT_CONVERTIBLE', 'the source video cannot be converted', 'video_id');
  if ((!l || l == o.current_language) && (!a || a == o.current_aspect_ratio))
    fail('CONVERT_NO_CHANGE', `the video already has ${o.current_language} ${o.current_aspect_ratio}`, l ? 'language' : 'aspect_ratio');
  if (l && l != o.current_language && !langs.includes(l)) fail('LANGUAGE_NOT_SUPPORTED_BY_VOICES', `${l} is not available; available: ${langs}`, 'language', langs);
}
