import type { Command } from 'commander';
import { createContext, type Invocation, videoIdArgument } from '../context.js';
import { addWaitOptions, describeVideo, waitFor, type WaitFlags } from './shared.js';

export function registerWait(program: Command, invocation: Invocation): void {
  addWaitOptions(
    program
      .command('wait')
      .argument('<id>', 'video id')
      .description('Poll a video until it is completed (exit 6 if it fails or expires, 7 on --timeout).'),
  ).action(async (id: string, opts: WaitFlags) => {
    videoIdArgument(id);
    invocation.facts.videoId = id;
    const ctx = await createContext(invocation);
    const video = await waitFor(ctx, id, opts);
    ctx.out.result(video, () => describeVideo(video));
  });
}
