// Start generating a video from a text prompt.
// Usage: npx tsx generateVideo.ts <video_setting_id> [text]
import { createClient } from '@videogen/client';

const [settingId, text = 'Explain photosynthesis briefly.'] =
  process.argv.slice(2);
if (!settingId) throw new Error('usage: <setting_id> [text]');

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();
const { video_id } = await client.videos.generate({
  video_setting_id: settingId,
  text,
});
// The video is running: poll it with client.waitForVideo().
console.log(video_id);
