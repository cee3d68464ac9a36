// The alternative personality: every choice where the interface is silent is made differently, and
// nothing the interface states changes. Its responses pass the relaxed self-check (violations stay []).
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { specModel } from '../src/spec.js';
import { call, expectError, form, manualClock, sandbox } from './helpers.js';

const A = FIXTURES.acme;
const key = SANDBOX_KEYS.acme;
const model = specModel();

describe('alternative personality', async () => {
  const clock = manualClock();
  const sb = await sandbox({ personality: 'alternative', now: clock.now, generationSeconds: 30 });
  const gen = (fields: Record<string, string>, files: any[] = []) =>
    call(sb, 'POST', '/videos/generate/', { key, form: form(fields, files) });
  const step = () => clock.advance(5000); // one class-A slot of the even limiter, and more than one of class B

  it('answers 201 on both creations, with extra fields', async () => {
    const g = await gen({ video_setting_id: A.settings.text, text: 'hello' });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ object: 'video', video_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    step();
    const c = await call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, { key, json: { language: 'fr' } });
    expect(c.status).toBe(201);
    expect(c.body.video_id).not.toBe(A.videos.convertible);
    step();
  });
  it('sends no rate-limit headers', async () => {
    const a = await call(sb, 'GET', '/videos/', { key });
    expect(a.status).toBe(200);
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'])
      expect(a.headers.get(h)).toBeNull();
    step();
  });
  it('limits evenly and answers 429 TOO_MANY_REQUESTS with an HTTP-date Retry-After', async () => {
    expect((await call(sb, 'GET', '/video-settings/', { key })).status).toBe(200);
    const limited = await call(sb, 'GET', '/video-settings/', { key });
    expectError(limited, 429, 'TOO_MANY_REQUESTS');
    const retry = limited.headers.get('retry-after')!;
    expect(retry).toMatch(/GMT$/);
    expect(Date.parse(retry)).toBeGreaterThan(clock.now());
    expect(limited.headers.get('ratelimit-remaining')).toBeNull();
    step();
  });
  it('answers 422 with other codes for a bad form, and accepts a subset of request_fields', async () => {
    const bad = await gen({ video_setting_id: A.settings.text });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.request_id).toMatch(/^req_/);
    step();
    expectError(await gen({ video_setting_id: A.settings.pdf, text: 'x' }), 422, 'VIDEO_SETTING_MISMATCH');
    step();
    expectError(
      await gen({ video_setting_id: A.settings.text, text: 'x' }, [['image_files', 'a.gif']]),
      422,
      'UPLOAD_REJECTED',
    );
    step();
    clock.advance(60_000); // free the two running slots
    // The text + pdf_file setting used with the PDF alone: our reading (#26) refuses it, this one does not.
    expect((await gen({ video_setting_id: A.settings.textPdf }, [['pdf_file', 'a.pdf']])).status).toBe(201);
    step();
  });
  it('answers 403 for an unknown key and 401 for a missing one', async () => {
    expectError(await call(sb, 'GET', '/videos/', { key: 'sandbox-key-nobody' }), 403, 'INVALID_API_KEY');
    expectError(await call(sb, 'GET', '/videos/'), 401, 'AUTHENTICATION_REQUIRED');
  });
  it('answers 404 for a malformed id, VALIDATION_ERROR for a bad page', async () => {
    expectError(await call(sb, 'GET', '/videos/not-a-uuid/', { key }), 404, 'NOT_FOUND');
    step();
    expectError(await call(sb, 'GET', '/videos/?page=0', { key }), 400, 'VALIDATION_ERROR');
    step();
  });
  it('keeps every conversion row of 7.2', async () => {
    const cases: Array<[string, unknown, number, string]> = [
      [A.videos.convertible, {}, 400, 'CONVERT_TARGET_REQUIRED'],
      [A.videos.convertible, { language: 'xx' }, 400, 'INVALID_LANGUAGE'],
      [A.videos.convertible, { language: 'ja' }, 400, 'CONVERT_NO_CHANGE'],
      [A.videos.realAvatar, { language: 'en' }, 400, 'UNSUPPORTED_HEAVY_AVATAR'],
      [FIXTURES.globex.videos.convertible, { language: 'en' }, 404, 'NOT_FOUND'],
    ];
    for (const [id, json, status, code] of cases) {
      expectError(await call(sb, 'POST', `/videos/${id}/conversions/`, { key, json }), status, code);
      step();
    }
    expectError(
      await call(sb, 'POST', `/videos/${FIXTURES.initech.videos.convertible}/conversions/`, {
        key: SANDBOX_KEYS.initech,
        json: { language: 'en' },
      }),
      403,
      'INSUFFICIENT_CREDIT',
    );
  });
  it('keeps 503 SIMULTANEOUS_GENERATE_LIMIT (without Retry-After)', async () => {
    clock.advance(60_000);
    for (const text of ['1', '2']) {
      expect((await gen({ video_setting_id: A.settings.text, text })).status).toBe(201);
      step();
    }
    const busy = await gen({ video_setting_id: A.settings.text, text: '3' });
    expectError(busy, 503, 'SIMULTANEOUS_GENERATE_LIMIT');
    expect(busy.headers.get('retry-after')).toBeNull();
    step();
  });
  it('lists oldest first, with extra fields, 50 per page, the last page for a page past the end', async () => {
    const page = await call(sb, 'GET', '/videos/', { key });
    expect(page.body.items_per_page).toBe(50);
    expect(page.body.object).toBe('list');
    const times = page.body.results.map((r: any) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(page.body.results[0]).toMatchObject({
      object: 'video_list_item',
      created_at: expect.stringMatching(/\+00:00$/),
    });
    step();
    const past = await call(sb, 'GET', '/videos/?page=9', { key });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ page: 1, has_next: false });
    expect(past.body.results.length).toBe(page.body.results.length);
    step();
    const settings = await call(sb, 'GET', '/video-settings/', { key });
    expect(settings.body.results[0]).toMatchObject({ object: 'video_setting', request_fields: ['text'] });
    step();
  });
  it('shows copyright elements as objects, and keeps the 2.1 and 2.4 fields', async () => {
    const v = await call(sb, 'GET', `/videos/${A.videos.convertible}/`, { key });
    expect(v.body).toMatchObject({
      video_id: A.videos.convertible,
      status: 'completed',
      download_url: expect.stringMatching(/^http/),
    });
    expect(v.body.copyright[0]).toMatchObject({ notice: expect.any(String) });
    step();
    const o = await call(sb, 'GET', `/videos/${A.videos.convertible}/conversions/`, { key });
    expect(o.body.available_aspect_ratios).toEqual(model.aspectRatios);
    expect(o.body.available_languages).toHaveLength(model.languages.length - 1);
    step();
  });
});

