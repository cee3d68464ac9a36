// Read a video's status and, once it is completed, its temporary download URL.
// Usage: npx tsx getVideo.ts <video_id>
import { createClient } from '@videogen/client';

const videoId = process.argv[2];
if (!videoId) throw new Error('usage: getVideo.ts <video_id>');

const client = createClient(); // API key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL
const video = await client.videos.get(videoId);
console.log(video.status); // running | completed | failed | expired
if (video.status === 'completed') {
  console.log(video.download_url); // presigned and temporary: download it soon
}
