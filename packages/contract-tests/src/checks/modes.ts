// POST /videos/generate/ in every valid combination of x-valid-combinations, and the forms it must
// refuse: a wrong file extension, too many images, a combination that is not valid, no setting, a
// setting that does not take the given fields (DECISIONS #26), an unknown setting, a file past the
// plan's limit (x-upload-limits; DECISIONS #5, #8).
//
// A combination is judged on its generation (a credit) or, when it is sent only while the running
// places are full (scenarios/generations.ts), on that answer: a 503 shows the form was not refused
// (acceptance itself is then not proven: CONTRACT_EVERY_COMBINATION=1 generates it), a 400 fails.
import { randomUUID } from 'node:crypto';
import { MAX_RUNNING, UPLOAD_LIMITS } from '@videogen/openapi/rules';
import {
  check,
  need,
  probe,
  scenario,
  type Check,
  type Need,
  type Scenario,
  type Sender,
} from '../engine/catalogue.ts';
import type { Schemas } from '@videogen/openapi/types';
import { itemsOf, stringsOf } from '../engine/bodies.ts';
import { requestLine } from '../engine/http.ts';
import { zeroFile } from '../engine/zero-file.ts';
import { ensure, type Judge } from '../engine/judge.ts';
import { Skip } from '../engine/outcomes.ts';
import type { Exchange } from '../shapes.ts';
import { COMBINATIONS, describeFields, modeForm, settingFixture, type Combination } from '../scenarios/forms.ts';
import type { GenerationScenarios } from '../scenarios/generations.ts';
import { UUID, idOf } from '../scenarios/videos.ts';

const PRISM_IMAGES =
  'rejects repeated multipart image_files parts as "must be array" (an open Prism bug, toolchain notes)';
const REFUSED = need.profile('no-credit', 'POST requests');

/** What a combination's check judges: the answer to its form, and every other video id the run knew then. */
interface Evidence {
  combination: Combination;
  exchange?: Exchange<'generateVideo'>;
  /** Sent while the running places were full. */
  overLimit: boolean;
  others: string[];
}

function evidenceOf(c: Combination, g: GenerationScenarios): Scenario<Evidence> {
  const generated = g.byCombination.get(c);
  const filling = !generated && !g.roles.overLimit.includes(c);
  const source: Scenario = generated ?? (filling ? g.generations : g.probe);
  return scenario({
    name: `evidence ${c.key}`,
    uses: [source],
    cost: {},
    send: async (s) => {
      const others = (exclude?: Exchange<'generateVideo'>) => {
        const own = idOf(exclude);
        return [...s.run.created, ...Object.values(s.run.target.fixtures)].filter(
          (id): id is string => typeof id === 'string' && id !== own,
        );
      };
      if (generated) {
        const r = await s.read(generated);
        return { combination: c, exchange: r.exchange, overLimit: false, others: others(r.exchange) };
      }
      if (filling) {
        const r = await s.read(g.generations);
        const exchange = r.sent.find((x) => x.combination === c)?.exchange;
        return { combination: c, exchange, overLimit: false, others: others(exchange) };
      }
      const p = await s.read(g.probe);
      const exchange = p.overLimit.find((x) => x.combination === c)?.exchange;
      if (!exchange && p.stopped) throw new Skip(p.stopped);
      return { combination: c, exchange, overLimit: true, others: others(exchange) };
    },
  });
}

function combinationCheck(c: Combination, g: GenerationScenarios): Check<Evidence> {
  const what = `${requestLine('generateVideo')} with ${describeFields(c.fields)}`;
  const needs: Need[] = [
    need.profile('full', 'generating videos (each costs a credit)'),
    need.fixture(settingFixture(c)),
  ];
  if (c.fields.includes('image_files')) needs.push(need.repeatedParts(PRISM_IMAGES));
  return check(
    'generateVideo',
    `generate_mode_${c.key}`,
    evidenceOf(c, g),
    (e, j) => {
      const ex = j.present(e.exchange, what);
      if (e.overLimit && ex.status === 503) {
        j.note = `sent while ${MAX_RUNNING} videos ran and answered 503: not refused as a form; its acceptance is not proven (CONTRACT_EVERY_COMBINATION=1 generates it)`;
        return;
      }
      if (e.overLimit && ex.status >= 400 && ex.status < 500)
        ensure(
          false,
          `${what} (a valid combination, sent while ${MAX_RUNNING} videos ran) was refused as a request: expected 503 or a new video`,
          ex,
        );
      judgeAccepted(j, ex, what, e.others);
    },
    needs,
  );
}

function judgeAccepted(j: Judge, ex: Exchange<'generateVideo'>, what: string, others: string[]): void {
  const body = j.success(ex, what);
  ensure(
    typeof body?.video_id === 'string' && UUID.test(body.video_id),
    `video_id ${body?.video_id} is not a UUID`,
    ex,
  );
  if (others.includes(body.video_id))
    ensure(false, `${what} answered the id of another video of this run or a fixture: ${body.video_id}`, ex);
}

const generate = (s: Sender, form: FormData) => s.main.call('generateVideo', { form });

