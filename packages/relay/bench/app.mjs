// One process of an application, for the relay benchmark: it makes COUNT videos one after another and,
// as MODE says, either polls each to its end itself (`poll`: waitForVideo every INTERVAL_MS, as the
// processes of an account without a relay do) or returns as soon as the service accepted it (`announce`:
// the client tells the relay at RELAY_URL, as a serverless function does). One JSON line per video on
// stdout: { video_id, learnedAt } (learnedAt: when this process learned the end; absent with a relay).
import { createClient } from '@videogen/client';

const env = process.env;
const client = createClient({
  apiKey: env.APP_KEY,
  baseUrl: env.APP_BASE_URL,
  plan: 'business',
  ...(env.APP_MODE === 'announce' && { relayUrl: env.APP_RELAY_URL }),
});
for (let i = 0; i < Number(env.APP_COUNT ?? 1); i++) {
  const { video_id } = await client.videos.generate({
    video_setting_id: env.APP_SETTING,
    text: `bench ${process.pid} ${i}`,
  });
  if (env.APP_MODE === 'poll') {
    await client.waitForVideo(video_id, { intervalMs: Number(env.APP_INTERVAL_MS) }).catch(() => {});
    process.stdout.write(`${JSON.stringify({ video_id, learnedAt: Date.now() })}\n`);
  } else process.stdout.write(`${JSON.stringify({ video_id })}\n`);
}
