// A Cloudflare Worker that uses the client: no process.env, so the key comes from the Worker's
// bindings, given explicitly. Bundled by the test as wrangler would (esbuild, `workerd` conditions).
import * as lib from '@videogen/client';
import { session } from './session.mjs';

export default {
  async fetch(_request, env) {
    const client = lib.createClient({ apiKey: env.VIDEO_API_KEY, baseUrl: env.VIDEO_API_BASE_URL });
    const out = await session(client, lib, env);
    // Without a file system a file path cannot work: the client must say so in one clear error.
    try {
      await client.download(out.videoId, '/tmp/video.mp4');
      out.download_to_path = 'no error';
    } catch (e) {
      out.download_to_path = { name: e.name, message: e.message };
    }
    try {
      await client.videos.generate({ video_setting_id: env.pdfSetting, pdf_file: 'deck.pdf' });
      out.upload_from_path = 'no error';
    } catch (e) {
      out.upload_from_path = { name: e.name, message: e.message };
    }
    return Response.json(out);
  },
};
