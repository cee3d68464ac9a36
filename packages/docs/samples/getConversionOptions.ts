// Show whether a video can be converted, and into which languages and aspect ratios.
// Usage: npx tsx getConversionOptions.ts <video_id>
import { createClient } from '@videogen/client';

const videoId = process.argv[2];
if (!videoId) throw new Error('usage: getConversionOptions.ts <video_id>');

const client = createClient(); // API key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL
const options = await client.conversions.get(videoId);
console.log(`now: ${options.current_language}, ${options.current_aspect_ratio}`);
if (options.is_convertible) {
  console.log(`languages: ${options.available_languages.join(' ')}`);
  console.log(`aspect ratios: ${options.available_aspect_ratios.join(' ')}`);
} else {
  console.log('not convertible');
}
