import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { POLLING } from '@videogen/openapi/rules';
import type { Command } from 'commander';
import type { Video } from '@videogen/client';
import { parseSeconds, type Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { interruptible } from '../interrupt.js';
import { formatBytes, formatDuration } from '../progress.js';

/** The spec's polling rule (x-polling on getVideo), in the seconds the flags take. */
export const DEFAULT_INTERVAL_S = POLLING.intervalMs / 1000;
export const DEFAULT_TIMEOUT_S = POLLING.timeoutMs / 1000;

export interface WaitFlags {
  /** Seconds; absent: the interface's 10 s, or the target's own pace (a time-scaled sandbox says it runs faster). */
  interval?: number;
  timeout: number;
}

export function addWaitOptions(cmd: Command): Command {
  return cmd
    .option(
      '--interval <seconds>',
      `seconds between status checks (default ${DEFAULT_INTERVAL_S}; against a sandbox started with --time-scale N, ${DEFAULT_INTERVAL_S}/N)`,
      parseSeconds('--interval'),
    )
    .option(
      '--timeout <seconds>',
      'give up waiting after this many seconds',
      parseSeconds('--timeout'),
      DEFAULT_TIMEOUT_S,
    );
}

/** A video as a command prints it: its status view, or what a create knows of it before the first read. */
export type VideoView = Pick<Video, 'video_id' | 'status'> & Partial<Pick<Video, 'download_url' | 'copyright'>>;

/** Poll until the video is completed, with a spinner; throws (exit 6/7) when it fails, expires or times out. */
export async function waitFor(ctx: Context, videoId: string, flags: WaitFlags): Promise<Video> {
  Object.assign(ctx.facts, { videoId, timeoutSeconds: flags.timeout });
  const started = Date.now();
  const spinner = ctx.progress.wait(videoId);
  try {
    const video = await ctx.client.waitForVideo(videoId, {
      ...(flags.interval !== undefined && { intervalMs: flags.interval * 1000 }),
      timeoutMs: flags.timeout * 1000,
      onProgress: (v, info) => spinner.update(v.status, info.elapsedMs),
    });
    // The client throws on failed/expired; check anyway so that a terminal state never exits 0.
    if (video.status !== 'completed') {
      throw new CliError(
        `Video ${videoId} ended ${video.status}: nothing to download; check the input and generate again.`,
        EXIT.VIDEO_FAILED,
        `VIDEO_${video.status.toUpperCase()}`,
      );
    }
    spinner.done(`Video ${videoId} completed in ${formatDuration(Date.now() - started)}`, true);
    return video;
  } catch (err) {
    spinner.done(`Video ${videoId}: not completed after ${formatDuration(Date.now() - started)}`, false);
    throw err;
  }
}

/**
 * OUT may be a directory: the file is then named after the video. A path that ends with a slash names a
 * directory even before it exists (`./videos/`): it is made, as `curl --create-dirs` and `wget -P` do.
 */
export async function resolveOut(out: string, videoId: string): Promise<string> {
  if (/[\\/]$/.test(out)) await mkdir(out, { recursive: true });
  const info = await stat(out).catch(() => undefined);
  return info?.isDirectory() ? join(out, `${videoId}.mp4`) : out;
}

export async function downloadTo(ctx: Context, videoId: string, out: string): Promise<{ path: string; bytes: number }> {
  ctx.facts.videoId = videoId;
  const path = await resolveOut(out, videoId);
  const bar = ctx.progress.transfer('Downloading', path);
  ctx.facts.downloading = path;
  try {
    // A signal stops the download; the client removes its temporary file before the process exits.
    const saved = await interruptible((signal) =>
      ctx.client.download(videoId, path, {
        signal,
        // A video on a slow link keeps moving: bounded as a whole only when --body-deadline is given.
        ...(ctx.bodyDeadlineMs !== undefined && { bodyDeadlineMs: ctx.bodyDeadlineMs }),
        onProgress: ({ loaded, total }) => bar.update(loaded, total),
      }),
    );
    bar.done();
    return saved;
  } catch (err) {
    bar.fail();
    throw err;
  }
}

/** Key/value lines for a person. */
export function describeVideo(
  video: Partial<VideoView> & { path?: string; bytes?: number; source_video_id?: string },
): string {
  const rows: [string, string][] = [];
  if (video.source_video_id) rows.push(['source_video_id', video.source_video_id]);
  if (video.video_id) rows.push(['video_id', video.video_id]);
  if (video.status) rows.push(['status', video.status]);
  if (video.download_url) rows.push(['download_url', video.download_url]);
  if (video.copyright?.length)
    rows.push(['copyright', video.copyright.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join('; ')]);
  if (video.path) rows.push(['file', `${video.path} (${formatBytes(video.bytes ?? 0)})`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
