import { INPUT_MODES } from '@videogen/openapi/rules';
import { answer } from '../answers.js';
import { costOf, PAGE_SIZE } from '../costs.js';
import * as z from 'zod/v4';
import { defineTool } from './tool.js';

export const listVideoSettings = defineTool({
  name: 'list_video_settings',
  title: 'List video settings',
  description: [
    "List the account's video settings. Each has a video_setting_id, a title and request_fields: the inputs generate_video takes with it",
    '([text]: a question or instruction; [pdf_file]: a PDF; [text, pdf_file]: a PDF with an instruction; [text, image_files]: a text with optional images; and so on).',
    'Pick the setting whose request_fields are exactly what the user gives.',
    costOf('listVideoSettings', `per page of ${PAGE_SIZE} settings`),
    'Next: generate_video with the chosen video_setting_id.',
  ].join(' '),
  inputSchema: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(_args, { client, signal }) {
    const settings = [];
    for await (const s of client.settings.list({ signal }))
      settings.push({
        video_setting_id: s.video_setting_id,
        title: s.title,
        request_fields: s.request_fields,
        // The input mode of the interface (4.1) its fields make, when they make one.
        ...modeOf(s.request_fields),
      });
    const lines = settings.map(
      (s) => `- ${s.video_setting_id} "${s.title}": ${s.request_fields.join(' + ')}${s.mode ? ` [${s.mode}]` : ''}`,
    );
    return answer(
      `${settings.length} video setting${settings.length === 1 ? '' : 's'} (id "title": request_fields [input mode]):\n${lines.join('\n')}`,
      { settings },
    );
  },
});

/** The mode of x-valid-combinations whose fields (with its optional ones) are exactly these. */
function modeOf(fields: readonly string[]): { mode?: string } {
  const given = new Set(fields);
  const m = INPUT_MODES.find(
    (x) =>
      x.fields.every((f) => given.has(f)) &&
      [...given].every((f) => ([...x.fields, ...x.optional] as readonly string[]).includes(f)),
  );
  return m ? { mode: m.mode } : {};
}
