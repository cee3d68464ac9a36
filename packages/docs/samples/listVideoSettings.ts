// List the video settings and the fields each one takes.
import { createClient } from '@videogen/client';

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();

// Pages of 50 are fetched as the loop needs them.
for await (const s of client.settings.list()) {
  const fields = s.request_fields.join(', ');
  console.log(`${s.video_setting_id}  ${s.title}  [${fields}]`);
}
