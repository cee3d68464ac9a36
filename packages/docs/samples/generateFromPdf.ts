// Generate a video from a PDF, report progress, download it.
// Usage: npx tsx generateFromPdf.ts <video_setting_id> <file.pdf>
import { createClient, VideoFailedError } from '@videogen/client';

const [settingId, pdfPath] = process.argv.slice(2);
if (!settingId || !pdfPath) {
  throw new Error('usage: <video_setting_id> <file.pdf>');
}

const client = createClient();
try {
  const video = await client.generateAndWait(
    // A path: the client streams the file from disk.
    { video_setting_id: settingId, pdf_file: pdfPath },
    {
      onUploadProgress: ({ loaded, total }) =>
        console.log(`uploaded ${loaded} of ${total} bytes`),
      onProgress: (v) => console.log(v.status),
    },
  );
  const file = `${video.video_id}.mp4`;
  const { bytes } = await client.download(video.video_id, file);
  console.log(`saved ${bytes} bytes to ${file}`);
} catch (error) {
  if (error instanceof VideoFailedError) {
    console.error('The service could not generate this video.');
    process.exit(1);
  }
  throw error;
}
