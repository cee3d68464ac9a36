// POST /videos/generate/ and what follows from it: a new id each time, the running view, completion
// with a real download, the video in the caller's list, and bad forms rejected with 400. The two
// generations are the run's shared ones (shared-generations.ts).
import { VIDEO_STATUSES } from '@videogen/openapi/rules';
import { check, ensure, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';
import { textForm } from './requests.ts';
import { ensureDownloads, pollUntilDone, UUID } from './video-helpers.ts';
import { sharedGenerations, type SharedGenerations } from './shared-generations.ts';

/** The shared generations (shared-generations.ts), the first one's answer checked. */
export async function generated(ctx: CheckContext): Promise<{ g: SharedGenerations; id: string }> {
  ctx.requireFull('generating videos');
  const g = await sharedGenerations(ctx);
  const body = ensureStatus(g.first, 200, 'POST /videos/generate/');
  ensure(typeof body?.video_id === 'string' && UUID.test(body.video_id), `video_id ${body?.video_id} is not a UUID`, g.first);
  return { g, id: body.video_id };
}

export const generationChecks: Check[] = [
  check('generateVideo', 'generate_returns_video_id', async (ctx) => {
    await generated(ctx);
  }),
  check('generateVideo', 'generate_new_id_each_time', async (ctx) => {
    ctx.requireStateful('it answers the same example id to every request');
    const { g, id } = await generated(ctx);
    const second = ensureStatus(g.second ?? ctx.skip('no second generation was sent (the credit budget)'), 200, 'second POST /videos/generate/');
    ensure(second.video_id !== id, `two generations answered the same video_id ${id}`, g.second);
    const known = Object.values(ctx.run.target.fixtures);
    ensure(!known.includes(id) && !known.includes(second.video_id), 'a generation answered the id of an existing video', g.second);
  }),
  check('getVideo', 'status_view_running', async (ctx) => {
    ctx.requireStateful('its videos are examples');
    const { g, id } = await generated(ctx);
    const ex = g.firstStatus!;
    const body = ensureStatus(ex, 200, 'GET a video just generated');
    ensure(body.video_id === id, `video_id ${body.video_id} is not the requested ${id}`, ex);
    // Any state but expired: a video just made cannot have outlived its download URL.
    ensure(VIDEO_STATUSES.filter((v) => v !== 'expired').includes(body.status), `a new video has status ${body.status}`, ex);
    if (body.status !== 'running') ctx.skip(`the new video was already ${body.status} when read (the target is too fast to observe running)`);
    ensure(body.download_url === '', `download_url is ${JSON.stringify(body.download_url)} while running, not ""`, ex);
    ensure(Array.isArray(body.copyright) && body.copyright.length === 0, `copyright is ${JSON.stringify(body.copyright)} while running, not []`, ex);
  }),
  check('getVideo', 'status_view_generated_completes', async (ctx) => {
    ctx.requireStateful('its videos never progress');
    const { id } = await generated(ctx);
    const { ex, body } = await pollUntilDone(ctx, id);
    ensure(body.status === 'completed', `a plain text generation ended ${body.status}`, ex);
    ensure(typeof body.download_url === 'string' && body.download_url.length > 0, 'completed without a download_url', ex);
    ensure(Array.isArray(body.copyright), 'copyright is not an array when completed', ex);
    await ensureDownloads(body.download_url);
  }),
  check('listVideos', 'lists_generated_video', async (ctx) => {
    ctx.requireStateful('its list is an example');
    const { id } = await generated(ctx);
    // Order is not constrained (DECISIONS #18): look through a few pages.
    for (let page = 1; page <= 5; page++) {
      const ex = await ctx.main.get('/videos/', { query: { page } });
      const body = ensureStatus(ex, 200, 'GET /videos/');
      if (body.results?.some((r: any) => r.video_id === id)) return;
      if (!body.has_next) ensure(false, `the generated video ${id} is not in GET /videos/ (${body.total_count} videos)`, ex);
    }
    ctx.skip(`the generated video is not on the first 5 pages; the account has too many videos to look further`);
  }),
  check('generateVideo', 'negative_data_rejection_schema', async (ctx) => {
    ctx.requireFull('POST requests');
    // Invalid by the schema alone: no video_setting_id, a video_setting_id that is not a UUID.
    const noSetting = new FormData();
    noSetting.append('text', 'Contract suite: no setting');
    ensureError(await ctx.main.post('/videos/generate/', { form: noSetting }), [400]);
    ensureError(await ctx.main.post('/videos/generate/', { form: textForm('not-a-uuid', 'Contract suite: bad setting') }), [400]);
  }),
  check('generateVideo', 'negative_data_rejection_semantics', async (ctx) => {
    ctx.requireFull('POST requests');
    ctx.requireStateful('it accepts any well-typed form');
    const setting = await ctx.fixture('videoSettingId');
    // No input at all (no valid combination of 4.1). A setting that does not exist is
    // negative_data_rejection_unknown_setting.
    const noInput = new FormData();
    noInput.append('video_setting_id', setting);
    ensureError(await ctx.main.post('/videos/generate/', { form: noInput }), [400]);
  }),
];
