// POST /videos/generate/: the form is streamed (uploads.ts), then checked against the document's
// x-valid-combinations, its schema and the chosen setting's request_fields (the first and the last by
// the rules' formProblem, DECISIONS #26: the one home of that rule, shared with the client and the CLI).
import { formProblem } from '@videogen/openapi/rules';
import type { Context } from '../context.js';
import { ApiError, refusal } from '../errors.js';
import { seededSettings } from '../fixtures.js';
import { readScenario } from '../magic.js';
import type { OperationHandlers } from '../spec-routes.js';
import { readGenerateForm, type GenerateForm } from '../uploads.js';
import { checkCapacity, startVideo } from '../videos.js';
import type { ValidCombination } from '../spec.js';

export function generateHandlers(ctx: Context): Pick<OperationHandlers, 'generateVideo'> {
  const { model } = ctx;
  const inputNames = Object.keys(model.formFields).filter((n) => n !== 'video_setting_id');
  const describeCombination = (c: ValidCombination) =>
    [...c.fields, ...(c.optional ?? []).map((o) => `[${o}]`)].join(' + ');

  return {
    generateVideo: async ({ request, account }) => {
      const form = await readGenerateForm(request, account.plan, model);

      // x-valid-combinations first, so that a wrong combination is named as such (the schema's oneOf
      // states the same combinations, but its error would only name one branch's missing field).
      const given = inputNames.filter((n) => n in form.fields || n in form.files);
      if (formProblem(given)) {
        throw refusal(
          'bad_combination',
          `Give exactly one of: ${model.combinations.map(describeCombination).join('; ')} (got ${given.join(' + ') || 'no input field'}).`,
        );
      }

      // The document's schema: required video_setting_id (a UUID), non-empty text, at most 10 images.
      const asObject: Record<string, unknown> = { ...form.fields };
      for (const [name, files] of Object.entries(form.files)) {
        const prop = model.formFields[name];
        asObject[name] = prop?.type === 'array' ? files.map((f) => f.filename) : files[0].filename;
      }
      if (!model.validate.generateForm(asObject)) {
        const e = model.validate.generateForm.errors?.[0];
        const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'form';
        // An empty text and too many images are refusals of their own (the twin may answer them otherwise).
        const kind =
          where === 'text' && e?.keyword === 'minLength'
            ? 'empty_text'
            : where === 'image_files' && e?.keyword === 'maxItems'
              ? 'too_many_images'
              : 'invalid_form';
        throw refusal(kind, `${where} ${e?.message ?? 'is not valid'}.`);
      }

      const settingId = form.fields.video_setting_id.toLowerCase();
      const setting = seededSettings(account).find((s) => s.video_setting_id === settingId);
      if (!setting) throw refusal('unknown_setting', `The video setting ${settingId} does not exist.`);
      // The setting accepts the given fields, and every field it needs (beyond the combination's optional ones) is given;
      // a twin that reads request_fields as "any listed subset" does not insist on the second.
      const mismatch = formProblem(given, setting.request_fields);
      const fits = !mismatch || (mismatch.kind === 'setting_field_missing' && ctx.twin.lenientRequestFields);
      if (!fits) {
        throw refusal(
          'setting_mismatch',
          `The video setting ${settingId} is used with [${setting.request_fields.join(', ')}], not with [${given.join(', ')}].`,
        );
      }

      const scenario = readScenario([form.fields.text ?? '', ...fileNames(form)], model);
      if (scenario.unknownError) throw new ApiError(500, 'UNKNOWN_ERROR', 'An unexpected error occurred.');
      checkCapacity(ctx, account, 'generation');
      const mode = model.combinations.find(
        (c) =>
          c.fields.every((f) => given.includes(f)) &&
          given.every((f) => c.fields.includes(f) || c.optional?.includes(f)),
      );
      const v = await startVideo(ctx, account, {
        seconds: ctx.twin.durationSeconds('generation', mode?.fields.join('+'), account.name),
        prompt: form.fields.text ?? fileNames(form)[0],
        language: scenario.language ?? 'en',
        aspect_ratio: scenario.aspectRatio ?? '16:9',
        voices: scenario.voices ?? 'all',
        outcome: scenario.fail ? 'failed' : 'completed',
        has_video_data: !scenario.notConvertible,
        real_avatar: scenario.realAvatar,
        expire_soon: scenario.expire,
      });
      return { video_id: v.video_id };
    },
  };
}

const fileNames = (form: GenerateForm) => Object.values(form.files).flatMap((files) => files.map((f) => f.filename));
