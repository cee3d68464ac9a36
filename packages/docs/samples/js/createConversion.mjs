// Convert a completed video into another language: a new
// video; the source video is unchanged.
// Usage: node createConversion.mjs <video_id> [language]
const [videoId, language = 'en'] = process.argv.slice(2);
if (!videoId) throw new Error('usage: <video_id> [language]');

const base = process.env.VIDEO_API_BASE_URL;
const res = await fetch(`${base}/videos/${videoId}/conversions/`, {
  method: 'POST',
  headers: {
    Authorization: `Bearer ${process.env.VIDEO_API_KEY}`,
    'Content-Type': 'application/json',
  },
  // language, aspect_ratio, or both
  body: JSON.stringify({ language }),
});
const body = await res.json();
if (!res.ok) {
  // A 400 says why, e.g. LANGUAGE_NOT_SUPPORTED_BY_VOICES.
  console.error(`${body.error_code}: ${body.error}`);
  process.exit(1);
}
// The new video: poll it like a generation.
console.log(body.video_id);
