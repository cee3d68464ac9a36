import { ASPECT_RATIOS, conversionProblem, LANGUAGES, type AspectRatio, type Language } from '@videogen/openapi/rules';
import type { Command } from 'commander';
import { createContext, type Invocation, videoIdArgument } from '../context.js';
import { CliError } from '../errors.js';
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

export function registerConvert(program: Command, invocation: Invocation): void {
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
    .action(async (id: string, opts: ConvertFlags) => {
      videoIdArgument(id);
      invocation.facts.videoId = id;
      const { language, aspectRatio } = opts;
      const target = {
        ...(language !== undefined && { language: language as Language }),
        ...(aspectRatio !== undefined && { aspect_ratio: aspectRatio as AspectRatio }),
      };
      // The rows of 7.2 that need no source, with the flags' names (the shared rule decides).
      const early = conversionProblem(target);
      // The error code is the one the service would answer, so that scripts see the same code either way.
      const invalid = (message: string) => new CliError(message, EXIT.INVALID_INPUT, early?.error_code);
      if (early?.kind === 'target_required') throw invalid('Give --language, --aspect-ratio, or both.');
      if (early?.kind === 'invalid_language') {
        throw invalid(
          `--language ${language} is not a supported language code: use one of ${LANGUAGES.join(', ')} (names: "videogen languages").`,
        );
      }
      if (early?.kind === 'invalid_aspect_ratio')
        throw invalid(`--aspect-ratio ${aspectRatio} is not supported: use one of ${ASPECT_RATIOS.join(', ')}.`);
      const ctx = await createContext(invocation);

      // The allowed targets differ from video to video: read them once, so that the message can list
      // what this video accepts; the client is handed them and does not read them again.
      const options = await ctx.client.conversions.get(id);
      const available: string[] = options.available_languages;
      const problem = conversionProblem(target, options);
      if (problem?.kind === 'no_change') {
        throw new CliError(
          `Video ${id} is already in ${options.current_language} (${languageName(options.current_language)}) and ${options.current_aspect_ratio}: ` +
            `choose another target; available languages: ${describeLanguages(available)}.`,
          EXIT.INVALID_INPUT,
          problem.error_code,
        );
      }
      if (problem?.kind === 'language_not_available' && language !== undefined) {
        throw new CliError(
          `Language ${language} (${languageName(language)}) is not available for video ${id} (its voices do not support it): available: ${describeLanguages(available)}.`,
          EXIT.INVALID_INPUT,
          problem.error_code,
        );
      }
      // kind 'not_convertible': is_convertible is false, and only the service knows why (no video data,
      // or a real avatar): the request is sent and its answer's code is reported, never a guess.
      let created: { video_id: string };
      try {
        created = await ctx.client.convert(id, target, { conversionOptions: options });
      } catch (err) {
        throw explainConvertError(err, id, available);
      }
      ctx.facts.videoId = created.video_id;
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
      return new CliError(
        `${detail} (${code}): available for video ${id}: ${describeLanguages(available)}.`,
        EXIT.INVALID_INPUT,
        code,
      );
    case 'SOURCE_VIDEO_NOT_CONVERTIBLE':
    case 'UNSUPPORTED_HEAVY_AVATAR':
      return new CliError(
        `Video ${id} cannot be converted (${detail.replace(/\.$/, '')}; ${code}): convert another video, or generate a new one.`,
        EXIT.INVALID_INPUT,
        code,
      );
    case 'CONVERT_NO_CHANGE':
      return new CliError(
        `${detail} (${code}): choose a language or aspect ratio different from the source video's.`,
        EXIT.INVALID_INPUT,
        code,
      );
    default:
      return err;
  }
}
