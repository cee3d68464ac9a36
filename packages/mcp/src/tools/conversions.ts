import { ASPECT_RATIOS, conversionProblem, LANGUAGE_NAMES, LANGUAGES } from '@videogen/openapi/rules';
import * as z from 'zod/v4';
import { answer } from '../answers.js';
import { costOf, operation, rateClassPhrase } from '../costs.js';
import { ensureFreeSlot } from '../slots.js';
import { videoId } from '../tool-kit.js';
import { defineTool } from './tool.js';

const LANGUAGE_LIST = LANGUAGES.map((code) => `${code} (${LANGUAGE_NAMES[code]})`).join(', ');

export const getConversionOptions = defineTool({
  name: 'get_conversion_options',
  title: 'Read conversion options',
  description: [
    'Read whether a completed video can be converted, its current language and aspect ratio, and the languages and aspect ratios it can be converted to (available_languages differs from video to video: its voices decide).',
    costOf('getConversionOptions'),
    'Next: convert_video with a language from available_languages and/or an aspect ratio from available_aspect_ratios.',
  ].join(' '),
  inputSchema: z.object({ video_id: videoId('The completed video to convert.') }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ video_id }, { client, signal, about }) {
    about.videoId = video_id;
    const o = await client.conversions.get(video_id, { signal });
    const text = o.is_convertible
      ? `Video ${video_id} can be converted. Now: ${o.current_language}, ${o.current_aspect_ratio}. Languages: ${o.available_languages.join(', ') || 'none'}. Aspect ratios: ${o.available_aspect_ratios.join(', ')}. Next: convert_video.`
      : `Video ${video_id} cannot be converted (no generated video data, a real avatar, or it is not completed). Now: ${o.current_language}, ${o.current_aspect_ratio}.`;
    return answer(text, { video_id, ...o });
  },
});

export const convertVideo = defineTool({
  name: 'convert_video',
  title: 'Convert a video',
  description: [
    'Start converting a completed video into a NEW video in another language, another aspect ratio, or both; the source video is unchanged.',
    "It reads the video's conversion options first and refuses with the service's error code, without sending the conversion, when they rule the target out (a language its voices lack, no change); for a video that cannot be converted, the service's answer gives the reason.",
    'Answers at once with the new video_id (status running).',
    `${costOf('createConversion')} Before it, one ${rateClassPhrase(operation('getConversionOptions').rateClass)} read of the options.`,
    'When every running slot is busy it says so and sends nothing.',
    'Next: wait_for_video with the new video_id.',
  ].join(' '),
  inputSchema: z.object({
    video_id: videoId('The completed source video.'),
    language: z
      .enum(LANGUAGES)
      .optional()
      .describe(`Target language code, different from the current one: ${LANGUAGE_LIST}.`),
    aspect_ratio: z.enum(ASPECT_RATIOS).optional().describe('Target aspect ratio, different from the current one.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ video_id, language, aspect_ratio }, { client, signal, about }) {
    about.videoId = video_id;
    const target = { ...(language && { language }), ...(aspect_ratio && { aspect_ratio }) };
    const options = await client.conversions.get(video_id, { signal });
    // A target the options refuse is refused by the client without sending (its 7.2 code); only a
    // conversion that may run asks for a slot.
    if (!conversionProblem(target, options)?.error_code) await ensureFreeSlot(client, signal);
    const created = await client.convert(video_id, target, { conversionOptions: options, signal });
    const into = [language && `language ${language}`, aspect_ratio && `aspect ratio ${aspect_ratio}`]
      .filter(Boolean)
      .join(' and ');
    return answer(
      `Started video ${created.video_id} (running): ${video_id} converted to ${into}. It takes minutes. Next: wait_for_video with video_id ${created.video_id}.`,
      {
        video_id: created.video_id,
        source_video_id: video_id,
        status: 'running',
        ...target,
        next: { tool: 'wait_for_video', arguments: { video_id: created.video_id } },
      },
    );
  },
});
