import { answer } from '../answers.js';
import { costOf, PAGE_SIZE } from '../costs.js';
import * as z from 'zod/v4';
import { defineTool } from './tool.js';

export const listVideos = defineTool({
  name: 'list_videos',
  title: 'List videos',
  description: [
    `List the account's videos, ${PAGE_SIZE} per page: video_id, created_at and prompt (the order is the service's).`,
    'Use it to find an earlier video, or to see whether a start whose answer was lost made one.',
    costOf('listVideos', 'per page'),
    "Next: wait_for_video to read a video's status and download address; get_conversion_options to convert one.",
  ].join(' '),
  inputSchema: z.object({
    page: z.number().int().min(1).optional().describe('Page number, from 1 (default 1).'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ page = 1 }, { client, signal }) {
    const p = await client.videos.list({ page, signal });
    const lines = p.results.map((v) => `- ${v.video_id} ${v.created_at} ${JSON.stringify(v.prompt)}`);
    const more = p.has_next ? ` More on page ${p.page + 1}.` : '';
    return answer(
      `Page ${p.page}: ${p.results.length} of ${p.total_count} videos (video_id created_at "prompt"):\n${lines.join('\n')}${more}`,
      { page: p.page, has_next: p.has_next, total_count: p.total_count, videos: p.results },
    );
  },
});
