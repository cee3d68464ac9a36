// POST /videos/{id}/conversions/: a new video with a new id, the source unchanged, and every row of
// interface 7.2 that the target can reproduce answered with its status and error_code.
import { randomUUID } from 'node:crypto';
import { check, ensure, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';
import { ensureDownloads, pollUntilDone, UUID } from './video-helpers.ts';
import { byNewest } from '../fixtures.ts';
import type { Api, Exchange } from '../http.ts';

const convert = (api: Api, id: string, json: unknown, extra: object = {}) => api.post(`/videos/${id}/conversions/`, { json, ...extra });

async function options(api: Api, id: string): Promise<any> {
  return ensureStatus(await api.get(`/videos/${id}/conversions/`), 200, `GET /videos/${id}/conversions/`);
}

/** A target different from the source's: a language from available_languages, else an aspect ratio. */
function targetFor(opts: any): Record<string, string> {
  const lang = (opts.available_languages ?? []).find((l: string) => l !== opts.current_language);
  if (lang) return { language: lang };
  const ratio = (opts.available_aspect_ratios ?? []).find((r: string) => r !== opts.current_aspect_ratio);
  return { aspect_ratio: ratio };
}

interface Converted {
  source: string;
  target: Record<string, string>;
  before: { status: any; options: any };
  post: Exchange;
  newId?: string;
}

/** One real conversion of the convertible fixture, shared by the checks after it. */
function converted(ctx: CheckContext): Promise<Converted> {
  ctx.requireFull('converting videos');
  ctx.requireStateful('it has no videos to convert');
  return ctx.run.once('conversion', async () => {
    const source = await ctx.fixture('convertibleVideoId');
    const status = ensureStatus(await ctx.main.get(`/videos/${source}/`), 200, 'GET the source video');
    const opts = await options(ctx.main, source);
    const target = targetFor(opts);
    const post = await convert(ctx.main, source, target);
    const newId = (post.body as any)?.video_id;
    if (typeof newId === 'string') ctx.run.created.push(newId);
    return { source, target, before: { status, options: opts }, post, newId };
  });
}

/** Rows of 7.2 on one source video: body → status + error_code. */
function row(name: string, fixture: Parameters<CheckContext['fixture']>[0], body: (opts: any) => unknown, status: number, code: string): Check {
  return check('createConversion', name, async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it answers its first example, not the code for the condition');
    const id = await ctx.fixture(fixture);
    const opts = await options(ctx.main, id);
    ensureError(await convert(ctx.main, id, body(opts), { retry: status !== 429 && status !== 503 }), [status], code);
  });
}

/** A video of another account (free plan, no credit) that could otherwise be converted. */
async function ownConvertible(ctx: CheckContext, api: Api, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const list = ensureStatus(await api.get('/videos/'), 200, 'GET /videos/ of the other key');
  for (const item of [...(list.results ?? [])].sort(byNewest).slice(0, 5)) {
    const o = await api.get(`/videos/${item.video_id}/conversions/`);
    if (o.status === 200 && (o.body as any).is_convertible) return item.video_id;
  }
  ctx.skip('the account has no convertible video among its first 5: set its CONTRACT_*_VIDEO_ID');
}

