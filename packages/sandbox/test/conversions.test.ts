// Conversion options and every error row of interface 7.2, in the documented check order.
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS, MAGIC, type RunningSandbox } from '../src/index.js';
import { call, expectError, form, manualClock, sandbox } from './helpers.js';

const ALL_RATIOS = ['16:9', '9:16', '4:3', '1:1', '4:5', '2:3', '21:9'];
const acme = FIXTURES.acme.videos;
let sb: RunningSandbox;
const clock = manualClock();
beforeAll(async () => {
  sb = await sandbox({ rateLimits: false, now: clock.now });
});
const convert = (id: string, json: unknown, key: string = SANDBOX_KEYS.acme) =>
  call(sb, 'POST', `/videos/${id}/conversions/`, { key, json });

describe('GET conversions', () => {
  it('derives available_languages from the voices, without the current language', async () => {
    const a = await call(sb, 'GET', `/videos/${acme.convertible}/conversions/`, { key: SANDBOX_KEYS.acme });
    expect(a.body.is_convertible).toBe(true);
    expect(a.body.current_language).toBe('ja');
    expect(a.body.available_languages).toHaveLength(33);
    expect(a.body.available_languages).not.toContain('ja');
    expect(a.body.available_aspect_ratios).toEqual(ALL_RATIOS);
    const limited = await call(sb, 'GET', `/videos/${acme.limitedVoices}/conversions/`, { key: SANDBOX_KEYS.acme });
    expect(limited.body).toEqual({
      is_convertible: true,
      current_language: 'ja',
      available_languages: ['en', 'ko'],
      current_aspect_ratio: '16:9',
      available_aspect_ratios: ALL_RATIOS,
    });
  });
  it.each(['notConvertible', 'realAvatar', 'failed', 'expired'] as const)(
    'a %s video has is_convertible false and empty lists',
    async (k) => {
      const a = await call(sb, 'GET', `/videos/${acme[k]}/conversions/`, { key: SANDBOX_KEYS.acme });
      expect(a.body).toEqual({
        is_convertible: false,
        current_language: 'ja',
        available_languages: [],
        current_aspect_ratio: '16:9',
        available_aspect_ratios: [],
      });
    },
  );
});

