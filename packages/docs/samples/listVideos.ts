// List your videos, at most the first 20.
import { createClient } from '@videogen/client';

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();

let shown = 0;
for await (const v of client.videos.list()) {
  console.log(`${v.created_at}  ${v.video_id}  ${v.prompt}`);
  if (++shown === 20) break; // no further page is fetched
}
