// POST /videos/generate/ in every input mode of x-valid-combinations (each creates a video: a credit
// on a real service; pdf_file judges the run's shared second generation instead), and the forms it must refuse: a wrong file extension, too many images, a field
// combination that is not valid, a setting that does not take the given fields, an unknown setting,
// a file past the plan's limit (x-upload-limits; DECISIONS #5, #8, #26).
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_LIMITS } from '@videogen/openapi/rules';
import { modeForm } from './mode-forms.ts';
import { check, ensure, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';
import { UUID, waitForSlot } from './video-helpers.ts';
import { SHARED_MODE, sharedGenerations } from './shared-generations.ts';
import { INPUT_MODES, type InputMode } from '../fixtures.ts';
import type { Api, Exchange } from '../http.ts';

const uploadLimits = (ctx: CheckContext): any => ctx.run.contract.spec.components.schemas.GenerateVideoRequest?.['x-upload-limits']?.fields ?? {};

const PRISM_IMAGES = 'rejects repeated multipart image_files parts as "must be array" (an open Prism bug, toolchain notes)';

function modeCheck(m: InputMode): Check {
  return check('generateVideo', `generate_mode_${m.name}`, async (ctx) => {
    ctx.requireFull('generating videos (each costs a credit)');
    if ((m.fields as readonly string[]).includes('image_files') && !ctx.run.target.stateful) ctx.skip(`target ${ctx.run.target.kind} ${PRISM_IMAGES}`);
    const setting = await ctx.fixture(m.fixture);
    const what = `POST /videos/generate/ with ${m.fields.map((f) => (f === 'image_files' ? '2 × image_files' : f)).join(' + ')}`;
    const shared = m === SHARED_MODE;
    let ex: Exchange;
    if (shared) {
      // Sent once, as the run's second shared generation (shared-generations.ts): judged here too.
      const g = await sharedGenerations(ctx);
      ex = g.modeGeneration ?? ctx.skip('not sent: the shared text generation before it was not accepted (generate_returns_video_id says why)');
    } else {
      // At most 2 running per account (x-concurrency-limit): wait for a free place rather than a 503.
      await waitForSlot(ctx);
      ex = await ctx.main.post('/videos/generate/', { form: modeForm(setting, m.fields) });
    }
    const body = ensureStatus(ex, 200, what);
    ensure(typeof body?.video_id === 'string' && UUID.test(body.video_id), `video_id ${body?.video_id} is not a UUID`, ex);
    if (!ctx.run.target.stateful) ctx.skip(`accepted (200, a UUID), but target ${ctx.run.target.kind} is a stateless mock: it answers its example id to every request, so a new id cannot be checked`);
    const others = [...ctx.run.created];
    // The shared generation's own id is already listed (once): every other entry is another video.
    const own = shared ? others.indexOf(body.video_id) : -1;
    if (own >= 0) others.splice(own, 1);
    const known = new Set<string>([...others, ...(Object.values(ctx.run.target.fixtures) as string[])]);
    ensure(!known.has(body.video_id), `${what} answered the id of another video of this run or a fixture: ${body.video_id}`, ex);
    if (!shared) ctx.run.created.push(body.video_id);
  });
}

/** A 400 with the envelope; on the sandbox also its documented code (elsewhere codes are strings, DECISIONS #5). */
function ensureRejected(ctx: CheckContext, ex: Awaited<ReturnType<Api['post']>>, statuses: number[], sandboxCode: string) {
  ensureError(ex, statuses, ctx.run.target.kind === 'sandbox' ? sandboxCode : undefined);
}

/**
 * A file of `size` zero bytes, backed by a sparse temporary file: FormData streams it from disk, so it
 * is never built in memory. `remove` deletes it.
 */
async function zeroFile(size: number, type: string): Promise<{ blob: Blob; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'contract-upload-'));
  const path = join(dir, 'zeros');
  await writeFile(path, '');
  await truncate(path, size);
  return { blob: await openAsBlob(path, { type }), remove: () => rm(dir, { recursive: true, force: true }) };
}

const generate = (api: Api, form: FormData) => api.post('/videos/generate/', { form });

