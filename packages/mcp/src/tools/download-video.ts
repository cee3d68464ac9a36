import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import * as z from 'zod/v4';
import { answer, ToolProblem } from '../answers.js';
import { costOf } from '../costs.js';
import { videoId } from '../tool-kit.js';
import { defineTool } from './tool.js';

export const downloadVideo = defineTool({
  name: 'download_video',
  title: 'Save a video to a file',
  description: [
    'Save a completed video as an MP4 file on the machine this server runs on.',
    'path: an absolute file path, or an existing directory (the file is then named <video_id>.mp4); an existing file is not replaced unless overwrite is true.',
    'The file appears whole or not at all.',
    `${costOf('getVideo')} Then the download from the storage host, which is not the API (no rate class).`,
    'Next: tell the user where the file is.',
  ].join(' '),
  inputSchema: z.object({
    video_id: videoId('The completed video.'),
    path: z.string().min(1).describe('An absolute file path (or ~/...), or an existing directory.'),
    overwrite: z.boolean().optional().describe('Replace an existing file (default false).'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ video_id, path, overwrite }, { client, session, signal, progress, about }) {
    about.videoId = video_id;
    if (!session.localFiles)
      throw new ToolProblem(
        'LOCAL_FILES_REFUSED',
        'This server does not write local files (it was started with local files off).',
        'read the download resource (videogen://videos/{video_id}/download) for the address instead.',
      );
    const expanded = path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
    if (!isAbsolute(expanded))
      throw new ToolProblem(
        'INVALID_PATH',
        `"${path}" is a relative path, and this server's working directory is not yours.`,
        'give an absolute path (or ~/...).',
      );
    const info = await stat(expanded).catch(() => undefined);
    const target = info?.isDirectory() ? join(expanded, `${video_id}.mp4`) : expanded;
    if (!(await stat(dirname(target)).catch(() => undefined))?.isDirectory())
      throw new ToolProblem(
        'INVALID_PATH',
        `The directory ${dirname(target)} does not exist.`,
        'give a path in an existing directory (this server creates no directories).',
      );
    if (!overwrite && (info?.isDirectory() ? await stat(target).catch(() => undefined) : info))
      throw new ToolProblem(
        'FILE_EXISTS',
        `${target} exists already.`,
        'give another path, or overwrite: true to replace it.',
      );
    const saved = await client.download(video_id, target, {
      signal,
      onProgress: ({ loaded, total }) =>
        void progress(loaded, total, `Saving video ${video_id}: ${loaded}${total ? ` of ${total}` : ''} bytes.`),
    });
    return answer(`Saved video ${video_id} to ${saved.path} (${saved.bytes} bytes).`, {
      video_id,
      path: saved.path,
      bytes: saved.bytes,
    });
  },
});
