// GET /videos/{id}/ and GET /videos/{id}/conversions/: the status view, the download, the options,
// and the ids that must not be found (unknown, malformed, another account's).
import { randomUUID } from 'node:crypto';
import { check, ensure, ensureError, ensureStatus, type Check } from './types.ts';
import { ensureDownloads } from './video-helpers.ts';
import { FIXTURE_ENV } from '../target.ts';

const BY_ID = [
  { operation: 'getVideo', path: (id: string) => `/videos/${id}/` },
  { operation: 'getConversionOptions', path: (id: string) => `/videos/${id}/conversions/` },
];

const idChecks: Check[] = BY_ID.flatMap(({ operation, path }) => [
  check(operation, 'not_found_unknown_id', async (ctx) => {
    ctx.requireStateful('every id exists for it');
    ensureError(await ctx.main.get(path(randomUUID())), [404], 'NOT_FOUND');
  }),
  check(operation, 'negative_data_rejection_malformed_id', async (ctx) => {
    // DECISIONS #11: a non-UUID id may be answered 400 or 404.
    for (const bad of ['not-a-uuid', '12345']) ensureError(await ctx.main.get(path(bad)), [400, 404]);
  }),
  check(operation, 'not_found_other_account', async (ctx) => {
    ctx.requireStateful('it has no accounts');
    const other = ctx.other();
    const id = await ctx.fixture('otherAccountVideoId');
    // The id must exist for its owner, or a 404 would prove nothing.
    ensureStatus(await other.get(path(id)), 200, "the other account's own request for its video");
    ensureError(await ctx.main.get(path(id)), [404], 'NOT_FOUND');
  }),
]);

export const statusChecks: Check[] = [
  check('getVideo', 'status_view_completed', async (ctx) => {
    ctx.requireStateful('its videos are examples');
    const id = await ctx.fixture('completedVideoId');
    const ex = await ctx.main.get(`/videos/${id}/`);
    const body = ensureStatus(ex, 200, 'GET a completed video');
    ensure(body.video_id === id, `video_id ${body.video_id} is not the requested ${id}`, ex);
    ensure(body.status === 'completed', `status is ${body.status}, expected completed`, ex);
    ensure(typeof body.download_url === 'string' && body.download_url.length > 0, 'download_url of a completed video is empty', ex);
    ensure(Array.isArray(body.copyright), 'copyright is not an array', ex);
  }),
  // The other terminal states (read-only: seeded or configured videos). Their schema conformance is
  // checked on every response; here the documented state and the empty download_url (Video schema:
  // "Empty string unless completed").
  ...(['failed', 'expired'] as const).map((state) =>
    check('getVideo', `status_view_${state}`, async (ctx) => {
      ctx.requireStateful('its videos are examples');
      const id = await ctx.fixture(state === 'failed' ? 'failedVideoId' : 'expiredVideoId');
      const ex = await ctx.main.get(`/videos/${id}/`);
      const body = ensureStatus(ex, 200, `GET a ${state} video`);
      ensure(body.video_id === id, `video_id ${body.video_id} is not the requested ${id}`, ex);
      ensure(body.status === state, `status is ${body.status}, expected ${state} (fixture ${FIXTURE_ENV[state === 'failed' ? 'failedVideoId' : 'expiredVideoId']})`, ex);
      ensure(body.download_url === '', `download_url of a ${state} video is ${JSON.stringify(body.download_url)}, not ""`, ex);
      ensure(Array.isArray(body.copyright), 'copyright is not an array', ex);
    }),
  ),
  check('getVideo', 'download_url_downloads', async (ctx) => {
    ctx.requireStateful('its download_url is an example address');
    const id = await ctx.fixture('completedVideoId');
    const body = ensureStatus(await ctx.main.get(`/videos/${id}/`), 200, 'GET a completed video');
    ensure(body.status === 'completed' && body.download_url, 'the completed fixture has no download_url');
    await ensureDownloads(body.download_url);
  }),
  check('getConversionOptions', 'options_convertible', async (ctx) => {
    ctx.requireStateful('its videos are examples');
    const id = await ctx.fixture('convertibleVideoId');
    const ex = await ctx.main.get(`/videos/${id}/conversions/`);
    const body = ensureStatus(ex, 200, 'GET the options of a convertible video');
    ensure(body.is_convertible === true, 'is_convertible is not true for the convertible fixture', ex);
    const ratios = ctx.run.contract.enumOf('AspectRatio');
    ensure(ratios.every((r) => body.available_aspect_ratios?.includes(r)), `available_aspect_ratios lacks some of the 7 ratios: ${JSON.stringify(body.available_aspect_ratios)}`, ex);
  }),
  check('getConversionOptions', 'options_not_convertible', async (ctx) => {
    ctx.requireStateful('its videos are examples');
    const id = await ctx.fixture('notConvertibleVideoId');
    const ex = await ctx.main.get(`/videos/${id}/conversions/`);
    const body = ensureStatus(ex, 200, 'GET the options of a non-convertible video');
    ensure(body.is_convertible === false, 'is_convertible is not false for the non-convertible fixture', ex);
  }),
  ...idChecks,
];
