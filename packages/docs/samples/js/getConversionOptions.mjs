// Can this video be converted, and into what?
// Usage: node getConversionOptions.mjs <video_id>
const videoId = process.argv[2];
if (!videoId) throw new Error('usage: <video_id>');

const base = process.env.VIDEO_API_BASE_URL;
const res = await fetch(`${base}/videos/${videoId}/conversions/`, {
  headers: {
    Authorization: `Bearer ${process.env.VIDEO_API_KEY}`,
  },
});
const o = await res.json();
if (!res.ok) {
  console.error(`${o.error_code}: ${o.error}`);
  process.exit(1);
}
console.log(`language: ${o.current_language}`);
console.log(`aspect ratio: ${o.current_aspect_ratio}`);
if (o.is_convertible) {
  console.log(`languages: ${o.available_languages.join(' ')}`);
  console.log(`ratios: ${o.available_aspect_ratios.join(' ')}`);
} else {
  console.log('not convertible');
}