describe('the relaxed self-check still catches interface violations', () => {
  it('an alternative answer missing a 2.1 field is a violation; its 201 and own codes are not', async () => {
    const { personality } = await import('../src/personality.js');
    const { responseProblems } = await import('../src/response-check.js');
    const alt = personality('alternative');
    const op = (id: string) => model.operations.find((o) => o.operationId === id)!;
    const json = 'application/json';
    expect(
      responseProblems(
        model,
        op('generateVideo'),
        201,
        json,
        { video_id: A.videos.convertible, object: 'video' },
        {},
        alt,
      ),
    ).toEqual([]);
    expect(
      responseProblems(model, op('generateVideo'), 422, json, { error_code: 'VALIDATION_ERROR', error: 'x' }, {}, alt),
    ).toEqual([]);
    expect(
      responseProblems(
        model,
        op('getVideo'),
        200,
        json,
        { video_id: A.videos.convertible, status: 'completed', copyright: [] },
        {},
        alt,
      ).length,
    ).toBeGreaterThan(0);
    expect(
      responseProblems(
        model,
        op('listVideos'),
        200,
        json,
        { results: [], has_next: false, total_count: 0, page: 1, items_per_page: 20 },
        {},
        alt,
      ).length,
    ).toBeGreaterThan(0);
  });
});
