// A serverless function (the fetch handler of Cloudflare
// Workers, Deno, Bun, Vercel or Netlify) that starts a video and
// returns at once: a relay tells receiveVideo.ts when it is done.
import { createClient } from '@videogen/client';

interface Env {
  VIDEO_API_KEY: string;
  VIDEO_API_BASE_URL?: string;
  // The relay's announce endpoint (videogen relay --listen).
  VIDEO_RELAY_URL: string;
  VIDEO_SETTING_ID: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { prompt } = (await request.json()) as { prompt: string };
    const client = createClient({
      apiKey: env.VIDEO_API_KEY,
      baseUrl: env.VIDEO_API_BASE_URL,
      // Each video created is announced: watched at once.
      relayUrl: env.VIDEO_RELAY_URL,
    });
    const { video_id } = await client.videos.generate({
      video_setting_id: env.VIDEO_SETTING_ID,
      text: prompt,
    });
    // No polling here: the function's work is done.
    return Response.json({ video_id }, { status: 202 });
  },
};
