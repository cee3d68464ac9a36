// npm run bench (issue 37 §6): what the account spends to learn that its videos ended, and how soon it
// learns it. N processes of an application (N = 1, 4, 8; BENCH_RELAY_PROCESSES) each make K videos
// (BENCH_VIDEOS_PER_PROCESS, 2):
//   - `polling`: each process polls its own videos to the end (waitForVideo at the x-polling interval),
//     as an account without a relay does;
//   - `1 relay`, `3 relays`: each process returns once its videos are accepted (announced to a relay, as
//     a serverless function would); relay processes poll and POST each end to a receiver here.
// Everyone shares the account's pacing on a redis-server started here (no 429 for anyone), against a
// sandbox at BENCH_TIME_SCALE (20) with 30-second generations. Printed per row, measured on the
// sandbox's side: class-B requests (every GET: status reads, listings, the settings' lookups) per
// completed video, and the latency from a video's end (its created_at plus the generation time) to the
// moment its process learned it (polling) or the receiver got its webhook (relays), p50 and p95 in the
// service's seconds (real ms × time scale); each relay row also as a ratio to the polling row of its N,
// measured in the same run. Exits 1 when an event is missing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '@videogen/client';
import { FIXTURES, SANDBOX_KEYS } from '@videogen/sandbox';
import { sandboxFor } from '../../pacing-bench/measure.mjs';
import { SECRET, startReceiver, startRedis, startRelay, until } from '../test/harness.mjs';

const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 20);
const GENERATION_SECONDS = 30;
const COUNTS = (process.env.BENCH_RELAY_PROCESSES ?? '1,4,8').split(',').map(Number);
const PER_PROCESS = Number(process.env.BENCH_VIDEOS_PER_PROCESS ?? 2);
const MODES = (process.env.BENCH_RELAY_MODES ?? 'polling,1 relay,3 relays').split(',');
/** The x-polling interval (10 s) and the relay's listing interval (20 s), in the sandbox's time. */
const POLL_MS = 10_000 / TIME_SCALE;
const LIST_MS = 20_000 / TIME_SCALE;
const APP = fileURLToPath(new URL('./app.mjs', import.meta.url));
const key = SANDBOX_KEYS.acme;

const quantile = (xs, q) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** N application processes; resolves with every line they printed. */
function apps(n, env) {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [APP], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (err += d));
          child.on('close', (code) =>
            code === 0
              ? resolve(
                  out
                    .trim()
                    .split('\n')
                    .filter(Boolean)
                    .map((l) => JSON.parse(l)),
                )
              : reject(new Error(`app exited ${code}: ${err.slice(-500)}`)),
          );
        }),
    ),
  ).then((lists) => lists.flat());
}

