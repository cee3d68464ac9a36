// The sample flow with the client that orval generated into ./generated/videogen.ts (its `fetch` client, one
// file), which sends every request through the mutator ./orval-fetch.ts (base URL and key).
import * as sdk from './generated/videogen.js';
import type { Language } from './generated/videogen.js';
import { main, type Api, type Reply } from './sample-flow.js';

/** orval answers `{ data, status, headers }`, `data` typed per status: the body on 200, the error otherwise. */
function reply<R extends { status: number; data: unknown; headers: Headers }>(
  result: R,
): Reply<Extract<R, { status: 200 }>['data'], Exclude<R, { status: 200 }>['data']> {
  return result.status === 200
    ? { status: 200, data: result.data as Extract<R, { status: 200 }>['data'], headers: result.headers }
    : { status: result.status, error: result.data as Exclude<R, { status: 200 }>['data'], headers: result.headers };
}

const api: Api<Language> = {
  listVideoSettings: async () => reply(await sdk.listVideoSettings()),
  generateVideo: async (form) => reply(await sdk.generateVideo(form)),
  getVideo: async (videoId) => reply(await sdk.getVideo(videoId)),
  getConversionOptions: async (videoId) => reply(await sdk.getConversionOptions(videoId)),
  createConversion: async (videoId, language) => reply(await sdk.createConversion(videoId, { language })),
};

await main(api, 'fr');
