// Can this video be converted, and into what?
// Usage: npx tsx getConversionOptions.ts <video_id>
import { createClient } from '@videogen/client';

const videoId = process.argv[2];
if (!videoId) throw new Error('usage: <video_id>');

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();
const o = await client.conversions.get(videoId);
console.log(`language: ${o.current_language}`);
console.log(`aspect ratio: ${o.current_aspect_ratio}`);
if (o.is_convertible) {
  console.log(`languages: ${o.available_languages.join(' ')}`);
  console.log(`ratios: ${o.available_aspect_ratios.join(' ')}`);
} else {
  console.log('not convertible');
}
