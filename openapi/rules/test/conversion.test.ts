import { describe, expect, it } from 'vitest';
import { conversionProblem, type ConversionSource } from '../src/index.js';

const source: ConversionSource = {
  is_convertible: true,
  current_language: 'ja',
  current_aspect_ratio: '16:9',
  available_languages: ['ja', 'en'],
};
const code = (t: object, s?: ConversionSource) => conversionProblem(t, s)?.error_code;

describe('conversionProblem (7.2 in the order of DECISIONS #25)', () => {
  it('checks the target without a source', () => {
    expect(code({})).toBe('CONVERT_TARGET_REQUIRED');
    expect(code({ language: 'xx' })).toBe('INVALID_LANGUAGE');
    expect(code({ language: 5 })).toBe('INVALID_LANGUAGE');
    expect(code({ aspect_ratio: '16/9' })).toBe('INVALID_ASPECT_RATIO');
    expect(conversionProblem({ language: 'en' })).toBeUndefined();
  });
  it('puts the request before the source: an invalid code on a real-avatar video is INVALID_LANGUAGE', () => {
    expect(code({ language: 'xx' }, { ...source, is_convertible: false, notConvertibleReason: 'real_avatar' })).toBe(
      'INVALID_LANGUAGE',
    );
  });
  it('says UNSUPPORTED_HEAVY_AVATAR for a real avatar (DECISIONS #19), SOURCE_VIDEO_NOT_CONVERTIBLE for missing data', () => {
    expect(code({ language: 'en' }, { ...source, is_convertible: false, notConvertibleReason: 'real_avatar' })).toBe(
      'UNSUPPORTED_HEAVY_AVATAR',
    );
    expect(code({ language: 'en' }, { ...source, is_convertible: false, notConvertibleReason: 'no_video_data' })).toBe(
      'SOURCE_VIDEO_NOT_CONVERTIBLE',
    );
  });
  it('does not invent a code when the reason is unknown', () => {
    const p = conversionProblem({ language: 'en' }, { ...source, is_convertible: false });
    expect(p).toMatchObject({ kind: 'not_convertible', status: 400, field: 'video_id' });
    expect(p).not.toHaveProperty('error_code');
  });
  it('CONVERT_NO_CHANGE before LANGUAGE_NOT_SUPPORTED_BY_VOICES; an unchanged value beside a change is fine', () => {
    expect(code({ language: 'ja' }, source)).toBe('CONVERT_NO_CHANGE');
    expect(code({ language: 'ja', aspect_ratio: '16:9' }, source)).toBe('CONVERT_NO_CHANGE');
    expect(code({ language: 'fr' }, source)).toBe('LANGUAGE_NOT_SUPPORTED_BY_VOICES');
    expect(conversionProblem({ language: 'fr' }, source)?.allowed).toEqual(['ja', 'en']);
    expect(conversionProblem({ language: 'ja', aspect_ratio: '9:16' }, source)).toBeUndefined();
    expect(conversionProblem({ language: 'en' }, source)).toBeUndefined();
  });
});
