import { describe, expect, it } from 'vitest';
import { formProblem } from '../src/index.js';

describe('formProblem (x-valid-combinations, DECISIONS #26)', () => {
  it('accepts each valid combination, and images beside text', () => {
    for (const f of [
      ['text'],
      ['pdf_file'],
      ['pptx_file'],
      ['text', 'pdf_file'],
      ['audio_file'],
      ['video_file'],
      ['text', 'image_files'],
    ]) {
      expect(formProblem(['video_setting_id', ...f]), f.join()).toBeUndefined();
    }
  });
  it('rejects no input and invalid combinations', () => {
    expect(formProblem(['video_setting_id'])?.kind).toBe('no_input');
    expect(formProblem(['audio_file', 'video_file'])?.kind).toBe('invalid_combination');
    expect(formProblem(['pdf_file', 'image_files'])?.kind).toBe('invalid_combination');
    expect(formProblem(['image_files'])?.kind).toBe('invalid_combination');
  });
  it('follows the setting: only its fields, and all of them but the optional ones', () => {
    expect(formProblem(['text'], ['text', 'image_files'])).toBeUndefined();
    expect(formProblem(['text', 'image_files'], ['text'])).toMatchObject({
      kind: 'field_not_in_setting',
      field: 'image_files',
    });
    expect(formProblem(['text'], ['text', 'pdf_file'])).toMatchObject({
      kind: 'setting_field_missing',
      field: 'pdf_file',
    });
    expect(formProblem(['pdf_file'], ['text'])).toMatchObject({ kind: 'field_not_in_setting', field: 'pdf_file' });
  });
});
