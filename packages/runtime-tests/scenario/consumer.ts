// A user's strict TypeScript program against the packed client, compiled with moduleResolution
// nodenext and bundler. Its types are part of the check: a wrong or missing .d.ts fails to compile.
import {
  createClient,
  NotFoundError,
  isVideoApiError,
  LANGUAGES,
  type Video,
  type VideoSetting,
  type VideoClient,
  type Language,
  type GenerateInput,
} from '@videogen/client';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@videogen/client/webhooks';

const [textSetting, missingId] = process.argv.slice(2) as [string, string];
const client: VideoClient = createClient({
  apiKey: process.env.VIDEO_API_KEY!,
  baseUrl: process.env.VIDEO_API_BASE_URL!,
});

const settings: VideoSetting[] = [];
for await (const s of client.settings.list()) settings.push(s);
const input: GenerateInput = { video_setting_id: textSetting, text: 'Explain tides' };
const video: Video = await client.generateAndWait(input, { intervalMs: 20, timeoutMs: 240_000 });
const language: Language = LANGUAGES[0];
let notFound = false;
try {
  await client.videos.get(missingId);
} catch (e) {
  notFound = e instanceof NotFoundError && isVideoApiError(e) && e.status === 404;
}
// The receiving side alone (the subpath export): a delivery without its headers is refused, typed.
let webhook: string | undefined;
try {
  const event: WebhookEvent = verifyWebhook('{}', {}, 'whsec_dGVzdA==');
  webhook = event.type;
} catch (e) {
  if (e instanceof WebhookVerificationError) webhook = e.error_code;
}
console.log(
  JSON.stringify({
    webhook,
    settings: settings.length,
    status: video.status,
    hasUrl: typeof video.download_url === 'string',
    language,
    notFound,
  }),
);
