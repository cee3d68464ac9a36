// POST /videos/{id}/conversions/: a new video with a new id, the source unchanged (judged on the run's
// one conversion, scenarios/conversion.ts), and every row of interface 7.2 the target can reproduce.
import { randomUUID } from 'node:crypto';
import { LANGUAGES } from '@videogen/openapi/rules';
import { stringsOf, type Answered } from '../engine/bodies.ts';
import { check, need, probe, type Check, type Need } from '../engine/catalogue.ts';
import type { Api, Call } from '../engine/http.ts';
import { ensure } from '../engine/judge.ts';
import { untilGuard } from '../engine/outcomes.ts';
import type { FixtureName } from '../shapes.ts';
import { conversion } from '../scenarios/conversion.ts';
import { UUID, ok } from '../scenarios/videos.ts';
import { ensureVideoDownload } from './status.ts';

const REFUSED = need.profile('no-credit', 'conversion requests');
const STATEFUL = need.stateful('it answers its first example, not the code for the condition');

/** A conversion body as a check sends it: the document's field names, any value (a wrong one on purpose). */
type Body = NonNullable<Call<'createConversion'>['json']>;
type Extra = Omit<Call<'createConversion'>, 'path' | 'json'>;

const convert = (api: Api, id: string, json: Body, extra: Extra = {}) =>
  api.call('createConversion', { path: { video_id: id }, json, ...extra });

/** A row of 7.2 on a video of the main account: its options, then the conversion → status + error_code. */
function row(
  name: string,
  fixture: FixtureName,
  body: (opts: Answered<'getConversionOptions'>) => Body,
  status: number,
  code: string,
  extra: Extra = {},
): Check {
  return probe('createConversion', name, {
    needs: [REFUSED, STATEFUL, need.fixture(fixture)],
    cost: { A: 1, B: 1, atRisk: 1 },
    send: async (s) => {
      const id = await s.fixture(fixture);
      const options = await s.main.call('getConversionOptions', { path: { video_id: id } });
      const o = options.body as Answered<'getConversionOptions'>;
      return { options, post: ok(options) ? await convert(s.main, id, body(o), extra) : undefined };
    },
    judge: (r, j) => {
      j.success(r.options, 'GET the options of the source video');
      j.refusal(j.present(r.post, 'the conversion'), [status], code);
    },
    answers: [{ status, code }],
  });
}

/** A row sent with another account's key (the Free plan, no credit) on a convertible video of that account. */
function accountRow(
  name: string,
  account: 'freePlan' | 'noCredit',
  fixture: FixtureName,
  keyWhy: string,
  status: number,
  extra: Extra = {},
): Check {
  return probe('createConversion', name, {
    needs: [
      REFUSED,
      need.stateful(`it has no ${account === 'freePlan' ? 'plans' : 'credit'}`),
      need.key(account, keyWhy),
      need.fixture(fixture),
    ],
    cost: { apartA: 1, atRisk: 1 },
    send: async (s) => convert(s.api(account), await s.fixture(fixture), { aspect_ratio: '1:1' }, extra),
    judge: (ex, j) => j.refusal(ex, [status], 'INSUFFICIENT_CREDIT'),
    answers: [{ status, code: 'INSUFFICIENT_CREDIT' }],
  });
}

function mockConversion(): Check {
  // A stateless mock: only the shape of the answer can be checked.
  return probe('createConversion', 'convert_returns_new_id', {
    needs: [need.profile('full', 'converting videos')],
    cost: { A: 1, credits: 1 },
    send: async (s) => {
      const source = randomUUID();
      return { source, ex: await convert(s.main, source, { language: 'en' }) };
    },
    judge: (r, j) => {
      const body = j.success(r.ex, 'POST a conversion');
      ensure(
        UUID.test(String(body.video_id ?? '')) && body.video_id !== r.source,
        'the conversion did not answer a new UUID',
        r.ex,
      );
    },
  });
}

