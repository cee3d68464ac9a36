import type { GenerateInput } from '@videogen/client';
import { formProblem, GENERATE_FIELDS, INPUT_MODES, type Plan, UPLOAD_LIMITS } from '@videogen/openapi/rules';
import * as z from 'zod/v4';
import { answer, ToolProblem } from '../answers.js';
import { costOf } from '../costs.js';
import { type FileField, FileInputs, fieldLimits } from '../file-inputs.js';
import { ensureFreeSlot } from '../slots.js';
import { videoId } from '../tool-kit.js';
import { defineTool } from './tool.js';

const FILE_FIELDS = GENERATE_FIELDS.filter((f): f is FileField => f in UPLOAD_LIMITS);

/** What each file field holds, for its description (the formats and sizes come from the document). */
const FILE_WHAT: Record<FileField, string> = {
  pdf_file: 'A PDF document',
  pptx_file: 'A PowerPoint document',
  audio_file: 'An audio file',
  video_file: 'A video file',
  image_files: 'Images to go with the text',
};

/** "text + image_files (optional)" for each valid combination (x-valid-combinations), with its mode. */
const COMBINATIONS = INPUT_MODES.map(
  (m) => `${m.fields.join(' + ')}${m.optional.length ? ` (optionally + ${m.optional.join(', ')})` : ''} [${m.mode}]`,
).join('; ');

function fileDescription(field: FileField, plan: Plan): string {
  const { extensions, maxBytes } = fieldLimits(field, plan);
  const max = `${maxBytes / 1_000_000} MB`;
  const each = 'maxItems' in UPLOAD_LIMITS[field] ? ` each, at most ${UPLOAD_LIMITS.image_files.maxItems}` : '';
  return `${FILE_WHAT[field]} (${extensions.join(', ')}; ${max}${each} on the ${plan} plan): an absolute local path (or ~/...) or an https URL.`;
}

/** The tool for a plan: its file fields state that plan's formats and sizes. */
export function generateVideo(plan: Plan) {
  const file = (field: FileField) => z.string().min(1).optional().describe(fileDescription(field, plan));
  return defineTool({
    name: 'generate_video',
    title: 'Generate a video',
    description: [
      'Start generating a new video from a question or instruction, a document, an audio file or a video file, with a video setting.',
      'Answers at once with the new video_id (status running); the video takes minutes.',
      `Give video_setting_id and exactly one input combination: ${COMBINATIONS};`,
      "and exactly the setting's request_fields (list_video_settings shows them). Files: an absolute local path or an https URL.",
      costOf('generateVideo'),
      'When every running slot is busy it says so, names the running videos, and sends nothing.',
      'Next: wait_for_video with the video_id.',
    ].join(' '),
    inputSchema: z.object({
      video_setting_id: videoId('The video setting to use (list_video_settings).'),
      text: z
        .string()
        .min(1)
        .optional()
        .describe('The question or instruction (question/instruction mode), or the instruction for a PDF.'),
      pdf_file: file('pdf_file'),
      pptx_file: file('pptx_file'),
      audio_file: file('audio_file'),
      video_file: file('video_file'),
      image_files: z
        .array(z.string().min(1))
        .max(UPLOAD_LIMITS.image_files.maxItems)
        .optional()
        .describe(fileDescription('image_files', plan)),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(args, { client, session, signal }) {
      const given = GENERATE_FIELDS.filter((f) => {
        const v = args[f];
        return Array.isArray(v) ? v.length > 0 : v !== undefined;
      });
      const form = formProblem(given);
      if (form)
        throw new ToolProblem('INVALID_REQUEST', form.message, `give exactly one input combination: ${COMBINATIONS}.`);
      const setting = await client.settings.find(args.video_setting_id, { signal });
      if (!setting)
        throw new ToolProblem(
          'INVALID_VIDEO_SETTING',
          `Video setting ${args.video_setting_id} is not one of the account's settings.`,
          'pick a video_setting_id from list_video_settings.',
        );
      const fits = formProblem(given, setting.request_fields);
      if (fits)
        throw new ToolProblem(
          'INVALID_VIDEO_SETTING',
          `${fits.message} (setting "${setting.title}", request_fields ${setting.request_fields.join(' + ')}; you gave ${given.join(' + ')}).`,
          `give exactly ${setting.request_fields.join(' + ')}, or pick another setting from list_video_settings.`,
        );
      await ensureFreeSlot(client, signal);

      const files = new FileInputs(session.plan, {
        localFiles: session.localFiles,
        allowHttpHosts: session.allowHttpHosts,
        signal,
      });
      try {
        const input: GenerateInput = { video_setting_id: args.video_setting_id };
        if (args.text !== undefined) input.text = args.text;
        for (const field of FILE_FIELDS) {
          if (field === 'image_files') continue;
          const value = args[field];
          if (value !== undefined) input[field] = await files.resolve(field, value);
        }
        if (args.image_files?.length)
          input.image_files = await Promise.all(args.image_files.map((v) => files.resolve('image_files', v)));
        const { video_id } = await client.videos.generate(input, { setting, signal });
        const mode = INPUT_MODES.find((m) => !formProblem(given, [...m.fields, ...m.optional]))?.mode;
        return answer(
          `Started video ${video_id} (running) with setting "${setting.title}"${mode ? ` in the ${mode} mode` : ''}. It takes minutes. Next: wait_for_video with video_id ${video_id}.`,
          {
            video_id,
            status: 'running',
            video_setting_id: setting.video_setting_id,
            ...(mode && { mode }),
            next: { tool: 'wait_for_video', arguments: { video_id } },
          },
        );
      } finally {
        await files.close();
      }
    },
  });
}
