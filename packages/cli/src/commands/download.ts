import type { Command } from 'commander';
import { createContext, type Invocation, videoIdArgument } from '../context.js';
import { addWaitOptions, describeVideo, downloadTo, waitFor, type WaitFlags } from './shared.js';

export function registerDownload(program: Command, invocation: Invocation): void {
  addWaitOptions(
    program
      .command('download')
      .argument('<id>', 'id of a completed video')
      .argument('<out>', 'file to write (an existing directory gets <id>.mp4)')
      .description('Download a completed video to a file (the temporary URL is read fresh each time).')
      .option('--wait', 'wait for the video to complete first'),
  ).action(async (id: string, out: string, opts: WaitFlags & { wait?: boolean }) => {
    videoIdArgument(id);
    invocation.facts.videoId = id;
    const ctx = await createContext(invocation);
    if (opts.wait) await waitFor(ctx, id, opts);
    const saved = await downloadTo(ctx, id, out);
    ctx.out.result({ video_id: id, ...saved }, () => describeVideo({ video_id: id, ...saved }));
  });
}
