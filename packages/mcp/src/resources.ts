// The resources a host can attach for a model: a video's download address with its expiry, the settings
// list, the account's pacing schedule, and the docs as plain text (llms.txt, llms-full.txt, built by
// packages/docs and shipped in this package).
import { readFile } from 'node:fs/promises';
import { type McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate } from '@modelcontextprotocol/server';
import { pathParameterProblem } from '@videogen/openapi/rules';
import { downloadUri, downloadView, expiryPhrase } from './download-view.js';
import type { Session } from './options.js';
import { describeFailure } from './tool-errors.js';

/** The docs' text files, beside the bundle (dist/docs/, from src/ or dist/ alike). */
const docsFile = (name: string) => new URL(`../dist/docs/${name}`, import.meta.url);

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

/** A failure of the service while reading a resource: a protocol error carrying the tool error's body. */
async function reading<T>(session: Session, videoId: string | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const body = describeFailure(err, { videoId, baseUrl: session.baseUrl });
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${body.error_code}: ${body.error} Fix: ${body.fix}`,
      body,
    );
  }
}

export function registerResources(server: McpServer, session: Session): void {
  server.registerResource(
    'video-download',
    new ResourceTemplate('videogen://videos/{video_id}/download', {
      // The first page of the account's videos (one class B request), so that a host can offer them;
      // nothing when the service cannot be read (the other resources stay listed).
      list: async () => {
        try {
          const page = await session.client().videos.list({ page: 1 });
          return {
            resources: page.results.map((v) => ({
              uri: downloadUri(v.video_id),
              name: `video ${v.video_id}`,
              title: v.prompt.length > 80 ? `${v.prompt.slice(0, 79)}…` : v.prompt || `video ${v.video_id}`,
              description: `Created ${v.created_at}. Reading it reads the status and, when completed, the download address.`,
              mimeType: 'application/json',
            })),
          };
        } catch {
          return { resources: [] };
        }
      },
    }),
    {
      title: "A video's download address",
      description:
        "A completed video's temporary download address (download_url), when it was read and when it expires as the address states; the status of a video that is not completed. Reading it reads the video's status (one class B request): each read gives a fresh address.",
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const id = String(variables.video_id);
      const problem = pathParameterProblem('video_id', id);
      if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri.href}: ${problem}`);
      const video = await reading(session, id, () => session.client().videos.get(id));
      const view = downloadView(video);
      const note =
        video.status === 'completed'
          ? expiryPhrase(view)
          : `Video ${id} is ${video.status}: ${video.status === 'running' ? 'no address yet; wait_for_video tells when it is completed' : 'there is nothing to download'}.`;
      return json(uri, { ...view, note });
    },
  );

  server.registerResource(
    'video-settings',
    'videogen://video-settings',
    {
      title: 'Video settings',
      description:
        "The account's video settings: id, title and request_fields (the inputs generate_video takes with each). One class B request per page.",
      mimeType: 'application/json',
    },
    async (uri) => {
      const settings = await reading(session, undefined, async () => {
        const all = [];
        for await (const s of session.client().settings.list()) all.push(s);
        return all;
      });
      return json(uri, { settings });
    },
  );

  server.registerResource(
    'pacing-schedule',
    'videogen://account/schedule',
    {
      title: "The account's pacing schedule",
      description:
        "Requests in flight and the server's waits per rate class, the videos holding the account's running slots, and how many processes share the schedule (VIDEO_API_PACING_URL). Sends no request to the service.",
      mimeType: 'application/json',
    },
    async (uri) => json(uri, await reading(session, undefined, () => session.client().schedule())),
  );

  for (const [name, file, description] of [
    ['llms.txt', 'llms.txt', "The docs' index for assistants (llmstxt.org): the guides and operations, one line each."],
    ['llms-full.txt', 'llms-full.txt', 'The guides and the API reference as one Markdown text, with code samples.'],
  ] as const)
    server.registerResource(
      name,
      `videogen://docs/${file}`,
      { title: `Docs: ${name}`, description, mimeType: 'text/markdown' },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await readFile(docsFile(file), 'utf8') }],
      }),
    );
}
