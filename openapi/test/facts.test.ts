// The document must hold every fact of the interface (../shared/interface-spec.md).
import { describe, expect, it } from 'vitest';
import { createAjv, deref, listOperations, loadSpec, validatorFor } from '../lib/index.js';

const spec = loadSpec();
const S = spec.components.schemas;
const ops = Object.fromEntries(listOperations(spec).map((o) => [o.operationId, o]));
const byRoute = Object.fromEntries(listOperations(spec).map((o) => [`${o.method} ${o.path}`, o]));

const LANGUAGES = [
  'ja',
  'en',
  'zh-Hans',
  'zh-Hant',
  'ko',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'ru',
  'hi',
  'bn',
  'id',
  'th',
  'vi',
  'tl',
  'ms',
  'my',
  'ne',
  'mn',
  'tr',
  'sv',
  'da',
  'fi',
  'pl',
  'cs',
  'sk',
  'nl',
  'ro',
  'hr',
  'bg',
  'uk',
  'el',
];
const RATIOS = ['16:9', '9:16', '4:3', '1:1', '4:5', '2:3', '21:9'];
const CONVERSION_ERRORS: Array<[string, number[]]> = [
  ['CONVERT_TARGET_REQUIRED', [400]],
  ['INVALID_LANGUAGE', [400]],
  ['INVALID_ASPECT_RATIO', [400]],
  ['LANGUAGE_NOT_SUPPORTED_BY_VOICES', [400]],
  ['CONVERT_NO_CHANGE', [400]],
  ['SOURCE_VIDEO_NOT_CONVERTIBLE', [400]],
  ['UNSUPPORTED_HEAVY_AVATAR', [400]],
  ['NOT_FOUND', [404]],
  ['INSUFFICIENT_CREDIT', [429, 403]],
  ['SIMULTANEOUS_GENERATE_LIMIT', [503]],
  ['UNKNOWN_ERROR', [500]],
];

/** The properties of a schema, following allOf and refs. */
function props(schema: any): Record<string, any> {
  const s = deref(spec, schema);
  return Object.assign({}, ...(s.allOf ?? []).map(props), s.properties ?? {});
}
function required(schema: any): string[] {
  const s = deref(spec, schema);
  return [...(s.required ?? []), ...(s.allOf ?? []).flatMap(required)];
}
function field(schema: any, name: string) {
  return deref(spec, props(schema)[name]);
}

describe('servers and security', () => {
  it('declares production over https with /v1 and the local sandbox', () => {
    const urls = spec.servers.map((s: any) => s.url);
    expect(urls.some((u: string) => u.startsWith('https://') && u.endsWith('/v1'))).toBe(true);
    expect(urls).toContain('http://127.0.0.1:4010/v1');
  });
  it('applies bearer auth globally and declares 401 and 403 with the envelope on every operation', () => {
    expect(spec.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(spec.security).toEqual([{ bearerAuth: [] }]);
    for (const op of Object.values<any>(ops)) {
      for (const status of ['401', '403']) {
        const r = deref(spec, op.operation.responses[status]);
        expect(r, `${op.operationId} ${status}`).toBeDefined();
        expect(required(r.content['application/json'].schema)).toEqual(expect.arrayContaining(['error_code', 'error']));
      }
    }
  });
});

describe('operations', () => {
  it('has the 6 paths exactly, trailing slashes included, with unique operationIds and tags', () => {
    expect(Object.keys(byRoute).sort()).toEqual([
      'GET /video-settings/',
      'GET /videos/',
      'GET /videos/{video_id}/',
      'GET /videos/{video_id}/conversions/',
      'POST /videos/generate/',
      'POST /videos/{video_id}/conversions/',
    ]);
    const ids = Object.values<any>(byRoute).map((o) => o.operationId);
    expect(new Set(ids).size).toBe(6);
    for (const o of Object.values<any>(byRoute)) expect(o.operation.tags?.length).toBeGreaterThan(0);
  });
  it('states each rate-limit class with its numbers, and the concurrency limit on both POSTs', () => {
    for (const o of Object.values<any>(byRoute)) {
      const cls = o.method === 'POST' ? { class: 'A', requests: 2 } : { class: 'B', requests: 5 };
      expect(o.operation['x-rate-limit'], o.operationId).toEqual({ ...cls, window_seconds: 10, scope: 'account' });
      expect(o.operation.description).toContain(`class ${cls.class}`);
      if (o.method === 'POST')
        expect(o.operation['x-concurrency-limit']).toMatchObject({ max_running: 2, scope: 'account' });
    }
    expect(spec.info.description).toMatch(/not per key/);
  });
  it('states the retry guidance and the polling flow', () => {
    const rules = spec['x-retry-policy'].rules;
    expect(rules).toContainEqual({ status: '5XX', retry: true, max_retries: 3, backoff: 'exponential' });
    expect(rules.find((r: any) => r.status === '503').wait_seconds).toEqual({ min: 30, max: 60 });
    expect(rules.find((r: any) => r.status === '429' && !r.error_code).wait).toBe('until-rate-limit-reset');
    // 7.2: a 429 INSUFFICIENT_CREDIT is the credit balance; waiting adds no credit.
    expect(rules).toContainEqual(
      expect.objectContaining({ status: '429', error_code: 'INSUFFICIENT_CREDIT', retry: false }),
    );
    expect(rules.find((r: any) => r.status === 'other').retry).toBe(false);
    expect(ops.getVideo.operation['x-polling']).toMatchObject({ interval_seconds: 10, timeout_seconds: 600 });
  });
  it('declares every error status that applies, with examples', () => {
    const expected: Record<string, string[]> = {
      // 5XX everywhere (7.1's retry rule is for every 5xx); 500 only where 7.2 names it.
      generateVideo: ['400', '401', '403', '413', '429', '503', '5XX'],
      listVideos: ['400', '401', '403', '429', '503', '5XX'],
      getVideo: ['400', '401', '403', '404', '429', '503', '5XX'],
      getConversionOptions: ['400', '401', '403', '404', '429', '503', '5XX'],
      createConversion: ['400', '401', '403', '404', '413', '429', '500', '503', '5XX'],
      listVideoSettings: ['400', '401', '403', '429', '503', '5XX'],
    };
    for (const [id, statuses] of Object.entries(expected)) {
      expect(
        Object.keys(ops[id].operation.responses)
          .filter((s) => s !== '200')
          .sort(),
      ).toEqual(statuses);
      expect(Object.keys(ops[id].operation.responses)).toContain('200');
    }
  });
  it('takes page as an integer of at least 1, default 1, on both lists', () => {
    for (const id of ['listVideos', 'listVideoSettings']) {
      const page = ops[id].parameters.find((p: any) => p.name === 'page');
      expect(page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } });
    }
  });
});

