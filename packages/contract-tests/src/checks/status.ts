// GET /videos/{id}/ and GET /videos/{id}/conversions/: the status view of every state, the download,
// the options, and the ids that must not be found (unknown, malformed, another account's).
import { randomUUID } from 'node:crypto';
import { ASPECT_RATIOS, redactUrl, type VideoStatus } from '@videogen/openapi/rules';
import { stringsOf, successBody } from '../engine/bodies.ts';
import { need, probe, type Check } from '../engine/catalogue.ts';
import { ensure, type Judge } from '../engine/judge.ts';
import { FIXTURE_ENV, type Exchange, type FixtureName } from '../shapes.ts';
import { downloadHead, isVideo, type Download, ok } from '../scenarios/videos.ts';

/** The operations on one video, by its id. */
const BY_ID = ['getVideo', 'getConversionOptions'] as const;

const EXAMPLES = need.stateful('its videos are examples');

/** The status view of `id` in state `state` (2.1): download_url set only when completed, copyright an array. */
function statusView(j: Judge, ex: Exchange<'getVideo'>, id: string, state: string, fixture: FixtureName): void {
  const body = j.success(ex, `GET a ${state} video`);
  ensure(body.video_id === id, `video_id ${body.video_id} is not the requested ${id}`, ex);
  ensure(body.status === state, `status is ${body.status}, expected ${state} (fixture ${FIXTURE_ENV[fixture]})`, ex);
  if (state === 'completed')
    ensure(
      typeof body.download_url === 'string' && body.download_url.length > 0,
      'download_url of a completed video is empty',
      ex,
    );
  else
    ensure(
      body.download_url === '',
      `download_url of a ${state} video is ${JSON.stringify(body.download_url)}, not ""`,
      ex,
    );
  ensure(Array.isArray(body.copyright), 'copyright is not an array', ex);
}

/** A download that is a video (an MP4 `ftyp` box or a video/* type). */
export function ensureVideoDownload(j: Judge, d: Download | undefined, shown?: Exchange): void {
  ensure(d, 'download_url was not read: the status view gave none', shown);
  // A presigned address: its query is a credential, printed redacted as every URL is.
  const url = redactUrl(d.url);
  ensure(!d.error, `download_url ${url} could not be fetched: ${d.error}`, shown);
  ensure(
    d.status !== undefined && d.status >= 200 && d.status < 300,
    `download_url ${url} answered ${d.status}`,
    shown,
  );
  ensure(isVideo(d), `download_url ${url} is not a video (content-type "${d.contentType}", no MP4 ftyp box)`, shown);
}

function stateCheck(state: Exclude<VideoStatus, 'running'>, fixture: FixtureName): Check {
  return probe('getVideo', `status_view_${state}`, {
    needs: [EXAMPLES, need.fixture(fixture)],
    cost: { B: 1 },
    send: async (s) => {
      const id = await s.fixture(fixture);
      return { id, ex: await s.main.call('getVideo', { path: { video_id: id } }) };
    },
    judge: (r, j) => statusView(j, r.ex, r.id, state, fixture),
  });
}

const idChecks: Check[] = BY_ID.flatMap((operation) => [
  probe(operation, 'not_found_unknown_id', {
    needs: [need.stateful('every id exists for it')],
    cost: { B: 1 },
    send: (s) => s.main.call(operation, { path: { video_id: randomUUID() } }),
    judge: (ex, j) => j.refusal(ex, [404], 'NOT_FOUND'),
    answers: [{ status: 404, code: 'NOT_FOUND' }],
  }),
  probe(operation, 'negative_data_rejection_malformed_id', {
    cost: { B: 2 },
    // DECISIONS #11: a non-UUID id may be answered 400 or 404.
    send: async (s) => [
      await s.main.call(operation, { path: { video_id: 'not-a-uuid' } }),
      await s.main.call(operation, { path: { video_id: '12345' } }),
    ],
    judge: (answers, j) => {
      for (const ex of answers) j.refusal(ex, [400, 404]);
    },
    answers: [{ status: 400 }, { status: 404 }],
  }),
  probe(operation, 'not_found_other_account', {
    needs: [
      need.stateful('it has no accounts'),
      need.key('other', 'no second account'),
      need.fixture('otherAccountVideoId'),
    ],
    cost: { B: 1, apartB: 1 },
    send: async (s) => {
      const id = await s.fixture('otherAccountVideoId');
      return {
        own: await s.api('other').call(operation, { path: { video_id: id } }),
        theirs: await s.main.call(operation, { path: { video_id: id } }),
      };
    },
    judge: (r, j) => {
      // The id must exist for its owner, or a 404 would prove nothing.
      j.success(r.own, "the other account's own request for its video");
      j.refusal(r.theirs, [404], 'NOT_FOUND');
    },
    answers: [{ status: 404, code: 'NOT_FOUND' }],
  }),
]);

export const statusChecks: Check[] = [
  stateCheck('completed', 'completedVideoId'),
  // The other terminal states (read-only: seeded, configured or discovered videos).
  stateCheck('failed', 'failedVideoId'),
  stateCheck('expired', 'expiredVideoId'),
  probe('getVideo', 'download_url_downloads', {
    needs: [need.stateful('its download_url is an example address'), need.fixture('completedVideoId')],
    cost: { B: 1 },
    send: async (s) => {
      const ex = await s.main.call('getVideo', { path: { video_id: await s.fixture('completedVideoId') } });
      const url = successBody(ex)?.download_url;
      return { ex, download: ok(ex) && typeof url === 'string' && url ? await downloadHead(url) : undefined };
    },
    judge: (r, j) => {
      const body = j.success(r.ex, 'GET a completed video');
      ensure(body.status === 'completed' && body.download_url, 'the completed fixture has no download_url', r.ex);
      ensureVideoDownload(j, r.download, r.ex);
    },
  }),
  probe('getConversionOptions', 'options_convertible', {
    needs: [EXAMPLES, need.fixture('convertibleVideoId')],
    cost: { B: 1 },
    send: async (s) =>
      s.main.call('getConversionOptions', { path: { video_id: await s.fixture('convertibleVideoId') } }),
    judge: (ex, j) => {
      const body = j.success(ex, 'GET the options of a convertible video');
      ensure(body.is_convertible === true, 'is_convertible is not true for the convertible fixture', ex);
      // 2.4: a convertible video always offers all 7 aspect ratios.
      const offered = stringsOf(body.available_aspect_ratios);
      ensure(
        ASPECT_RATIOS.every((r) => offered.includes(r)),
        `available_aspect_ratios lacks some of the ${ASPECT_RATIOS.length} ratios: ${JSON.stringify(body.available_aspect_ratios)}`,
        ex,
      );
    },
  }),
  probe('getConversionOptions', 'options_not_convertible', {
    needs: [EXAMPLES, need.fixture('notConvertibleVideoId')],
    cost: { B: 1 },
    send: async (s) =>
      s.main.call('getConversionOptions', { path: { video_id: await s.fixture('notConvertibleVideoId') } }),
    judge: (ex, j) => {
      const body = j.success(ex, 'GET the options of a non-convertible video');
      ensure(body.is_convertible === false, 'is_convertible is not false for the non-convertible fixture', ex);
    },
  }),
  ...idChecks,
];
