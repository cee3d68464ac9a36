// The relay's fault runs (issue 37, "Done means"), with real processes: relays as child processes sharing
// a redis-server started here, a sandbox and a receiver on loopback. Each run makes videos, breaks
// something in the middle, waits until every expected event arrived (or the cap), and prints one row:
// events expected, delivered (at least once), duplicated (deliveries of an id beyond its first: the same
// id again), lost (expected, never delivered), and the breaches no duplicate explains (one event under
// two ids, a video's events out of order, a delivery that does not verify).
//
//   node scripts/faults.mjs [--videos N] [--cap SECONDS] [--runs kill,receiver,redis]
//
//   kill      two relays; every delivery held by the receiver; the relay holding one is killed (kill -9);
//             the receiver then answers; the other relay must deliver what the dead one was sending.
//   receiver  two relays; the receiver is down (connection refused) while the videos end, for about
//             five seconds; the relays retry on a scaled schedule (0, 0.5 s, 1 s, 2 s, 4 s, 8 s, 16 s).
//   redis     two relays; Redis is killed and started again empty while deliveries are in flight; more
//             videos are made after it.
import { parseArgs } from 'node:util';
import { createClient } from '@videogen/client';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { Webhook } from 'standardwebhooks';
import { openStore } from '../dist/index.js';
import { fastRelayOptions, SECRET, startReceiver, startRedis, startRelay, tally, until } from '../test/harness.mjs';

const { values } = parseArgs({
  options: {
    videos: { type: 'string', default: '6' },
    cap: { type: 'string', default: '120' },
    runs: { type: 'string', default: 'kill,receiver,redis' },
  },
});
const VIDEOS = Number(values.videos);
const CAP_MS = Number(values.cap) * 1000;
const key = SANDBOX_KEYS.acme;
const verify = (d) => new Webhook(SECRET).verify(d.body, d.headers);

async function run(name, fault) {
  const redis = await startRedis();
  // 100× faster: 30-second generations take 0.3 s, class B one per 20 ms.
  const sb = await startSandbox({ port: 0, timeScale: 100 });
  let receiver = await startReceiver();
  const relays = [];
  const expected = [];
  const ctx = {
    sb,
    redis,
    relays,
    get receiver() {
      return receiver;
    },
    set receiver(r) {
      receiver = r;
    },
    async relay(name, extra = {}) {
      const r = await startRelay({
        options: {
          ...fastRelayOptions({ receiverUrl: receiver.url, name, baseUrl: sb.baseUrl }),
          redisUrl: redis.url,
          retryScheduleMs: [0, 500, 1_000, 2_000, 4_000, 8_000, 16_000],
          ...extra,
        },
        env: { VIDEO_API_PACING_URL: redis.url },
      });
      relays.push(r);
      return r;
    },
    async make(n, label) {
      const client = createClient({
        apiKey: key,
        baseUrl: sb.baseUrl,
        relayUrl: relays[0]?.url,
        pacingUrl: redis.url,
        logLevel: 'off',
      });
      for (let i = 0; i < n; i++) {
        const { video_id } = await client.videos.generate({
          video_setting_id: FIXTURES.acme.settings.text,
          text: `${label} ${i}`,
        });
        expected.push({ video_id, type: 'video.completed' });
      }
    },
  };
  const started = Date.now();
  const deliveries = [];
  try {
    await fault(ctx);
    // Done when every expected event arrived and the relays hold no more work (a delivery that a killed
    // relay left unanswered is sent again by the other before this).
    const store = openStore({ apiKey: key, baseUrl: sb.baseUrl, redisUrl: redis.url });
    await until(
      async () =>
        tally([...(ctx.seen ?? []), ...receiver.deliveries], expected, verify).lost === 0 &&
        (await store.status().catch(() => ({ records: 1 }))).records === 0,
      'every expected event, and no work left',
      CAP_MS,
    ).catch(() => {});
    await store.close();
  } finally {
    deliveries.push(...receiver.deliveries);
    await Promise.all(relays.map((r) => r.kill()));
    await receiver.close();
    await sb.close();
    await redis.stop();
  }
  const t = tally(ctx.seen ? [...ctx.seen, ...deliveries] : deliveries, expected, verify);
  if (process.env.FAULTS_VERBOSE)
    for (const d of deliveries) process.stderr.write(`${d.at} ${d.path} ${d.headers['webhook-id']}\n`);
  return {
    run: name,
    expected: t.expected,
    delivered: t.delivered,
    duplicated: t.duplicated,
    lost: t.lost,
    'two ids': t.conflicting,
    'out of order': t.outOfOrder,
    unverified: t.unverified,
    seconds: ((Date.now() - started) / 1000).toFixed(1),
  };
}

const RUNS = {
  /** kill -9 of the relay holding a delivery in flight. */
  kill: async (c) => {
    await c.relay('a');
    await c.relay('b');
    c.receiver.answer = () => 'hold';
    await c.make(VIDEOS, 'kill');
    const held = await until(() => c.receiver.deliveries[0], 'a delivery in flight', CAP_MS);
    const victim = c.relays[held.path === '/a' ? 0 : 1];
    await victim.kill();
    c.receiver.answer = () => 200;
    c.receiver.release(200);
  },
  /** The receiver refuses connections for about five seconds, then comes back on the same port. */
  receiver: async (c) => {
    await c.relay('a');
    await c.relay('b');
    const port = Number(new URL(c.receiver.url).port);
    c.seen = [...c.receiver.deliveries];
    await c.receiver.close();
    await c.make(VIDEOS, 'receiver down');
    await new Promise((r) => setTimeout(r, 5_000));
    c.receiver = await startReceiver(port);
  },
  /** Redis killed and started again, empty, with deliveries in flight; more videos after it. */
  redis: async (c) => {
    await c.relay('a');
    await c.relay('b');
    c.receiver.answer = () => 'hold';
    await c.make(Math.ceil(VIDEOS / 2), 'before the restart');
    await until(() => c.receiver.held() > 0, 'a delivery in flight', CAP_MS);
    await c.redis.kill();
    await c.redis.restart();
    c.receiver.answer = () => 200;
    c.receiver.release(200);
    await c.make(Math.floor(VIDEOS / 2), 'after the restart');
  },
};

const rows = [];
for (const name of values.runs.split(',')) {
  const fault = RUNS[name];
  if (!fault) throw new Error(`unknown run ${name}: one of ${Object.keys(RUNS).join(', ')}`);
  rows.push(await run(name, fault));
  process.stderr.write(`faults ${JSON.stringify(rows.at(-1))}\n`);
}
console.log(`\nRelay fault runs: ${VIDEOS} videos each, two relays sharing a redis-server, sandbox at 100×`);
console.table(rows);
if (rows.some((r) => r.lost || r['two ids'] || r['out of order'] || r.unverified)) process.exitCode = 1;
