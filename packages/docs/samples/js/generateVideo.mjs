// Start generating a video from a text prompt or a PDF file.
// Usage: node generateVideo.mjs <video_setting_id> [text | file.pdf]
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';

const [settingId, input = 'Explain photosynthesis briefly.'] =
  process.argv.slice(2);
if (!settingId) throw new Error('usage: <setting_id> [text | .pdf]');

const form = new FormData();
form.append('video_setting_id', settingId);
if (input.endsWith('.pdf')) {
  // A file part, streamed from disk.
  const pdf = await openAsBlob(input, { type: 'application/pdf' });
  form.append('pdf_file', pdf, basename(input));
} else {
  form.append('text', input);
}

// fetch writes the multipart body and its boundary itself.
const base = process.env.VIDEO_API_BASE_URL;
const res = await fetch(`${base}/videos/generate/`, {
  method: 'POST',
  headers: {
    Authorization: `Bearer ${process.env.VIDEO_API_KEY}`,
  },
  body: form,
});
const body = await res.json();
if (!res.ok) {
  console.error(`${body.error_code}: ${body.error}`);
  process.exit(1);
}
// The video is running: poll GET /videos/{video_id}/.
console.log(body.video_id);
