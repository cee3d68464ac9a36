// List your videos, at most the first 20.
import { createClient } from '@videogen/client';

const client = createClient(); // API key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL

let shown = 0;
for await (const video of client.videos.list()) {
  console.log(`${video.created_at}  ${video.video_id}  ${video.prompt}`);
  if (++shown === 20) break; // leaving the loop early fetches no further page
}
