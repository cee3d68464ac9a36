// One replica of an application: its own process and its own createClient, one account, as a user
// deploys several. It lists the settings, reads a video, generates videos and waits for each, then
// prints one JSON line: the calls it made and those that failed. Driven by the environment:
//   REPLICA_BASE_URL, REPLICA_KEY, REPLICA_SETTING, REPLICA_VIDEO   the target and what to read
//   REPLICA_LISTS, REPLICA_READS, REPLICA_STARTS                     how much work (default 2, 2, 1)
//   REPLICA_MODE        shared (VIDEO_API_PACING_URL, the default) | alone (no Redis)
//   REPLICA_TIME_SCALE  the sandbox's time scale; with REPLICA_SCALED_CLOCK=1 the client is told it
//                       through a scaled clock (a target without RateLimit-Policy), and the Redis store
//                       through its own timeScale
// It writes "started <video_id>" on stderr as soon as a generation is accepted (it then holds a slot).
import { createClient } from '@videogen/client';
import { createRedisPacerStore } from '@videogen/pacer-redis';

const env = process.env;
const num = (name, d) => Number(env[name] ?? d);
const scale = num('REPLICA_TIME_SCALE', 1);
const scaled = env.REPLICA_SCALED_CLOCK === '1';
const start = Date.now();
const clock = scaled
  ? {
      now: () => start + (Date.now() - start) * scale,
      sleep: (ms, signal) =>
        new Promise((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          const t = setTimeout(resolve, ms / scale);
          signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
        }),
    }
  : undefined;

const shared = (env.REPLICA_MODE ?? 'shared') === 'shared';
if (!shared) delete env.VIDEO_API_PACING_URL;
const logLines = [];
const client = createClient({
  apiKey: env.REPLICA_KEY,
  baseUrl: env.REPLICA_BASE_URL,
  plan: 'business',
  logLevel: 'info',
  logger: {
    warn: (_f, m) => logLines.push(m),
    error: (_f, m) => logLines.push(m),
    // Of the info lines, only the shared pacing's own ("back").
    info: (_f, m) => /^shared pacing/.test(m) && logLines.push(m),
    debug: () => {},
  },
  // A scaled clock keeps the client on its own time line: the shared store is then given whole.
  ...(clock && { clock }),
  ...(clock &&
    shared && {
      pacingStore: createRedisPacerStore({ url: env.VIDEO_API_PACING_URL, timeScale: scale, log: () => {} }),
    }),
});

let calls = 0;
const failures = [];
async function call(what, fn) {
  calls++;
  try {
    return await fn();
  } catch (err) {
    failures.push(`${what}: ${err?.name} ${err?.status ?? ''} ${err?.message}`);
    return undefined;
  }
}

// A replica serves once its shared pacing answers (as a deployment's readiness check would): a process
// starting on a busy machine can take longer to reach Redis than a decision waits for it (the store's
// timeoutMs), and a process that never reached Redis paces alone at the whole account's limits, the
// outage the faults test covers, not the sharing this one does.
async function sharedPacing() {
  for (;;) {
    const schedule = await client.schedule().catch(() => undefined);
    if (schedule?.scope === 'shared') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
if (shared) await sharedPacing();

const t0 = Date.now();
for (let i = 0; i < num('REPLICA_LISTS', 2); i++) await call('settings.list', () => client.settings.list());
for (let i = 0; i < num('REPLICA_READS', 2); i++) await call('videos.get', () => client.videos.get(env.REPLICA_VIDEO));
const waits = [];
for (let i = 0; i < num('REPLICA_STARTS', 1); i++) {
  const created = await call('videos.generate', () =>
    client.videos.generate({ video_setting_id: env.REPLICA_SETTING, text: `replica ${process.pid} ${i}` }),
  );
  if (!created) continue;
  process.stderr.write(`started ${created.video_id}\n`);
  waits.push(call('waitForVideo', () => client.waitForVideo(created.video_id, { intervalMs: 0 })));
}
await Promise.all(waits);
process.stdout.write(`${JSON.stringify({ pid: process.pid, calls, failures, ms: Date.now() - t0, log: logLines })}\n`);
