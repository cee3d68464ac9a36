import { stat } from 'node:fs/promises';
import { formProblem, GENERATE_FIELDS, UPLOAD_LIMITS, VALID_COMBINATIONS } from '@videogen/openapi/rules';
import type { Command } from 'commander';
import { createContext, type Context, type Invocation } from '../context.js';
import { CliError, FIELD_FLAGS, usageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { addWaitOptions, describeVideo, downloadTo, waitFor, type WaitFlags } from './shared.js';

interface GenerateFlags extends WaitFlags {
  setting: string;
  text?: string;
  pdf?: string;
  pptx?: string;
  audio?: string;
  video?: string;
  image?: string[];
  wait?: boolean;
  download?: string;
}

/** The spec's valid input combinations (x-valid-combinations), as CLI flags for messages. */
const COMBINATIONS_HELP = ((all: string[]) => `${all.slice(0, -1).join(', ')}, or ${all.at(-1)}`)(
  VALID_COMBINATIONS.map(([fields]) => fields.map((f) => FIELD_FLAGS[f] ?? f).join(' with ')),
);

/** The extensions of a file field (x-upload-limits): "a, b" or "a; Business also b, c". */
function formats(field: keyof typeof UPLOAD_LIMITS): string {
  const { personal, business } = UPLOAD_LIMITS[field].extensions as {
    personal: readonly string[];
    business: readonly string[];
  };
  const more = business.filter((e) => !personal.includes(e));
  return `${personal.join(', ')}${more.length ? `; Business also ${more.join(', ')}` : ''}`;
}
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const flagsOf = (fields: readonly string[]) => fields.map((f) => FIELD_FLAGS[f] ?? f).join(' and ');

export function registerGenerate(program: Command, invocation: Invocation): void {
  addWaitOptions(
    program
      .command('generate')
      .description('Generate a video from a text, a PDF, a PPTX, a text with a PDF, an audio or a video file.')
      .requiredOption('--setting <id>', 'video setting id (see "videogen settings")')
      .option('--text <text>', 'question or instruction text')
      .option('--pdf <file>', `PDF document (${formats('pdf_file')})`)
      .option('--pptx <file>', `PowerPoint document (${formats('pptx_file')})`)
      .option('--audio <file>', `audio file (${formats('audio_file')})`)
      .option('--video <file>', `video file (${formats('video_file')})`)
      .option(
        '--image <file>',
        `image to go with --text (${formats('image_files')}); repeat up to ${UPLOAD_LIMITS.image_files.maxItems} times`,
        collect,
      )
      .option('--wait', 'wait until the video is completed')
      .option('--download <out>', 'wait, then download the video to this file (implies --wait)'),
  )
    .addHelpText(
      'after',
      `
Inputs: give exactly one of ${COMBINATIONS_HELP}; --image only with --text.
Examples:
  videogen generate --setting 5e77a000-0000-4000-8000-000000000001 --text "Explain photosynthesis"
  videogen generate --setting 5e77a000-0000-4000-8000-000000000002 --pdf deck.pdf --download deck.mp4`,
    )
    .action(async (flags: GenerateFlags) => {
      const opts = { ...flags, image: flags.image ?? [] };
      const fields = inputFields(opts);
      const files = await checkFiles(opts);
      invocation.facts.files = files;
      const ctx = await createContext(invocation);
      const setting = await findSetting(ctx, opts.setting, fields);

      const bar = Object.keys(files).length ? ctx.progress.transfer('Uploading', describeFiles(files)) : undefined;
      let created: { video_id: string };
      try {
        created = await ctx.client.videos.generate(
          {
            video_setting_id: opts.setting,
            ...(opts.text !== undefined && { text: opts.text }),
            ...(opts.pdf && { pdf_file: opts.pdf }),
            ...(opts.pptx && { pptx_file: opts.pptx }),
            ...(opts.audio && { audio_file: opts.audio }),
            ...(opts.video && { video_file: opts.video }),
            ...(opts.image.length > 0 && { image_files: opts.image }),
          },
          {
            setting,
            onUploadProgress: ({ loaded, total }: { loaded: number; total?: number }) => bar?.update(loaded, total),
          },
        );
        bar?.done();
      } catch (err) {
        bar?.fail();
        throw err;
      }
      const id = created.video_id;
      ctx.facts.videoId = id;
      await finish(ctx, id, opts, {});
    });
}

/** Shared by generate and convert: optionally wait and download, then print the result. */
export async function finish(
  ctx: Context,
  id: string,
  opts: WaitFlags & { wait?: boolean; download?: string },
  extra: { source_video_id?: string },
): Promise<void> {
  if (!opts.wait && !opts.download) {
    ctx.out.result({ ...extra, video_id: id, status: 'running' }, () =>
      describeVideo({ ...extra, video_id: id, status: 'running' }),
    );
    ctx.progress.info(`Started video ${id}: follow it with "videogen wait ${id}".`);
    return;
  }
  const video = await waitFor(ctx, id, opts);
  const saved = opts.download ? await downloadTo(ctx, id, opts.download) : undefined;
  const result = { ...extra, ...video, ...saved };
  ctx.out.result(result, () => describeVideo(result));
}

/** Form fields given on the command line; rejects combinations the service does not accept. */
function inputFields(opts: GenerateFlags & { image: string[] }): string[] {
  // The single-valued input fields (image_files, the repeatable one, is handled below), by their flag.
  const given: string[] = GENERATE_FIELDS.filter((f) => f !== 'image_files').filter(
    (f) => opts[FIELD_FLAGS[f].slice(2) as keyof GenerateFlags] !== undefined,
  );
  if (given.length === 0) throw usageError(`Give an input: ${COMBINATIONS_HELP}.`);
  const fields = opts.image.length ? [...given, 'image_files'] : [...given];
  // The shared rule (x-valid-combinations); the messages name the flags.
  if (formProblem(given))
    throw usageError(`${flagsOf(given)} cannot be combined: give exactly one of ${COMBINATIONS_HELP}.`);
  if (formProblem(fields)) {
    const withImages = VALID_COMBINATIONS.filter(([, optional]) =>
      (optional as readonly string[]).includes('image_files'),
    );
    throw usageError(`--image goes with ${withImages.map(([f]) => flagsOf(f)).join(' or ')} only.`);
  }
  if (opts.text !== undefined && opts.text.trim() === '')
    throw usageError('--text is empty: give the question or instruction.');
  return fields;
}

/** Every file must exist before anything is sent; sizes are kept for the error messages. */
async function checkFiles(
  opts: GenerateFlags & { image: string[] },
): Promise<Record<string, { path: string; size: number }[]>> {
  const byField: Record<string, string[]> = {
    pdf_file: opts.pdf ? [opts.pdf] : [],
    pptx_file: opts.pptx ? [opts.pptx] : [],
    audio_file: opts.audio ? [opts.audio] : [],
    video_file: opts.video ? [opts.video] : [],
    image_files: opts.image,
  };
  const out: Record<string, { path: string; size: number }[]> = {};
  for (const [field, paths] of Object.entries(byField)) {
    for (const path of paths) {
      const info = await stat(path).catch(() => undefined);
      if (!info) throw usageError(`${FIELD_FLAGS[field]} ${path}: no such file.`);
      if (!info.isFile()) throw usageError(`${FIELD_FLAGS[field]} ${path}: not a regular file.`);
      (out[field] ??= []).push({ path, size: info.size });
    }
  }
  return out;
}

function describeFiles(files: Record<string, { path: string }[]>): string {
  const all = Object.values(files).flat();
  return all.length === 1 ? all[0].path : `${all.length} files`;
}

/**
 * Look the setting up first: a wrong id or an input the setting is not used with is reported with
 * the flags it expects, before a large file is uploaded for nothing.
 */
async function findSetting(ctx: Context, id: string, fields: string[]) {
  for await (const s of ctx.client.settings.list()) {
    if (s.video_setting_id !== id) continue;
    const accepted: string[] = s.request_fields;
    // DECISIONS #26 (the shared rule): only the setting's fields, and all of them but the optional ones.
    if (formProblem(fields, accepted)) {
      const optionalFields = new Set(VALID_COMBINATIONS.flatMap(([, optional]) => optional as readonly string[]));
      const primary = accepted.filter((f) => !optionalFields.has(f));
      const optional = accepted
        .filter((f) => optionalFields.has(f))
        .map((f) => ` (and optionally ${FIELD_FLAGS[f] ?? f})`)
        .join('');
      throw new CliError(
        `Video setting ${id} ("${s.title}") expects ${flagsOf(primary)}${optional}, but you gave ${flagsOf(fields)}: ` +
          `pass ${flagsOf(primary)}, or pick another setting with "videogen settings".`,
        EXIT.INVALID_INPUT,
        'INVALID_VIDEO_SETTING',
      );
    }
    return s;
  }
  throw new CliError(
    `Video setting ${id} is not one of this account's settings: setting ids are per account (the ids in the docs are the sandbox's acme account's): list yours with "videogen settings".`,
    EXIT.INVALID_INPUT,
    'INVALID_VIDEO_SETTING',
  );
}
