// Read a video's status and, once completed, its temporary
// download URL.
// Usage: node getVideo.mjs <video_id>
const videoId = process.argv[2];
if (!videoId) throw new Error('usage: getVideo.mjs <video_id>');

const res = await fetch(
  `${process.env.VIDEO_API_BASE_URL}/videos/${videoId}/`,
  {
    headers: {
      Authorization: `Bearer ${process.env.VIDEO_API_KEY}`,
    },
  },
);
const video = await res.json();
if (!res.ok) {
  // e.g. 404 NOT_FOUND: unknown, or another account's video
  console.error(`${video.error_code}: ${video.error}`);
  process.exit(1);
}
// running, completed, failed or expired
console.log(video.status);
if (video.status === 'completed') {
  // Presigned and temporary: download it soon.
  console.log(video.download_url);
}
