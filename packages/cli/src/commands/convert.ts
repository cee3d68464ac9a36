import { ASPECT_RATIOS, LANGUAGES } from '@videogen/client';
import type { Command } from 'commander';
import { createContext, errorContext } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { describeLanguages, languageName } from '../languages.js';
import { finish } from './generate.js';
import { addWaitOptions, type WaitFlags } from './shared.js';

interface ConvertFlags extends WaitFlags {
  language?: string;
  aspectRatio?: string;
  wait?: boolean;
  download?: string;
}

export function registerConvert(program: Command): void {
  addWaitOptions(
    program
      .command('convert')
      .argument('<id>', 'id of the completed source video (it is not changed)')
      .description('Convert a video into a new one in another language, another aspect ratio, or both.')
      .option('--language <code>', 'target language code (see "videogen languages")')
      .option('--aspect-ratio <ratio>', `target aspect ratio: ${ASPECT_RATIOS.join(', ')}`)
      .option('--wait', 'wait until the new video is completed')
      .option('--download <out>', 'wait, then download the new video to this file (implies --wait)'),
  )
    .addHelpText(
      'after',
      `
Examples:
  videogen convert 71de0a00-0000-4000-8000-000000000001 --language en --wait
  videogen convert 71de0a00-0000-4000-8000-000000000001 --aspect-ratio 9:16 --download portrait.mp4`,
    )
    .action(async (id: string, opts: ConvertFlags, cmd: Command) => {
      errorContext.videoId = id;
      const { language, aspectRatio } = opts;
      if (language === undefined && aspectRatio === undefined) throw usageError('Give --language, --aspect-ratio, or both.');
      if (language !== undefined && !(LANGUAGES as readonly string[]).includes(language)) {
        throw usageError(`--language ${language} is not a supported language code: use one of ${LANGUAGES.join(', ')} (names: "videogen languages").`);
      }
      if (aspectRatio !== undefined && !(ASPECT_RATIOS as readonly string[]).includes(aspectRatio)) {
        throw usageError(`--aspect-ratio ${aspectRatio} is not supported: use one of ${ASPECT_RATIOS.join(', ')}.`);
      }
      const ctx = createContext(cmd.optsWithGlobals());

      // The allowed targets differ from video to video: read them first, so that the message can
      // list what this video accepts.
      const options = await ctx.client.conversions.get(id);
      const available: string[] = options.available_languages;
      if (!options.is_convertible) {
        throw new CliError(
          `Video ${id} cannot be converted (it has no generated video data, contains a real avatar, or is not completed): convert another video, or generate a new one.`,
          EXIT.INVALID_INPUT,
          'SOURCE_VIDEO_NOT_CONVERTIBLE',
        );
      }
      const sameLanguage = language === undefined || language === options.current_language;
      const sameRatio = aspectRatio === undefined || aspectRatio === options.current_aspect_ratio;
      if (sameLanguage && sameRatio) {
        throw new CliError(
          `Video ${id} is already in ${options.current_language} (${languageName(options.current_language)}) and ${options.current_aspect_ratio}: ` +
            `choose another target; available languages: ${describeLanguages(available)}.`,
          EXIT.INVALID_INPUT,
          'CONVERT_NO_CHANGE',
        );
      }
      if (language !== undefined && !sameLanguage && !available.includes(language)) {
        throw new CliError(
          `Language ${language} (${languageName(language)}) is not available for video ${id} (its voices do not support it): available: ${describeLanguages(available)}.`,
          EXIT.INVALID_INPUT,
          'LANGUAGE_NOT_SUPPORTED_BY_VOICES',
        );
      }
      let created: { video_id: string };
      try {
        created = await ctx.client.convert(id, {
          ...(language !== undefined && { language: language as (typeof LANGUAGES)[number] }),
          ...(aspectRatio !== undefined && { aspect_ratio: aspectRatio as (typeof ASPECT_RATIOS)[number] }),
        });
      } catch (err) {
        throw explainConvertError(err, id, available);
      }
      errorContext.videoId = created.video_id;
      await finish(ctx, created.video_id, opts, { source_video_id: id });
    });
}

/** Add the fix to the conversion codes whose text does not say it (the checks above catch most). */
function explainConvertError(err: unknown, id: string, available: string[]): unknown {
  const code = (err as { error_code?: string })?.error_code;
  const raw = (err as { error?: string })?.error || (err as Error)?.message || '';
  // The client's local checks prefix the code ("CODE: text"); keep only the text.
  const detail = raw.replace(new RegExp(`^${code}:\\s*`), '');
  switch (code) {
    case 'LANGUAGE_NOT_SUPPORTED_BY_VOICES':
      return new CliError(`${detail} (${code}): available for video ${id}: ${describeLanguages(available)}.`, EXIT.INVALID_INPUT, code);
    case 'SOURCE_VIDEO_NOT_CONVERTIBLE':
    case 'UNSUPPORTED_HEAVY_AVATAR':
      return new CliError(`${detail} (${code}): video ${id} cannot be converted; convert another video or generate a new one.`, EXIT.INVALID_INPUT, code);
    case 'CONVERT_NO_CHANGE':
      return new CliError(`${detail} (${code}): choose a language or aspect ratio different from the source video's.`, EXIT.INVALID_INPUT, code);
    default:
      return err;
  }
}
