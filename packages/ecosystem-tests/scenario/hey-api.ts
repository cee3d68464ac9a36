// The sample flow with the client that @hey-api/openapi-ts generated into ./generated/ (the fetch client,
// its default): one client instance with the base URL and the key, the SDK's functions as generated.
import { createClient } from './generated/client/index.js';
import * as sdk from './generated/sdk.gen.js';
import type { Language } from './generated/types.gen.js';
import { main, type Api, type Reply } from './sample-flow.js';

const client = createClient({ baseUrl: process.env.VIDEO_API_BASE_URL, auth: () => process.env.VIDEO_API_KEY });

/** hey-api answers `{ data, error, response }` (its default `responseStyle: 'fields'`, no throw); no response when fetch failed. */
function reply<T, E>(result: { data?: T; error?: E; response?: Response }): Reply<T, E> {
  if (!result.response) throw new Error(`no response: ${String(result.error)}`);
  return { status: result.response.status, data: result.data, error: result.error, headers: result.response.headers };
}

const api: Api<Language> = {
  listVideoSettings: async () => reply(await sdk.listVideoSettings({ client })),
  generateVideo: async (form) => reply(await sdk.generateVideo({ client, body: form })),
  getVideo: async (video_id) => reply(await sdk.getVideo({ client, path: { video_id } })),
  getConversionOptions: async (video_id) => reply(await sdk.getConversionOptions({ client, path: { video_id } })),
  createConversion: async (video_id, language) =>
    reply(await sdk.createConversion({ client, path: { video_id }, body: { language } })),
};

await main(api, 'fr');
