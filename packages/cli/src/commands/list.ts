import type { VideoListItem } from '@videogen/client';
import { InvalidArgumentError, type Command } from 'commander';
import { createContext, type Invocation } from '../context.js';
import { table } from '../output.js';
import { PAGE_SIZE } from '@videogen/openapi/rules';

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('Give an integer of at least 1.');
  return n;
};

export function registerList(program: Command, invocation: Invocation): void {
  program
    .command('list')
    .description(
      `List your videos, in the order the service returns them: one page of ${PAGE_SIZE}, or every page with --all.`,
    )
    .option('--all', 'fetch every page')
    .option('--page <n>', 'the page to show (starts at 1)', positiveInt, 1)
    .action(async (opts: { all?: boolean; page: number }) => {
      const ctx = await createContext(invocation);
      const videos: VideoListItem[] = [];
      let hint = '';
      if (opts.all) {
        for await (const v of ctx.client.videos.list()) videos.push(v);
      } else {
        // One request: the envelope says whether more pages exist.
        for await (const page of ctx.client.videos.list({ page: opts.page }).pages()) {
          videos.push(...page.results);
          if (page.has_next) {
            hint = `Page ${page.page} (${videos.length} of ${page.total_count} videos): pass --page ${page.page + 1} for the next, or --all.`;
          }
        }
      }
      ctx.out.result(videos, () =>
        videos.length
          ? table(
              ['VIDEO_ID', 'CREATED_AT', 'PROMPT'],
              videos.map((v) => [v.video_id, v.created_at, v.prompt.replace(/\s+/g, ' ')]),
            )
          : opts.page > 1
            ? `No videos on page ${opts.page}.`
            : 'No videos yet.',
      );
      if (hint) ctx.progress.info(hint);
    });
}
