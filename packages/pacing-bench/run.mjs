// npm run bench: against every limiter style and both personalities of the sandbox,
// (a) a read-only contract suite run, started as a user would (`npm run contract`, VIDEO_API_BASE_URL
// pointing at the sandbox) and (b) a client session through @videogen/client (settings, 3
// generations, polling, 6 status reads) must meet 0 × 429 and 0 × 503, in at most 1.15× the floor.
//
// floor = the least time the rate limits impose on the requests the run actually made (those not
// refused with 429): per account and class, (n − 1) × the even spacing (window / requests, from each operation's x-rate-limit),
// the largest of them. wall = first request in → last response out, seen by the sandbox (process
// start-up of the suite's process is not the pacer's and is printed apart). Counts of 429/503 come from the sandbox
// (its response counters). Exits non-zero when a goal is missed; prints the figures either way.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { FIXTURES, PERSONALITIES, RATE_LIMITER_STYLES, SANDBOX_KEYS } from '@videogen/sandbox';
import { createClient } from '@videogen/client';
import { figures, sandboxFor } from './measure.mjs';

const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 5);
const GOAL_RATIO = 1.15;
/** Service seconds a generation runs in the bench (short: the session is meant to be rate-bound). */
const GENERATION_SECONDS = Number(process.env.BENCH_GENERATION_SECONDS ?? 6);
const only = (name, all) => (process.env[name] ? process.env[name].split(',') : all);
const styles = only('BENCH_STYLES', RATE_LIMITER_STYLES);
const personalities = only('BENCH_PERSONALITIES', PERSONALITIES);
const runs = only('BENCH_RUNS', ['contract', 'client']);

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** (a) The read-only contract suite, as a user runs it, against this sandbox. */
async function contractRun(sb, personality) {
  const F = FIXTURES;
  const env = {
    ...process.env,
    VIDEO_API_BASE_URL: sb.baseUrl,
    VIDEO_API_KEY: SANDBOX_KEYS.acme,
    VIDEO_API_OTHER_ACCOUNT_KEY: SANDBOX_KEYS.globex,
    CONTRACT_FREE_PLAN_KEY: SANDBOX_KEYS.initech,
    CONTRACT_NO_CREDIT_KEY: SANDBOX_KEYS.umbrella,
    CONTRACT_TARGET_KIND: 'sandbox',
    // Our own choices are ours to keep only in our own personality; the other one differs on purpose.
    CONTRACT_STRICT: personality === 'default' ? '1' : '0',
    CONTRACT_PROFILE: 'read-only',
    CONTRACT_TIME_SCALE: String(TIME_SCALE),
    CONTRACT_VIDEO_SETTING_ID: F.acme.settings.text,
    CONTRACT_PDF_SETTING_ID: F.acme.settings.pdf,
    CONTRACT_PPTX_SETTING_ID: F.acme.settings.pptx,
    CONTRACT_TEXT_PDF_SETTING_ID: F.acme.settings.textPdf,
    CONTRACT_AUDIO_SETTING_ID: F.acme.settings.audio,
    CONTRACT_VIDEO_FILE_SETTING_ID: F.acme.settings.video,
    CONTRACT_TEXT_IMAGES_SETTING_ID: F.acme.settings.textImages,
    CONTRACT_COMPLETED_VIDEO_ID: F.acme.videos.convertible,
    CONTRACT_FAILED_VIDEO_ID: F.acme.videos.failed,
    CONTRACT_EXPIRED_VIDEO_ID: F.acme.videos.expired,
    CONTRACT_CONVERTIBLE_VIDEO_ID: F.acme.videos.convertible,
    CONTRACT_NOT_CONVERTIBLE_VIDEO_ID: F.acme.videos.notConvertible,
    CONTRACT_REAL_AVATAR_VIDEO_ID: F.acme.videos.realAvatar,
    CONTRACT_LIMITED_VOICES_VIDEO_ID: F.acme.videos.limitedVoices,
    CONTRACT_UNKNOWN_ERROR_VIDEO_ID: F.acme.videos.unknownError,
    CONTRACT_OTHER_ACCOUNT_VIDEO_ID: F.globex.videos.convertible,
    CONTRACT_FREE_PLAN_VIDEO_ID: F.initech.videos.convertible,
    CONTRACT_NO_CREDIT_VIDEO_ID: F.umbrella.videos.convertible,
  };
  const t0 = performance.now();
  const { code, out } = await new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'contract', '-w', '@videogen/contract-tests'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (c) => resolve({ code: c, out }));
  });
  return { exit: code, process: performance.now() - t0, out };
}