async function row(mode, n, redis) {
  const { sb, answers } = await sandboxFor({
    style: 'even',
    personality: 'default',
    timeScale: TIME_SCALE,
    generationSeconds: GENERATION_SECONDS,
  });
  const relayCount = mode === 'polling' ? 0 : Number.parseInt(mode, 10);
  const receiver = await startReceiver();
  const relays = [];
  try {
    for (let i = 0; i < relayCount; i++)
      relays.push(
        await startRelay({
          options: {
            forwardTo: `${receiver.url}/hook`,
            secret: SECRET,
            apiKey: key,
            baseUrl: sb.baseUrl,
            redisUrl: redis.url,
            redisPrefix: `bench:${sb.port}`,
            listen: 0,
            pollIntervalMs: POLL_MS,
            listIntervalMs: LIST_MS,
            leaseMs: 5_000,
            backfillMs: 0,
          },
          env: { VIDEO_API_PACING_URL: redis.url },
        }),
      );
    const started = Date.now();
    const made = await apps(n, {
      APP_KEY: key,
      APP_BASE_URL: sb.baseUrl,
      APP_SETTING: FIXTURES.acme.settings.text,
      APP_MODE: relayCount ? 'announce' : 'poll',
      APP_RELAY_URL: relays[0]?.url ?? '',
      APP_COUNT: String(PER_PROCESS),
      APP_INTERVAL_MS: String(POLL_MS),
      VIDEO_API_PACING_URL: redis.url,
    });
    const ids = new Set(made.map((m) => m.video_id));
    const learned = new Map();
    if (relayCount) {
      await until(
        () => {
          for (const d of receiver.deliveries) {
            const id = JSON.parse(d.body).data.video_id;
            if (!learned.has(id)) learned.set(id, d.at);
          }
          return [...ids].every((id) => learned.has(id));
        },
        'every webhook',
        300_000,
      );
    } else for (const m of made) learned.set(m.video_id, m.learnedAt);
    const ended = Date.now();
    // When each video ended, on the sandbox's clock: its created_at plus the generation time.
    const reader = createClient({ apiKey: key, baseUrl: sb.baseUrl, pacing: false });
    const created = new Map();
    for await (const v of reader.videos.list()) created.set(v.video_id, Date.parse(v.created_at));
    if (process.env.BENCH_VERBOSE) {
      for (const r of relays)
        for (const l of r.logs.filter((l) => /polling|polled|delivered|announced|listed/.test(l.msg)))
          process.stderr.write(`${l.pid} ${l.at - started} ${l.msg.slice(0, 100)}\n`);
      for (const id of ids)
        process.stderr.write(
          `${id} created ${created.get(id) - started} ended ${created.get(id) + (GENERATION_SECONDS * 1000) / TIME_SCALE - started} learned ${learned.get(id) - started}\n`,
        );
    }
    const latencies = [...ids].map(
      (id) => ((learned.get(id) - (created.get(id) + (GENERATION_SECONDS * 1000) / TIME_SCALE)) * TIME_SCALE) / 1000,
    );
    // Class B: every GET the account made while the row ran (not the reader's list above: it is the bench's).
    const ran = answers.filter((a) => a.start < ended);
    const during = ran.filter((a) => a.method === 'GET' && a.status !== 429);
    const count = (re) => during.filter((a) => re.test(a.path)).length;
    return {
      mode,
      N: n,
      videos: ids.size,
      delivered: [...ids].filter((id) => learned.has(id)).length,
      'class B': during.length,
      'B per video': during.length / ids.size,
      'status reads': count(/^\/v1\/videos\/[^/]+\/$/),
      listings: count(/^\/v1\/videos\/$/),
      settings: count(/^\/v1\/video-settings\/$/),
      '429s': ran.filter((a) => a.status === 429).length,
      'p50 s': quantile(latencies, 0.5),
      'p95 s': quantile(latencies, 0.95),
    };
  } finally {
    await Promise.all(relays.map((r) => r.stop()));
    await receiver.close();
    await sb.close();
  }
}

const redis = await startRedis();
const rows = [];
let missing = 0;
try {
  for (const n of COUNTS)
    for (const mode of MODES) {
      const r = await row(mode, n, redis);
      if (r.delivered < r.videos) missing++;
      rows.push(r);
      process.stderr.write(`relay bench ${JSON.stringify(r)}\n`);
    }
} finally {
  await redis.stop();
}
const baseline = (n) => rows.find((r) => r.N === n && r.mode === 'polling');
console.log(
  `\nCompletion events (issue 37): N processes × ${PER_PROCESS} videos each, one account, sandbox at ${TIME_SCALE}× (30 s generations, even limiter), pacing shared on Redis; latency = the video's end → its process learned it (polling) / its webhook arrived (relays), in service seconds`,
);
console.table(
  rows.map((r) => {
    const b = baseline(r.N);
    return {
      ...r,
      'B per video': r['B per video'].toFixed(2),
      'p50 s': r['p50 s'].toFixed(1),
      'p95 s': r['p95 s'].toFixed(1),
      'B/video vs polling': b && r.mode !== 'polling' ? (r['B per video'] / b['B per video']).toFixed(2) : '-',
      'p50 vs polling': b && r.mode !== 'polling' ? (r['p50 s'] / b['p50 s']).toFixed(2) : '-',
    };
  }),
);
if (missing) {
  console.log(`${missing} row(s) missed events.`);
  process.exitCode = 1;
}
