// Convert a completed video into another language: a new
// video; the source video is unchanged.
// Usage: npx tsx createConversion.ts <video_id> [language]
import {
  createClient,
  ValidationError,
  type Language,
} from '@videogen/client';

const [videoId, language = 'en'] = process.argv.slice(2);
if (!videoId) throw new Error('usage: <video_id> [language]');

// Key from VIDEO_API_KEY, base URL from VIDEO_API_BASE_URL.
const client = createClient();
try {
  const { video_id } = await client.convert(videoId, {
    language: language as Language,
  });
  // The new video: poll it like a generation.
  console.log(video_id);
} catch (error) {
  // A 400 says why, e.g. LANGUAGE_NOT_SUPPORTED_BY_VOICES.
  if (error instanceof ValidationError) {
    console.error(`${error.error_code}: ${error.error}`);
    process.exit(1);
  }
  throw error;
}
