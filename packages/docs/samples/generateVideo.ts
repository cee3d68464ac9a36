// Start generating a video from a text prompt and print the new video's id.
// Usage: npx tsx generateVideo.ts <video_setting_id> [prompt]
import { createClient } from '@videogen/client';

const [settingId, text = 'Explain photosynthesis to a ten-year-old in two minutes.'] = process.argv.slice(2);
if (!settingId) throw new Error('usage: generateVideo.ts <video_setting_id> [prompt]');

const client = createClient(); // API key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL
const { video_id } = await client.videos.generate({ video_setting_id: settingId, text });
console.log(video_id); // running now: poll it with client.waitForVideo(video_id), see getVideo
