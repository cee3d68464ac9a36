// List the video settings and the form fields each one is used with.
import { createClient } from '@videogen/client';

const client = createClient(); // API key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL

// Pages of 50 are fetched one after another as the loop needs them.
for await (const setting of client.settings.list()) {
  console.log(`${setting.video_setting_id}  ${setting.title}  [${setting.request_fields.join(', ')}]`);
}
