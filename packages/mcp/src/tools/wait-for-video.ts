import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { costOf, MAX_WAIT_SECONDS, POLL_SECONDS } from '../costs.js';
import { downloadView, expiryPhrase } from '../download-view.js';
import { waitForVideo } from '../polling.js';
import { videoId } from '../tool-kit.js';
import { defineTool } from './tool.js';

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The tool, with the server's default bound (seconds) in its description. */
export function waitForVideoTool(defaultWaitSeconds: number) {
  return defineTool({
    name: 'wait_for_video',
    title: 'Wait for a video',
    description: [
      `Wait until a video is completed, failed or expired, reading its status every ${POLL_SECONDS} s (the interface's polling interval, never faster)`,
      'and sending progress notifications when the caller asks for them (a progressToken).',
      `It answers within timeout_seconds (default ${defaultWaitSeconds}, at most ${MAX_WAIT_SECONDS}): when the video is still running then, it says so and you call it again.`,
      "When completed: the temporary download_url with its expiry, and the video's download resource. timeout_seconds 0 reads the status once.",
      costOf('getVideo', 'per status read'),
      'Next: download_video to save the file, or get_conversion_options / convert_video to convert it.',
    ].join(' '),
    inputSchema: z.object({
      video_id: videoId('The video to wait for (from generate_video, convert_video or list_videos).'),
      timeout_seconds: z
        .number()
        .min(0)
        .max(MAX_WAIT_SECONDS)
        .optional()
        .describe(`The longest this call waits, in seconds (default ${defaultWaitSeconds}).`),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    async run({ video_id, timeout_seconds }, { client, signal, progress, about }): Promise<CallToolResult> {
      about.videoId = video_id;
      const boundMs = (timeout_seconds ?? defaultWaitSeconds) * 1000;
      const total = seconds(boundMs);
      const outcome = await waitForVideo(client, video_id, {
        boundMs,
        signal,
        onRunning: (_video, elapsedMs, nextInMs) =>
          progress(
            seconds(elapsedMs),
            total,
            `Video ${video_id} is running (${seconds(elapsedMs)} s waited); next status read in ${seconds(nextInMs)} s.`,
          ),
      });
      const view = downloadView(outcome.video);
      const waited = { waited_seconds: seconds(outcome.elapsedMs), status_reads: outcome.checks };
      switch (outcome.video.status) {
        case 'completed':
          return {
            content: [
              {
                type: 'text',
                text: `Video ${video_id} is completed. Download address: ${view.download_url} . ${expiryPhrase(view)} Next: download_video to save it, or convert_video.`,
              },
              {
                type: 'resource_link',
                uri: view.resource_uri,
                name: `video ${video_id} download`,
                mimeType: 'application/json',
                description:
                  "The completed video's download address and its expiry (read it again for a fresh address).",
              },
            ],
            structuredContent: { ...view, ...waited },
          };
        case 'running':
          return {
            content: [
              {
                type: 'text',
                text: `Video ${video_id} is still running after ${waited.waited_seconds} s. Next: call wait_for_video again with video_id ${video_id}.`,
              },
            ],
            structuredContent: {
              video_id,
              status: 'running',
              ...waited,
              next: { tool: 'wait_for_video', arguments: { video_id } },
            },
          };
        default:
          // failed or expired (the client refuses a status the interface does not list).
          return {
            content: [
              {
                type: 'text',
                text: `Video ${video_id} is ${outcome.video.status}: there is nothing to download. ${outcome.video.status === 'failed' ? 'Check the input (setting, text, files) and' : 'To have it again,'} call generate_video again.`,
              },
            ],
            structuredContent: { video_id, status: outcome.video.status, ...waited },
          };
      }
    },
  });
}