export function conversionChecks(stateful: boolean): Check[] {
  const FIXTURE: Need[] = stateful ? [need.fixture('convertibleVideoId')] : [];
  return [
    stateful
      ? check('createConversion', 'convert_returns_new_id', conversion, (c, j) => {
          j.success(c.before.status, 'GET the source video');
          j.success(j.present(c.before.options, 'the options of the source'), 'GET the options of the source video');
          ensure(
            c.target,
            `the convertible fixture offers no language nor aspect ratio other than its own: ${c.before.options?.text}`,
            c.before.options,
          );
          const post = j.present(c.post, 'the conversion');
          const body = j.success(post, `POST a conversion ${JSON.stringify(c.target)}`);
          ensure(
            typeof body.video_id === 'string' && UUID.test(body.video_id),
            `video_id ${body.video_id} is not a UUID`,
            post,
          );
          ensure(body.video_id !== c.source, 'the conversion answered the id of its source video', post);
        })
      : mockConversion(),
    check('createConversion', 'source_unchanged', conversion, (c, j) => {
      ensure(
        c.after,
        'no conversion was created, so nothing to compare (see convert_returns_new_id)',
        c.post ? [c.post] : [],
      );
      const before = j.success(c.before.status, 'GET the source before');
      const status = j.success(c.after.status, 'GET the source after the conversion');
      const opts = j.success(
        j.present(c.after.options, 'the options of the source after'),
        'GET the options of the source after',
      );
      // download_url is presigned and may change on every read: compare everything else.
      const pick = (s: Answered<'getVideo'>) => ({ video_id: s.video_id, status: s.status, copyright: s.copyright });
      ensure(
        JSON.stringify(pick(status)) === JSON.stringify(pick(before)),
        `the source's status view changed: ${JSON.stringify(pick(before))} → ${JSON.stringify(pick(status))}`,
        c.after.status,
      );
      const optsBefore = c.before.options?.body;
      ensure(
        JSON.stringify(opts) === JSON.stringify(optsBefore),
        `the source's conversion options changed: ${JSON.stringify(optsBefore)} → ${JSON.stringify(opts)}`,
        c.after.options,
      );
    }),
    check('createConversion', 'converted_video_completes', conversion, (c, j) => {
      ensure(c.converted, 'no conversion was created (see convert_returns_new_id)', c.post ? [c.post] : []);
      const { polled, id } = c.converted;
      const body = j.success(polled.last, `polling video ${id}`);
      ensure(
        !polled.timedOut,
        `the converted video ${id} still runs after the client-side timeout of x-polling`,
        polled.last,
      );
      ensure(body.status === 'completed', `the converted video ended ${body.status}`, polled.last);
      ensureVideoDownload(j, c.converted.download, polled.last);
      const opts = j.success(
        j.present(c.converted.options, 'the options of the converted video'),
        'GET the options of the converted video',
      );
      if (c.target?.language)
        ensure(
          opts.current_language === c.target.language,
          `the converted video's current_language is ${opts.current_language}, not ${c.target.language}`,
          c.converted.options,
        );
      if (c.target?.aspect_ratio)
        ensure(
          opts.current_aspect_ratio === c.target.aspect_ratio,
          `the converted video's current_aspect_ratio is ${opts.current_aspect_ratio}, not ${c.target.aspect_ratio}`,
          c.converted.options,
        );
    }),
    probe('createConversion', 'negative_data_rejection_schema', {
      needs: [REFUSED, ...FIXTURE],
      cost: { A: 3, atRisk: 3 },
      // Invalid by the schema alone, so even a mock refuses them; exact codes are the rows below.
      send: async (s) => {
        const id = stateful ? await s.fixture('convertibleVideoId') : randomUUID();
        return untilGuard([
          () => convert(s.main, id, { language: 'xx' }),
          () => convert(s.main, id, { aspect_ratio: '5:4' }),
          () =>
            s.main.call('createConversion', {
              path: { video_id: id },
              raw: { body: '["en"]', contentType: 'application/json' },
            }),
        ]);
      },
      judge: (r, j) => {
        for (const ex of r.sent) j.refusal(ex, [400]);
        if (r.stopped) j.skip(r.stopped);
      },
      answers: [
        { status: 400, code: 'INVALID_LANGUAGE' },
        { status: 400, code: 'INVALID_ASPECT_RATIO' },
        { status: 400, code: 'INVALID_REQUEST' },
      ],
    }),
    row('convert_target_required', 'convertibleVideoId', () => ({}), 400, 'CONVERT_TARGET_REQUIRED'),
    row('invalid_language', 'convertibleVideoId', () => ({ language: 'xx' }), 400, 'INVALID_LANGUAGE'),
    row('invalid_aspect_ratio', 'convertibleVideoId', () => ({ aspect_ratio: '5:4' }), 400, 'INVALID_ASPECT_RATIO'),
    row(
      'convert_no_change_language',
      'convertibleVideoId',
      (o) => ({ language: o.current_language }),
      400,
      'CONVERT_NO_CHANGE',
    ),
    row(
      'convert_no_change_aspect_ratio',
      'convertibleVideoId',
      (o) => ({ aspect_ratio: o.current_aspect_ratio }),
      400,
      'CONVERT_NO_CHANGE',
    ),
    probe('createConversion', 'language_not_supported_by_voices', {
      needs: [REFUSED, STATEFUL, need.fixture('convertibleVideoId')],
      cost: { A: 1, B: 1, atRisk: 1 },
      send: async (s) => {
        const id = (await s.maybeFixture('limitedVoicesVideoId')) ?? (await s.fixture('convertibleVideoId'));
        const options = await s.main.call('getConversionOptions', { path: { video_id: id } });
        const o = options.body as Answered<'getConversionOptions'> | undefined;
        const available = stringsOf(o?.available_languages);
        const language = ok(options)
          ? LANGUAGES.find(
              (l) => l !== o?.current_language && !(Array.isArray(o?.available_languages) && available.includes(l)),
            )
          : undefined;
        return { options, language, post: language ? await convert(s.main, id, { language }) : undefined };
      },
      judge: (r, j) => {
        j.success(r.options, 'GET the options of the source video');
        if (!r.language) j.skip('the video supports every language: set CONTRACT_LIMITED_VOICES_VIDEO_ID');
        j.refusal(j.present(r.post, 'the conversion'), [400], 'LANGUAGE_NOT_SUPPORTED_BY_VOICES');
      },
      answers: [{ status: 400, code: 'LANGUAGE_NOT_SUPPORTED_BY_VOICES' }],
    }),
    probe('createConversion', 'source_not_convertible', {
      needs: [REFUSED, STATEFUL, need.fixture('notConvertibleVideoId')],
      cost: { A: 1, B: 1, atRisk: 1 },
      send: async (s) => {
        const id = await s.fixture('notConvertibleVideoId');
        const options = await s.main.call('getConversionOptions', { path: { video_id: id } });
        // A video found by discovery (is_convertible false) may hold a real avatar: then the other row of 7.2 applies too.
        return {
          options,
          configured: Boolean(s.run.target.fixtures.notConvertibleVideoId),
          post: ok(options) ? await convert(s.main, id, { aspect_ratio: '1:1' }) : undefined,
        };
      },
      judge: (r, j) => {
        const opts = j.success(r.options, 'GET the options of the non-convertible video');
        ensure(opts.is_convertible === false, 'the non-convertible fixture says is_convertible true', r.options);
        const post = j.present(r.post, 'the conversion');
        const code = (post.body as { error_code?: unknown } | undefined)?.error_code;
        j.refusal(
          post,
          [400],
          !r.configured && code === 'UNSUPPORTED_HEAVY_AVATAR' ? code : 'SOURCE_VIDEO_NOT_CONVERTIBLE',
        );
      },
      answers: [{ status: 400, code: 'SOURCE_VIDEO_NOT_CONVERTIBLE' }],
    }),
    row(
      'unsupported_heavy_avatar',
      'realAvatarVideoId',
      () => ({ aspect_ratio: '1:1' }),
      400,
      'UNSUPPORTED_HEAVY_AVATAR',
    ),
    probe('createConversion', 'not_found_unknown_id', {
      needs: [REFUSED, need.stateful('every id exists for it')],
      cost: { A: 1, atRisk: 1 },
      send: (s) => convert(s.main, randomUUID(), { aspect_ratio: '1:1' }),
      judge: (ex, j) => j.refusal(ex, [404], 'NOT_FOUND'),
      answers: [{ status: 404, code: 'NOT_FOUND' }],
    }),
    probe('createConversion', 'not_found_other_account', {
      needs: [
        REFUSED,
        need.stateful('it has no accounts'),
        need.key('other', 'no second account'),
        need.fixture('otherAccountVideoId'),
      ],
      cost: { A: 1, apartB: 1, atRisk: 1 },
      send: async (s) => {
        const id = await s.fixture('otherAccountVideoId');
        return {
          own: await s.api('other').call('getVideo', { path: { video_id: id } }),
          post: await convert(s.main, id, { aspect_ratio: '1:1' }),
        };
      },
      judge: (r, j) => {
        j.success(r.own, "the other account's own request for its video");
        j.refusal(r.post, [404], 'NOT_FOUND');
      },
      answers: [{ status: 404, code: 'NOT_FOUND' }],
    }),
    probe('createConversion', 'negative_data_rejection_malformed_id', {
      needs: [REFUSED],
      cost: { A: 1, atRisk: 1 },
      send: (s) => convert(s.main, 'not-a-uuid', { aspect_ratio: '1:1' }),
      judge: (ex, j) => j.refusal(ex, [400, 404]),
      answers: [{ status: 400 }, { status: 404 }],
    }),
    accountRow('insufficient_credit_free_plan', 'freePlan', 'freePlanVideoId', 'no key of a Free-plan account', 403),
    accountRow(
      'insufficient_credit_balance',
      'noCredit',
      'noCreditVideoId',
      'no key of an account without credit',
      429,
      { retry: false },
    ),
    probe('createConversion', 'unknown_error', {
      needs: [REFUSED, STATEFUL, need.fixture('unknownErrorVideoId')],
      cost: { A: 1, atRisk: 1 },
      send: async (s) =>
        convert(s.main, await s.fixture('unknownErrorVideoId'), { aspect_ratio: '1:1' }, { expectServerError: true }),
      judge: (ex, j) => j.refusal(ex, [500], 'UNKNOWN_ERROR'),
      answers: [{ status: 500, code: 'UNKNOWN_ERROR' }],
    }),
  ];
}