describe('POST conversions', () => {
  it('creates a new running video with the target values and leaves the source unchanged', async () => {
    const before = await call(sb, 'GET', `/videos/${acme.convertible}/`, { key: SANDBOX_KEYS.acme });
    const a = await convert(acme.convertible, { language: 'fr', aspect_ratio: '9:16' });
    expect(a.status).toBe(200);
    expect(a.body.video_id).not.toBe(acme.convertible);
    const v = await call(sb, 'GET', `/videos/${a.body.video_id}/`, { key: SANDBOX_KEYS.acme });
    expect(v.body).toEqual({ video_id: a.body.video_id, status: 'running', download_url: '', copyright: [] });
    clock.advance(30_001);
    const opts = await call(sb, 'GET', `/videos/${a.body.video_id}/conversions/`, { key: SANDBOX_KEYS.acme });
    expect(opts.body).toMatchObject({ is_convertible: true, current_language: 'fr', current_aspect_ratio: '9:16' });
    expect(opts.body.available_languages).toContain('ja');
    expect(opts.body.available_languages).not.toContain('fr');
    const after = await call(sb, 'GET', `/videos/${acme.convertible}/`, { key: SANDBOX_KEYS.acme });
    expect(after.body.status).toBe(before.body.status);
    expect(
      (await call(sb, 'GET', `/videos/${acme.convertible}/conversions/`, { key: SANDBOX_KEYS.acme })).body
        .current_language,
    ).toBe('ja');
  });
  it('converts only the aspect ratio, keeping the language', async () => {
    const a = await convert(acme.limitedVoices, { aspect_ratio: '1:1' });
    expect(a.status).toBe(200);
    clock.advance(30_001);
    expect(
      (await call(sb, 'GET', `/videos/${a.body.video_id}/conversions/`, { key: SANDBOX_KEYS.acme })).body,
    ).toMatchObject({
      current_language: 'ja',
      current_aspect_ratio: '1:1',
      available_languages: ['en', 'ko'],
    });
  });

  it.each([
    ['CONVERT_TARGET_REQUIRED', acme.convertible, {}, 400],
    ['INVALID_LANGUAGE', acme.convertible, { language: 'xx' }, 400],
    ['INVALID_LANGUAGE (not a string)', acme.convertible, { language: 7 }, 400],
    ['INVALID_LANGUAGE (null)', acme.convertible, { language: null }, 400],
    ['INVALID_ASPECT_RATIO', acme.convertible, { aspect_ratio: '5:4' }, 400],
    ['UNSUPPORTED_HEAVY_AVATAR', acme.realAvatar, { language: 'en' }, 400],
    ['SOURCE_VIDEO_NOT_CONVERTIBLE', acme.notConvertible, { language: 'en' }, 400],
    ['SOURCE_VIDEO_NOT_CONVERTIBLE (failed)', acme.failed, { language: 'en' }, 400],
    ['SOURCE_VIDEO_NOT_CONVERTIBLE (expired)', acme.expired, { language: 'en' }, 400],
    ['CONVERT_NO_CHANGE', acme.convertible, { language: 'ja' }, 400],
    ['CONVERT_NO_CHANGE (ratio)', acme.convertible, { aspect_ratio: '16:9' }, 400],
    ['CONVERT_NO_CHANGE (both)', acme.convertible, { language: 'ja', aspect_ratio: '16:9' }, 400],
    ['LANGUAGE_NOT_SUPPORTED_BY_VOICES', acme.limitedVoices, { language: 'fr' }, 400],
    ['UNKNOWN_ERROR', acme.unknownError, { language: 'en' }, 500],
    ['NOT_FOUND', '00000000-0000-4000-8000-000000000000', { language: 'en' }, 404],
    ['NOT_FOUND (another account)', FIXTURES.globex.videos.convertible, { language: 'en' }, 404],
  ])('%s', async (name, id, body, status) => {
    expectError(await convert(id, body), status, name.split(' ')[0]);
  });

  it('answers 403 INSUFFICIENT_CREDIT on the Free plan, after NOT_FOUND', async () => {
    expectError(
      await convert(FIXTURES.initech.videos.convertible, { language: 'en' }, SANDBOX_KEYS.initech),
      403,
      'INSUFFICIENT_CREDIT',
    );
    expectError(
      await convert(FIXTURES.acme.videos.convertible, { language: 'en' }, SANDBOX_KEYS.initech),
      404,
      'NOT_FOUND',
    );
    expectError(
      await convert(FIXTURES.initech.videos.convertible, {}, SANDBOX_KEYS.initech),
      403,
      'INSUFFICIENT_CREDIT',
    );
  });
  it('answers 429 INSUFFICIENT_CREDIT without credit, after the validation rows', async () => {
    const u = FIXTURES.umbrella.videos;
    expectError(await convert(u.convertible, { language: 'en' }, SANDBOX_KEYS.umbrella), 429, 'INSUFFICIENT_CREDIT');
    expectError(await convert(u.convertible, {}, SANDBOX_KEYS.umbrella), 400, 'CONVERT_TARGET_REQUIRED');
    expectError(await convert(u.unknownError, { language: 'en' }, SANDBOX_KEYS.umbrella), 500, 'UNKNOWN_ERROR');
  });
  it('keeps the documented order between overlapping rows', async () => {
    // invalid value beats the source's state; heavy avatar beats not-convertible; no-change beats voices.
    expectError(await convert(acme.realAvatar, { language: 'xx' }), 400, 'INVALID_LANGUAGE');
    expectError(await convert(acme.failed, { aspect_ratio: '5:4' }), 400, 'INVALID_ASPECT_RATIO');
    expectError(await convert(acme.notConvertible, { language: 'ja' }), 400, 'SOURCE_VIDEO_NOT_CONVERTIBLE');
    expectError(await convert(acme.limitedVoices, { language: 'ja' }), 400, 'CONVERT_NO_CHANGE');
    expectError(await convert(acme.unknownError, { language: 'ja' }), 400, 'CONVERT_NO_CHANGE');
  });
  it.each([
    ['an array', '[]'],
    ['a string', '"en"'],
    ['null', 'null'],
    ['malformed JSON', '{"language":'],
    ['empty', ''],
  ])('answers 400 INVALID_REQUEST for a body that is %s', async (_n, raw) => {
    const a = await call(sb, 'POST', `/videos/${acme.convertible}/conversions/`, {
      key: SANDBOX_KEYS.acme,
      body: raw,
      headers: { 'content-type': 'application/json' },
    });
    expectError(a, 400, 'INVALID_REQUEST');
  });
  it('answers 400 INVALID_REQUEST for a non-JSON content type', async () => {
    const a = await call(sb, 'POST', `/videos/${acme.convertible}/conversions/`, {
      key: SANDBOX_KEYS.acme,
      body: 'language=en',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(a, 400, 'INVALID_REQUEST');
  });
  it('a generated [sandbox:voices=…] / [sandbox:real-avatar] / [sandbox:not-convertible] video converts as told', async () => {
    const make = async (text: string) => {
      const a = await call(sb, 'POST', '/videos/generate/', {
        key: SANDBOX_KEYS.acme,
        form: form({ video_setting_id: FIXTURES.acme.settings.text, text }),
      });
      expect(a.status).toBe(200);
      clock.advance(30_001);
      return a.body.video_id as string;
    };
    const voices = await make(`Hi ${MAGIC.voices(['en', 'de'])} ${MAGIC.language('en')} ${MAGIC.aspectRatio('9:16')}`);
    expect((await call(sb, 'GET', `/videos/${voices}/conversions/`, { key: SANDBOX_KEYS.acme })).body).toEqual({
      is_convertible: true,
      current_language: 'en',
      available_languages: ['de'],
      current_aspect_ratio: '9:16',
      available_aspect_ratios: ALL_RATIOS,
    });
    expectError(await convert(voices, { language: 'ja' }), 400, 'LANGUAGE_NOT_SUPPORTED_BY_VOICES');
    expectError(
      await convert(await make(`x ${MAGIC.realAvatar}`), { language: 'ja' }),
      400,
      'UNSUPPORTED_HEAVY_AVATAR',
    );
    expectError(
      await convert(await make(`x ${MAGIC.notConvertible}`), { language: 'ja' }),
      400,
      'SOURCE_VIDEO_NOT_CONVERTIBLE',
    );
    // a running video has no generated data yet
    const running = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.acme,
      form: form({ video_setting_id: FIXTURES.acme.settings.text, text: 'still running' }),
    });
    expectError(await convert(running.body.video_id, { language: 'fr' }), 400, 'SOURCE_VIDEO_NOT_CONVERTIBLE');
    clock.advance(30_001);
  });
});