/** (b) A client session: settings, 3 generations, polling until each is done, 6 status reads. */
async function clientSession(sb, personality) {
  const t0 = performance.now();
  // The client learns the time scale from RateLimit-Policy; a target that sends no such header
  // (the alternative personality) is paced from the documented limits in real time, so it is told
  // the scale through its clock: service time runs TIME_SCALE times faster than real time.
  const scaled = personality !== 'default' && process.env.BENCH_SCALED_CLOCK !== '0';
  const start = Date.now();
  const clock = scaled
    ? {
        now: () => start + (Date.now() - start) * TIME_SCALE,
        sleep: (ms, signal) =>
          new Promise((resolve, reject) => {
            const t = setTimeout(resolve, ms / TIME_SCALE);
            signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
          }),
      }
    : undefined;
  const client = createClient({
    apiKey: SANDBOX_KEYS.acme,
    baseUrl: sb.baseUrl,
    plan: 'business',
    account: `bench-${Math.random()}`,
    ...(clock ? { clock } : {}),
  });
  let errors = 0;
  const settings = [];
  for await (const s of client.settings.list()) settings.push(s);
  const setting = settings.find((s) => s.request_fields.length === 1 && s.request_fields[0] === 'text');
  const ids = [];
  const waits = [];
  for (let i = 0; i < 3; i++) {
    const { video_id } = await client.videos.generate(
      { video_setting_id: setting.video_setting_id, text: `bench ${i}` },
      { setting },
    );
    ids.push(video_id);
    // Each video is polled from its creation on, as often as the pacer allows (interval 0): the
    // limits, not a fixed interval, set the pace, while the next generation waits for its class-A slot.
    waits.push(client.waitForVideo(video_id, { intervalMs: 0 }).catch(() => errors++));
  }
  await Promise.all(waits);
  for (let i = 0; i < 6; i++) await client.videos.get(ids[i % 3]).catch(() => errors++);
  return { exit: errors ? 1 : 0, process: performance.now() - t0 };
}

const rows = [];
let missed = 0;
for (const personality of personalities) {
  for (const style of styles) {
    for (const run of runs) {
      const { sb, answers } = await sandboxFor({
        style,
        personality,
        timeScale: TIME_SCALE,
        generationSeconds: GENERATION_SECONDS,
      });
      let result;
      try {
        result = run === 'contract' ? await contractRun(sb, personality) : await clientSession(sb, personality);
      } finally {
        await sb.close();
      }
      const stats = sb.stats();
      const f = { ...figures(answers, TIME_SCALE), r429: stats['429'] ?? 0, r503: stats['503'] ?? 0 };
      const ratio = f.floor ? f.wall / f.floor : NaN;
      const ok = f.r429 === 0 && f.r503 === 0 && ratio <= GOAL_RATIO && result.exit === 0;
      if (!ok) missed++;
      rows.push({
        run,
        personality,
        style,
        requests: f.requests,
        '429s': f.r429,
        '503s': f.r503,
        'wall s': (f.wall / 1000).toFixed(2),
        'floor s': (f.floor / 1000).toFixed(2),
        ratio: ratio.toFixed(2),
        'bound by': f.bound,
        'process s': (result.process / 1000).toFixed(1),
        exit: result.exit,
        goal: ok ? 'met' : 'MISSED',
      });
      process.stderr.write(`${run} ${personality} ${style}: ${JSON.stringify(rows.at(-1))}\n`);
      if (result.exit && result.out && process.env.BENCH_VERBOSE) process.stderr.write(result.out.slice(-4000));
    }
  }
}

console.log(
  `\nPacing bench: time scale ${TIME_SCALE}, generation ${GENERATION_SECONDS} service s, goal 0 × 429, 0 × 503, wall ≤ ${GOAL_RATIO} × floor`,
);
console.table(rows);
if (missed) {
  console.log(`${missed} of ${rows.length} runs missed the goal.`);
  process.exitCode = 1;
}
