// Quickstart: pick a video setting, generate a video from a
// text prompt, wait for it, download it.
import { createClient } from '@videogen/client';

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();

// 1. A setting that takes a text prompt alone.
let settingId: string | undefined;
for await (const s of client.settings.list()) {
  if (s.request_fields.join() === 'text') {
    settingId = s.video_setting_id;
    break;
  }
}
if (!settingId) throw new Error('No setting takes text alone.');

// 2. Generate, then poll every 10 s (600 s timeout) until the
//    video is completed.
const video = await client.generateAndWait(
  {
    video_setting_id: settingId,
    text: 'Explain photosynthesis to a ten-year-old.',
  },
  {
    onProgress: (v, { elapsedMs }) => {
      const seconds = Math.round(elapsedMs / 1000);
      console.log(`${v.status} after ${seconds} s`);
    },
  },
);

// 3. Download it soon: the download URL is temporary.
const file = 'photosynthesis.mp4';
const { path, bytes } = await client.download(video.video_id, file);
console.log(`saved ${bytes} bytes to ${path}`);
