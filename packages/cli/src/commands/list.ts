import type { Command } from 'commander';
import type { VideoListItem } from '@videogen/client';
import { createContext } from '../context.js';
import { table } from '../output.js';

const PAGE_SIZE = 50;

export function registerList(program: Command): void {
  program
    .command('list')
    .description('List your videos, newest first as the service returns them (first 50; --all for every page).')
    .option('--all', 'fetch every page, not just the first 50 videos')
    .action(async (opts: { all?: boolean }, cmd: Command) => {
      const ctx = createContext(cmd.optsWithGlobals());
      const videos: VideoListItem[] = [];
      let more = false;
      for await (const v of ctx.client.videos.list()) {
        // One item beyond the first page tells us whether to hint at --all.
        if (!opts.all && videos.length === PAGE_SIZE) {
          more = true;
          break;
        }
        videos.push(v);
      }
      ctx.out.result(videos, () =>
        videos.length
          ? table(['VIDEO_ID', 'CREATED_AT', 'PROMPT'], videos.map((v) => [v.video_id, v.created_at, v.prompt.replace(/\s+/g, ' ')]))
          : 'No videos yet.',
      );
      if (more) ctx.progress.info(`Showing the first ${PAGE_SIZE} videos: pass --all to list every page.`);
    });
}
