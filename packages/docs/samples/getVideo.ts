// Read a video's status and, once completed, its
// temporary download URL.
// Usage: npx tsx getVideo.ts <video_id>
import { createClient } from '@videogen/client';

const videoId = process.argv[2];
if (!videoId) throw new Error('usage: getVideo.ts <video_id>');

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();
const video = await client.videos.get(videoId);
// running, completed, failed or expired
console.log(video.status);
if (video.status === 'completed') {
  // Presigned and temporary: download it soon.
  console.log(video.download_url);
}
