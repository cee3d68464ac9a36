import type { Command } from 'commander';
import { createContext, errorContext, videoIdArgument } from '../context.js';
import { addWaitOptions, describeVideo, waitFor, type WaitFlags } from './shared.js';

export function registerWait(program: Command): void {
  addWaitOptions(
    program
      .command('wait')
      .argument('<id>', 'video id')
      .description('Poll a video until it is completed (exit 6 if it fails or expires, 7 on --timeout).'),
  ).action(async (id: string, opts: WaitFlags, cmd: Command) => {
    videoIdArgument(id);
    errorContext.videoId = id;
    const ctx = createContext(cmd.optsWithGlobals());
    const video = await waitFor(ctx, id, opts);
    ctx.out.result(video, () => describeVideo(video));
  });
}
