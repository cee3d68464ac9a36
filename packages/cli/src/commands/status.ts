import type { Command } from 'commander';
import { createContext, type Invocation, videoIdArgument } from '../context.js';
import { describeVideo } from './shared.js';

export function registerStatus(program: Command, invocation: Invocation): void {
  program
    .command('status')
    .argument('<id>', 'video id')
    .description("Show a video's status and, when completed, its temporary download URL.")
    .action(async (id: string) => {
      videoIdArgument(id);
      invocation.facts.videoId = id;
      const ctx = await createContext(invocation);
      const video = await ctx.client.videos.get(id);
      ctx.out.result(video, () => describeVideo(video));
    });
}