export function modeChecks(g: GenerationScenarios): Check[] {
  return [
    ...COMBINATIONS.map((c) => combinationCheck(c, g)),
    probe('generateVideo', 'negative_data_rejection_file_extension', {
      needs: [
        REFUSED,
        need.stateful('it does not check file extensions (x-upload-limits is an extension)'),
        need.fixture('pdfSettingId'),
      ],
      cost: { A: 1, atRisk: 1 },
      // A text file as pdf_file, with a setting that takes a PDF: only the extension is wrong.
      send: async (s) => {
        const form = new FormData();
        form.append('video_setting_id', await s.fixture('pdfSettingId'));
        form.append('pdf_file', new Blob(['Contract suite: not a PDF.\n'], { type: 'text/plain' }), 'notes.txt');
        return generate(s, form);
      },
      judge: (ex, j) => j.refusal(ex, [400], 'FILE_UPLOAD_ERROR'),
      answers: [{ status: 400, code: 'FILE_UPLOAD_ERROR' }],
    }),
    probe('generateVideo', 'negative_data_rejection_too_many_images', {
      needs: [
        REFUSED,
        need.repeatedParts(`${PRISM_IMAGES}: a 400 would not prove the limit`),
        need.fixture('textImagesSettingId'),
      ],
      cost: { A: 1, atRisk: 1 },
      send: async (s) =>
        generate(
          s,
          modeForm(
            await s.fixture('textImagesSettingId'),
            ['text', 'image_files'],
            UPLOAD_LIMITS.image_files.maxItems + 1,
          ),
        ),
      judge: (ex, j) => j.refusal(ex, [400], 'FILE_UPLOAD_ERROR'),
      answers: [{ status: 400, code: 'FILE_UPLOAD_ERROR' }],
    }),
    probe('generateVideo', 'negative_data_rejection_invalid_combination', {
      needs: [
        REFUSED,
        need.stateful('it does not enforce x-valid-combinations (an extension, not a schema rule)'),
        need.fixture('audioSettingId'),
      ],
      cost: { A: 1, atRisk: 1 },
      // audio_file comes alone (4.1): with text it is no valid combination, whatever the setting.
      send: async (s) => generate(s, modeForm(await s.fixture('audioSettingId'), ['audio_file', 'text'])),
      judge: (ex, j) => j.refusal(ex, [400], 'INVALID_REQUEST'),
      answers: [{ status: 400, code: 'INVALID_REQUEST' }],
    }),
    probe('generateVideo', 'negative_data_rejection_missing_setting', {
      needs: [REFUSED],
      cost: { A: 1, atRisk: 1 },
      // A valid combination (pdf_file alone) without the required video_setting_id: a schema error.
      send: async (s) => generate(s, modeForm(undefined, ['pdf_file'])),
      judge: (ex, j) => j.refusal(ex, [400], 'INVALID_REQUEST'),
      answers: [{ status: 400, code: 'INVALID_REQUEST' }],
    }),
    probe('generateVideo', 'negative_data_rejection_setting_fields_mismatch', {
      // The refusal is our reading of request_fields (DECISIONS #26): a target that accepts charges a
      // credit, so only in the full profile, and an acceptance is a mismatch, not a failure.
      needs: [
        need.profile('full', 'a request only our decision #26 refuses (a credit if accepted)'),
        need.stateful('it has no settings'),
        need.fixture('videoSettingId'),
      ],
      cost: { A: 1, atRisk: 1 },
      send: async (s) => generate(s, modeForm(await s.fixture('videoSettingId'), ['pdf_file'])),
      judge: (ex, j) => j.refusal(ex, [400], 'INVALID_VIDEO_SETTING', [26]),
      answers: [{ status: 400, code: 'INVALID_VIDEO_SETTING' }],
    }),
    probe('generateVideo', 'negative_data_rejection_unknown_setting', {
      needs: [REFUSED, need.stateful('every id exists for it')],
      cost: { A: 1, atRisk: 1 },
      // 400: generateVideo declares no 404 (an unknown setting is a bad form field, not a missing resource).
      send: async (s) => generate(s, modeForm(randomUUID(), ['text'])),
      judge: (ex, j) => j.refusal(ex, [400], 'INVALID_VIDEO_SETTING'),
      answers: [{ status: 400, code: 'INVALID_VIDEO_SETTING' }],
    }),
    probe('generateVideo', 'negative_data_rejection_file_over_plan_limit', {
      // The sandbox's second account (globex) is on the Personal plan: a file just past its limit.
      needs: [
        REFUSED,
        need.sandbox('it uploads more than a plan allows (50+ MB) to the target'),
        need.key('other', 'no second account (on the Personal plan)'),
      ],
      cost: { apartA: 1, apartB: 1, atRisk: 1 },
      send: async (s) => {
        const personal = s.api('other');
        const settings = await personal.call('listVideoSettings', {});
        const listed = itemsOf<Schemas['VideoSetting']>((settings.body as { results?: unknown } | undefined)?.results);
        const setting = listed.find((x) => {
          const fields = stringsOf(x.request_fields);
          return fields.length === 1 && fields[0] === 'audio_file';
        })?.video_setting_id;
        if (typeof setting !== 'string') return { settings };
        const file = await zeroFile(UPLOAD_LIMITS.audio_file.maxBytes.personal + 1_000_000, 'audio/mpeg');
        try {
          const form = new FormData();
          form.append('video_setting_id', setting);
          form.append('audio_file', file.blob, 'contract-too-large.mp3');
          return { settings, upload: await personal.call('generateVideo', { form }) };
        } finally {
          await file.remove();
        }
      },
      judge: (r, j) => {
        const list = j.success(r.settings, `${requestLine('listVideoSettings')} of the Personal-plan account`);
        if (!r.upload)
          j.skip(
            `the Personal-plan account has no setting with request_fields [audio_file] among its ${Array.isArray(list.results) ? list.results.length : 0}`,
          );
        j.refusal(j.present(r.upload, 'the upload'), [400], 'FILE_UPLOAD_ERROR');
      },
      answers: [{ status: 400, code: 'FILE_UPLOAD_ERROR' }],
    }),
  ];
}