describe('resources', () => {
  it('2.1 video status view', () => {
    expect(required(S.Video).sort()).toEqual(['copyright', 'download_url', 'status', 'video_id']);
    expect(field(S.Video, 'video_id')).toMatchObject({ type: 'string', format: 'uuid' });
    expect(field(S.Video, 'status').enum).toEqual(['running', 'completed', 'failed', 'expired']);
    expect(field(S.Video, 'download_url').type).toBe('string');
    expect(field(S.Video, 'copyright').type).toBe('array');
    const v = validatorFor(createAjv(spec), '#/components/schemas/Video');
    const id = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';
    expect(v({ video_id: id, status: 'running', download_url: '', copyright: [] })).toBe(true);
    expect(v({ video_id: id, status: 'running', download_url: '', copyright: ['x'] })).toBe(false);
    expect(v({ video_id: id, status: 'completed', download_url: '', copyright: [] })).toBe(false);
  });
  it('2.2 video list item', () => {
    expect(required(S.VideoListItem).sort()).toEqual(['created_at', 'prompt', 'video_id']);
    expect(field(S.VideoListItem, 'video_id')).toMatchObject({ type: 'string', format: 'uuid' });
    expect(field(S.VideoListItem, 'created_at')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(field(S.VideoListItem, 'prompt').type).toBe('string');
  });
  it('2.3 video setting', () => {
    expect(required(S.VideoSetting).sort()).toEqual([
      'created_at',
      'request_fields',
      'title',
      'updated_at',
      'video_setting_id',
    ]);
    expect(field(S.VideoSetting, 'video_setting_id')).toMatchObject({ type: 'string', format: 'uuid' });
    expect(field(S.VideoSetting, 'updated_at')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(field(S.VideoSetting, 'created_at')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(field(S.VideoSetting, 'title').type).toBe('string');
    expect(field(S.VideoSetting, 'request_fields').type).toBe('array');
  });
  it('2.4 conversion options', () => {
    expect(required(S.ConversionOptions).sort()).toEqual([
      'available_aspect_ratios',
      'available_languages',
      'current_aspect_ratio',
      'current_language',
      'is_convertible',
    ]);
    expect(field(S.ConversionOptions, 'is_convertible').type).toBe('boolean');
    expect(deref(spec, field(S.ConversionOptions, 'available_languages').items).enum).toEqual(LANGUAGES);
    expect(deref(spec, field(S.ConversionOptions, 'available_aspect_ratios').items).enum).toEqual(RATIOS);
  });
  it('2.5 paged list envelope, on both lists', () => {
    for (const list of [S.VideoList, S.VideoSettingList]) {
      expect(required(list).sort()).toEqual(['has_next', 'items_per_page', 'page', 'results', 'total_count']);
      expect(field(list, 'items_per_page')).toMatchObject({ type: 'integer', const: 50 });
      expect(field(list, 'has_next').type).toBe('boolean');
      expect(field(list, 'total_count').type).toBe('integer');
      expect(field(list, 'page').type).toBe('integer');
    }
    expect(field(S.VideoList, 'results').maxItems).toBe(50);
    expect(field(S.VideoSettingList, 'results').maxItems).toBe(50);
    expect(deref(spec, field(S.VideoList, 'results').items)).toBe(S.VideoListItem);
    expect(deref(spec, field(S.VideoSettingList, 'results').items)).toBe(S.VideoSetting);
  });
  it('2.6 the 34 languages and 7 aspect ratios, named', () => {
    expect(S.Language.enum).toEqual(LANGUAGES);
    expect(Object.keys(S.Language['x-enumDescriptions'])).toEqual(LANGUAGES);
    expect(S.Language['x-enumDescriptions']['zh-Hant']).toBe('Chinese (Traditional)');
    expect(S.AspectRatio.enum).toEqual(RATIOS);
    expect(Object.keys(S.AspectRatio['x-enumDescriptions'])).toEqual(RATIOS);
  });
});

describe('generation form', () => {
  const media = deref(spec, ops.generateVideo.operation.requestBody).content['multipart/form-data'];
  const form = deref(spec, media.schema);
  it('is multipart with every field, files binary, at most 10 images', () => {
    expect(form.required).toEqual(['video_setting_id']);
    expect(form.properties.video_setting_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(form.properties.text.type).toBe('string');
    for (const f of ['pdf_file', 'pptx_file', 'audio_file', 'video_file'])
      expect(form.properties[f]).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties.image_files).toMatchObject({
      type: 'array',
      maxItems: 10,
      items: { type: 'string', format: 'binary' },
    });
  });
  it('lists the valid combinations', () => {
    expect(form['x-valid-combinations'].map((c: any) => c.fields)).toEqual([
      ['text'],
      ['pdf_file'],
      ['pptx_file'],
      ['text', 'pdf_file'],
      ['audio_file'],
      ['video_file'],
    ]);
  });
  it('states formats and sizes per plan', () => {
    const L = form['x-upload-limits'].fields;
    expect(L.pdf_file.max_bytes).toEqual({ personal: 100e6, business: 180e6 });
    expect(L.pptx_file.max_bytes).toEqual({ personal: 100e6, business: 180e6 });
    expect(L.audio_file.max_bytes).toEqual({ personal: 50e6, business: 180e6 });
    expect(L.video_file.max_bytes).toEqual({ personal: 50e6, business: 180e6 });
    expect(L.image_files).toMatchObject({ max_bytes: { personal: 10e6, business: 10e6 }, max_items: 10 });
    expect(L.audio_file.extensions.personal).toEqual(['.mp3', '.wav', '.m4a', '.aac']);
    expect(L.video_file.extensions).toEqual({ personal: ['.mp4'], business: ['.mp4', '.mov', '.webm'] });
    expect(L.image_files.extensions.personal).toEqual(['.png', '.jpg', '.jpeg', '.webp']);
    expect(ops.generateVideo.operation.description).toMatch(/100 MB \| 180 MB/);
  });
});

describe('errors', () => {
  it('has one error schema with two required strings', () => {
    expect(S.ErrorBody.required).toEqual(['error_code', 'error']);
    expect(S.ErrorBody.properties.error.type).toBe('string');
  });
  it.each(CONVERSION_ERRORS)('conversion error %s is an enum value and a named example under %j', (code, statuses) => {
    for (const status of statuses) {
      const r = deref(spec, ops.createConversion.operation.responses[String(status)]);
      const media = r.content['application/json'];
      // Known codes: the const, the enum, or (opened codes) the enum branch of an anyOf.
      const c = field(media.schema, 'error_code');
      const known = c.const ? [c.const] : (c.enum ?? c.anyOf.flatMap((b: any) => deref(spec, b).enum ?? []));
      expect(known).toContain(code);
      expect(media.examples[code].value.error_code).toBe(code);
    }
    expect(S.ErrorCode.enum).toContain(code);
  });
  it('documents the Free plan case of INSUFFICIENT_CREDIT under 403', () => {
    expect(deref(spec, ops.createConversion.operation.responses['403']).description).toMatch(/Free plan/);
  });
  it('names an example for each video state', () => {
    expect(Object.keys(ops.getVideo.operation.responses['200'].content['application/json'].examples)).toEqual([
      'running',
      'completed',
      'failed',
      'expired',
    ]);
  });
});
