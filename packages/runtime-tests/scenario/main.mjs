// Entry for Node, Bun and Deno: imports the client as a user does, runs the session and prints
// one JSON line. The key comes from VIDEO_API_KEY (the client's default), the settings from argv.
import * as lib from '@videogen/client';
import { session } from './session.mjs';

const [textSetting, pdfSetting, missingId, downloadPath] = process.argv.slice(2);
const client = lib.createClient({ baseUrl: process.env.VIDEO_API_BASE_URL });
const out = await session(client, lib, { textSetting, pdfSetting, missingId, webhook: process.env.WEBHOOK_DELIVERY });
// The file helper: streams the video to disk where the runtime has a file system.
out.saved = await client.download(out.videoId, downloadPath);
console.log(JSON.stringify(out));