export const conversionChecks: Check[] = [
  check('createConversion', 'convert_returns_new_id', async (ctx) => {
    ctx.requireFull('converting videos');
    if (!ctx.run.target.stateful) {
      // A stateless mock: only the shape of the answer can be checked.
      const source = randomUUID();
      const ex = await convert(ctx.main, source, { language: 'en' });
      const body = ensureStatus(ex, 200, 'POST a conversion');
      ensure(UUID.test(body.video_id ?? '') && body.video_id !== source, 'the conversion did not answer a new UUID', ex);
      return;
    }
    const c = await converted(ctx);
    const body = ensureStatus(c.post, 200, `POST a conversion ${JSON.stringify(c.target)}`);
    ensure(typeof body.video_id === 'string' && UUID.test(body.video_id), `video_id ${body.video_id} is not a UUID`, c.post);
    ensure(body.video_id !== c.source, 'the conversion answered the id of its source video', c.post);
  }),
  check('createConversion', 'source_unchanged', async (ctx) => {
    const c = await converted(ctx);
    ensure(c.newId, 'no conversion was created (see convert_returns_new_id)');
    const status = ensureStatus(await ctx.main.get(`/videos/${c.source}/`), 200, 'GET the source after the conversion');
    const opts = await options(ctx.main, c.source);
    // download_url is presigned and may change on every read: compare everything else.
    const pick = (s: any) => ({ video_id: s.video_id, status: s.status, copyright: s.copyright });
    ensure(JSON.stringify(pick(status)) === JSON.stringify(pick(c.before.status)), `the source's status view changed: ${JSON.stringify(pick(c.before.status))} → ${JSON.stringify(pick(status))}`);
    ensure(JSON.stringify(opts) === JSON.stringify(c.before.options), `the source's conversion options changed: ${JSON.stringify(c.before.options)} → ${JSON.stringify(opts)}`);
  }),
  check('createConversion', 'converted_video_completes', async (ctx) => {
    const c = await converted(ctx);
    ensure(c.newId, 'no conversion was created (see convert_returns_new_id)');
    const { ex, body } = await pollUntilDone(ctx, c.newId);
    ensure(body.status === 'completed', `the converted video ended ${body.status}`, ex);
    await ensureDownloads(body.download_url);
    const opts = await options(ctx.main, c.newId);
    if (c.target.language) ensure(opts.current_language === c.target.language, `the converted video's current_language is ${opts.current_language}, not ${c.target.language}`);
    if (c.target.aspect_ratio) ensure(opts.current_aspect_ratio === c.target.aspect_ratio, `the converted video's current_aspect_ratio is ${opts.current_aspect_ratio}, not ${c.target.aspect_ratio}`);
  }),
  check('createConversion', 'negative_data_rejection_schema', async (ctx) => {
    ctx.requireFull('conversion requests');
    // Invalid by the schema alone, so even a mock rejects them; exact codes are the rows below.
    const id = ctx.run.target.stateful ? await ctx.fixture('convertibleVideoId') : randomUUID();
    ensureError(await convert(ctx.main, id, { language: 'xx' }), [400]);
    ensureError(await convert(ctx.main, id, { aspect_ratio: '5:4' }), [400]);
    ensureError(await ctx.main.post(`/videos/${id}/conversions/`, { raw: { body: '["en"]', contentType: 'application/json' } }), [400]);
  }),
  row('convert_target_required', 'convertibleVideoId', () => ({}), 400, 'CONVERT_TARGET_REQUIRED'),
  row('invalid_language', 'convertibleVideoId', () => ({ language: 'xx' }), 400, 'INVALID_LANGUAGE'),
  row('invalid_aspect_ratio', 'convertibleVideoId', () => ({ aspect_ratio: '5:4' }), 400, 'INVALID_ASPECT_RATIO'),
  row('convert_no_change_language', 'convertibleVideoId', (o) => ({ language: o.current_language }), 400, 'CONVERT_NO_CHANGE'),
  row('convert_no_change_aspect_ratio', 'convertibleVideoId', (o) => ({ aspect_ratio: o.current_aspect_ratio }), 400, 'CONVERT_NO_CHANGE'),
  check('createConversion', 'language_not_supported_by_voices', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it answers its first example');
    const f = await ctx.run.fixtures();
    const id = f.limitedVoicesVideoId ?? (await ctx.fixture('convertibleVideoId'));
    const opts = await options(ctx.main, id);
    const lang = ctx.run.contract.enumOf('Language').find((l) => l !== opts.current_language && !opts.available_languages.includes(l));
    if (!lang) ctx.skip('the video supports every language: set CONTRACT_LIMITED_VOICES_VIDEO_ID');
    ensureError(await convert(ctx.main, id, { language: lang }), [400], 'LANGUAGE_NOT_SUPPORTED_BY_VOICES');
  }),
  check('createConversion', 'source_not_convertible', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it answers its first example');
    const id = await ctx.fixture('notConvertibleVideoId');
    const opts = await options(ctx.main, id);
    ensure(opts.is_convertible === false, 'the non-convertible fixture says is_convertible true');
    ensureError(await convert(ctx.main, id, { aspect_ratio: '1:1' }), [400], 'SOURCE_VIDEO_NOT_CONVERTIBLE');
  }),
  row('unsupported_heavy_avatar', 'realAvatarVideoId', () => ({ aspect_ratio: '1:1' }), 400, 'UNSUPPORTED_HEAVY_AVATAR'),
  check('createConversion', 'not_found_unknown_id', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('every id exists for it');
    ensureError(await convert(ctx.main, randomUUID(), { aspect_ratio: '1:1' }), [404], 'NOT_FOUND');
  }),
  check('createConversion', 'not_found_other_account', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it has no accounts');
    const other = ctx.other();
    const id = await ctx.fixture('otherAccountVideoId');
    ensureStatus(await other.get(`/videos/${id}/`), 200, "the other account's own request for its video");
    ensureError(await convert(ctx.main, id, { aspect_ratio: '1:1' }), [404], 'NOT_FOUND');
  }),
  check('createConversion', 'negative_data_rejection_malformed_id', async (ctx) => {
    ctx.requireFull('conversion requests');
    ensureError(await convert(ctx.main, 'not-a-uuid', { aspect_ratio: '1:1' }), [400, 404]);
  }),
  check('createConversion', 'insufficient_credit_free_plan', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it has no plans');
    const api = ctx.run.freePlan;
    if (!api) return ctx.skip('no key of a Free-plan account: set CONTRACT_FREE_PLAN_KEY');
    const id = await ownConvertible(ctx, api, ctx.run.target.fixtures.freePlanVideoId);
    ensureError(await convert(api, id, { aspect_ratio: '1:1' }), [403], 'INSUFFICIENT_CREDIT');
  }),
  check('createConversion', 'insufficient_credit_balance', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it has no credit');
    const api = ctx.run.noCredit;
    if (!api) return ctx.skip('no key of an account without credit: set CONTRACT_NO_CREDIT_KEY');
    const id = await ownConvertible(ctx, api, ctx.run.target.fixtures.noCreditVideoId);
    ensureError(await convert(api, id, { aspect_ratio: '1:1' }, { retry: false }), [429], 'INSUFFICIENT_CREDIT');
  }),
  check('createConversion', 'unknown_error', async (ctx) => {
    ctx.requireFull('conversion requests');
    ctx.requireStateful('it answers its first example');
    const id = await ctx.fixture('unknownErrorVideoId');
    ensureError(await convert(ctx.main, id, { aspect_ratio: '1:1' }, { expectServerError: true }), [500], 'UNKNOWN_ERROR');
  }),
];
