import type { Command } from 'commander';
import { createContext, errorContext, videoIdArgument } from '../context.js';
import { describeVideo, type VideoView } from './shared.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .argument('<id>', 'video id')
    .description("Show a video's status and, when completed, its temporary download URL.")
    .action(async (id: string, _opts, cmd: Command) => {
      videoIdArgument(id);
      errorContext.videoId = id;
      const ctx = createContext(cmd.optsWithGlobals());
      const video = (await ctx.client.videos.get(id)) as VideoView;
      ctx.out.result(video, () => describeVideo(video));
    });
}