export const generationModeChecks: Check[] = [
  ...INPUT_MODES.map(modeCheck),
  check('generateVideo', 'negative_data_rejection_file_extension', async (ctx) => {
    ctx.requireFull('POST requests');
    ctx.requireStateful('it does not check file extensions (x-upload-limits is an extension)');
    const setting = await ctx.fixture('pdfSettingId');
    // A text file as pdf_file, with a setting that takes a PDF: only the extension is wrong.
    const form = new FormData();
    form.append('video_setting_id', setting);
    form.append('pdf_file', new Blob(['Contract suite: not a PDF.\n'], { type: 'text/plain' }), 'notes.txt');
    ensureRejected(ctx, await generate(ctx.main, form), [400], 'FILE_UPLOAD_ERROR');
  }),
  check('generateVideo', 'negative_data_rejection_too_many_images', async (ctx) => {
    ctx.requireFull('POST requests');
    if (!ctx.run.target.stateful) ctx.skip(`target ${ctx.run.target.kind} ${PRISM_IMAGES}: a 400 would not prove the limit`);
    const setting = await ctx.fixture('textImagesSettingId');
    const max: number = uploadLimits(ctx).image_files?.max_items ?? UPLOAD_LIMITS.image_files.maxItems;
    ensureRejected(ctx, await generate(ctx.main, modeForm(setting, ['text', 'image_files'], max + 1)), [400], 'FILE_UPLOAD_ERROR');
  }),
  check('generateVideo', 'negative_data_rejection_invalid_combination', async (ctx) => {
    ctx.requireFull('POST requests');
    ctx.requireStateful('it does not enforce x-valid-combinations (an extension, not a schema rule)');
    // audio_file comes alone (4.1): with text it is no valid combination, whatever the setting.
    const setting = await ctx.fixture('audioSettingId');
    ensureRejected(ctx, await generate(ctx.main, modeForm(setting, ['audio_file', 'text'])), [400], 'INVALID_REQUEST');
  }),
  check('generateVideo', 'negative_data_rejection_missing_setting', async (ctx) => {
    ctx.requireFull('POST requests');
    // A valid combination (pdf_file alone) without the required video_setting_id: a schema error.
    ensureRejected(ctx, await generate(ctx.main, modeForm(undefined, ['pdf_file'])), [400], 'INVALID_REQUEST');
  }),
  check('generateVideo', 'negative_data_rejection_setting_fields_mismatch', async (ctx) => {
    ctx.requireFull('POST requests');
    ctx.requireStateful('it has no settings');
    // pdf_file alone is a valid combination, but the text setting is not used with it (DECISIONS #26).
    const setting = await ctx.fixture('videoSettingId');
    ensureRejected(ctx, await generate(ctx.main, modeForm(setting, ['pdf_file'])), [400], 'INVALID_VIDEO_SETTING');
  }),
  check('generateVideo', 'negative_data_rejection_unknown_setting', async (ctx) => {
    ctx.requireFull('POST requests');
    ctx.requireStateful('every id exists for it');
    // 400: generateVideo declares no 404 (an unknown setting is a bad form field, not a missing resource).
    ensureRejected(ctx, await generate(ctx.main, modeForm(randomUUID(), ['text'])), [400], 'INVALID_VIDEO_SETTING');
  }),
  check('generateVideo', 'negative_data_rejection_file_over_plan_limit', async (ctx) => {
    ctx.requireFull('POST requests');
    if (ctx.run.target.kind !== 'sandbox') {
      ctx.skip(`only against the sandbox: it uploads more than a plan's limit (50+ MB) to the target${ctx.run.target.stateful ? '' : ', and a mock does not check sizes'}`);
    }
    // The sandbox's second account (globex) is on the Personal plan: 50 MB for audio_file.
    const personal = ctx.other();
    const max: number = uploadLimits(ctx).audio_file?.max_bytes?.personal ?? UPLOAD_LIMITS.audio_file.maxBytes.personal;
    const settings = ensureStatus(await personal.get('/video-settings/'), 200, 'GET /video-settings/ of the Personal-plan account');
    const setting = (settings.results ?? []).find((s: any) => s.request_fields?.length === 1 && s.request_fields[0] === 'audio_file')?.video_setting_id;
    if (!setting) ctx.skip('the Personal-plan account has no setting with request_fields [audio_file]');
    const file = await zeroFile(max + 1_000_000, 'audio/mpeg');
    try {
      const form = new FormData();
      form.append('video_setting_id', setting);
      form.append('audio_file', file.blob, 'contract-too-large.mp3');
      ensureRejected(ctx, await personal.post('/videos/generate/', { form }), [400], 'FILE_UPLOAD_ERROR');
    } finally {
      await file.remove();
    }
  }),
];
