// The function the relay POSTs each video's terminal state to,
// signed (Standard Webhooks): it verifies the delivery, then
// downloads a completed video.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createClient,
  type VerifiedWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '@videogen/client';

interface Env {
  VIDEO_API_KEY: string;
  VIDEO_API_BASE_URL?: string;
  // whsec_…, the relay's (several during a rotation).
  VIDEO_WEBHOOK_SECRET: string;
  DOWNLOAD_DIR: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // The body as it came: a re-serialised one does not verify.
    const body = await request.text();
    let event: VerifiedWebhook;
    try {
      event = verifyWebhook(
        body,
        request.headers,
        env.VIDEO_WEBHOOK_SECRET,
      );
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      const { error_code, message } = e;
      const refusal = { error_code, error: message };
      return Response.json(refusal, { status: 400 });
    }
    if (event.type === 'video.completed') {
      const { video_id } = event.data;
      // Named after the video: a retry of the event (the same
      // event.id) finds it saved and answers at once.
      const path = join(env.DOWNLOAD_DIR, `${video_id}.mp4`);
      if (!existsSync(path)) {
        const client = createClient({
          apiKey: env.VIDEO_API_KEY,
          baseUrl: env.VIDEO_API_BASE_URL,
        });
        // download() reads a fresh address, then streams it.
        const { bytes } = await client.download(video_id, path);
        console.log(`${event.id}: saved ${bytes} bytes to ${path}`);
      }
    } else {
      console.log(`${event.id}: ${event.data.video_id} ${event.type}`);
    }
    // Any 2xx: delivered. Anything else is retried.
    return new Response(null, { status: 204 });
  },
};
