// The probes calibration sends besides the suite's scenarios, for the behaviours those do not show:
// the limiter of each class (limiter.ts's schedule), the encodings offered, what a download URL answers
// with an Authorization header and with its signature changed, an empty text, and the durations of the
// input modes the suite does not generate (and a few more samples), each video followed to its end.
// Each is a check of the catalogue, so that --plan, the credit budget, the profile's needs and the
// run read its declaration (what it sends, costs and risks) as they read the suite's own; its judge
// only hands its record to calibration.
import { randomUUID } from 'node:crypto';
import { MAX_RUNNING, POLLING, RATE_LIMITS, type RateClass } from '@videogen/openapi/rules';
import { need, probe, type Check, type Sender } from '../engine/catalogue.ts';
import { untilGuard } from '../engine/outcomes.ts';
import type { Run } from '../engine/run.ts';
import { COMBINATIONS, modeForm, settingFixture } from '../scenarios/forms.ts';
import { roles } from '../scenarios/generations.ts';
import { idOf, ok, TERMINAL } from '../scenarios/videos.ts';
import type { Exchange, TargetConfig } from '../shapes.ts';
import {
  attemptsOf,
  candidateLimits,
  EXTRA_STEPS,
  IDLE_WINDOWS,
  nextAttempt,
  schedule,
  scheduleCost,
} from './limiter.ts';
import { SIGNATURE_PARAM, type Probe as ProbeKind, type Seen } from './seen.ts';

/** What the probes hand to calibration: the limiter's exchanges per class, and the downloads tried. */
export interface ProbeRecords {
  limiter: Partial<Record<RateClass, { exchanges: Exchange[] }>>;
  /** Requests outside the API (download URLs), as calibration reads them. */
  outside: Seen[];
  /** Exchanges sent for a behaviour of their own (the encodings asked for). */
  tagged: Map<Exchange, ProbeKind>;
  /** A limiter probe is running: nothing else may send (the videos' watch waits). */
  quiet: boolean;
}

export const emptyRecords = (): ProbeRecords => ({ limiter: {}, outside: [], tagged: new Map(), quiet: false });

/** Extra duration samples within the default budget: text generations and one conversion beyond the suite's. */
export const EXTRA_SAMPLES = { text: 2, conversion: 1 } as const;

/** A token that is no key of anyone's: what the download is tried with (the account's key never leaves for another host). */
export const PROBE_AUTHORIZATION = 'Bearer calibrate-probe-not-a-key';

/** The schedule, and the extra steps at most (each at most the limit and one more). */
const LIMITER_REQUESTS = (cls: RateClass) =>
  scheduleCost(RATE_LIMITS[cls].requests, RATE_LIMITS[cls].windowMs).requests +
  EXTRA_STEPS * (RATE_LIMITS[cls].requests + 1);

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/** The probe of one class's limiter: a quiet window, then the schedule, each burst stopping at its first 429. */
async function probeLimiter(s: Sender, cls: RateClass, records: ProbeRecords): Promise<{ exchanges: Exchange[] }> {
  records.quiet = true;
  try {
    return await scheduled(s, cls);
  } finally {
    records.quiet = false;
  }
}

async function scheduled(s: Sender, cls: RateClass): Promise<{ exchanges: Exchange[] }> {
  const { run } = s;
  const { requests, windowMs } = RATE_LIMITS[cls];
  const real = windowMs / run.timeScale;
  // A quiet class: the pacer's own window since its last request, and one more for refusals that counted.
  await run.pacer.drain(cls, 'main');
  await sleep((IDLE_WINDOWS - 1) * real);
  const call = (): Promise<Exchange> =>
    cls === 'B'
      ? s.main.call('listVideoSettings', { pace: false, retry: false })
      : // A conversion of a video that does not exist: 404 NOT_FOUND by 7.2 where the limiter lets it through.
        s.main.call('createConversion', {
          path: { video_id: randomUUID() },
          json: { aspect_ratio: '1:1' },
          pace: false,
          retry: false,
          gate: false,
        });
  const exchanges: Exchange[] = [];
  /** One request; a transient 5xx (which says nothing of the limiter) sent again once, at once. */
  const send = async (): Promise<Exchange> => {
    let ex = await call();
    exchanges.push(ex);
    if (ex.status >= 500 && ex.status !== 503) {
      ex = await call();
      exchanges.push(ex);
    }
    return ex;
  };
  const start = Date.now();
  for (const step of schedule(requests, real)) {
    await sleep(start + step.at - Date.now());
    for (let i = 0; i < step.max; i++) if ((await send()).status === 429) break;
  }
  // Answers that leave two behaviours: single requests where they would answer otherwise, at most EXTRA.
  for (let extra = 0; extra < EXTRA_STEPS; extra++) {
    const attempts = attemptsOf(exchanges);
    const next = nextAttempt(attempts, candidateLimits(attempts, requests), [real], Date.now());
    if (next === undefined) break;
    await sleep(next.at - Date.now());
    for (let i = 0; i < next.max; i++) if ((await send()).status === 429) break;
  }
  return { exchanges };
}

/** A download URL's request, as calibration reads it (no key: a presigned URL needs none). */
async function fetchDownload(url: string, kind: ProbeKind, headers: Record<string, string> = {}): Promise<Seen> {
  const at = Date.now();
  const started = performance.now();
  let status = 0;
  let text = '';
  const out: Record<string, string> = {};
  try {
    const res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(60_000) });
    status = res.status;
    for (const [k, v] of res.headers) out[k] = v;
    // The head of a video is enough; an error's body is small.
    const reader = res.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader && size < 4096) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
    await reader?.cancel().catch(() => undefined);
    text = /^(video|application\/octet)/i.test(out['content-type'] ?? '') ? '' : Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    text = (err as Error).message;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return {
    source: 'live',
    method: 'GET',
    url,
    path: url,
    params: {},
    query: Object.fromEntries(new URL(url).searchParams),
    auth: 'none',
    requestHeaders: headers.authorization ? { authorization: 'Bearer [redacted]' } : {},
    status,
    headers: out,
    text,
    body,
    at,
    ms: performance.now() - started,
    probe: kind,
  };
}

/** The URL with the last character of its signature changed (a tampered or stale link). */
export function tampered(url: string): string {
  const u = new URL(url);
  const name = [...u.searchParams.keys()].find((k) => SIGNATURE_PARAM.test(k));
  const value = name ? u.searchParams.get(name) : undefined;
  if (!name || !value) return `${url}${u.search ? '&' : '?'}tampered=1`;
  const last = value.slice(-1);
  u.searchParams.set(name, value.slice(0, -1) + (last === '0' ? '1' : '0'));
  return u.href;
}

/**
 * Reads the run's videos that may still run, each in turn at the class-B pace (finer than 4.7's 10 s,
 * so that each duration is timed closely), until at most `most` of them run, or the polling timeout.
 */
async function readUntilRunning(run: Run, most: number): Promise<void> {
  const deadline = Date.now() + POLLING.timeoutMs / run.timeScale;
  for (;;) {
    const open = run.created.filter((id) => !run.finished.has(id));
    if (open.length <= most || Date.now() > deadline) return;
    for (const id of open) {
      const ex = await run.main.call('getVideo', { path: { video_id: id } });
      const status = (ex.body as { status?: unknown } | undefined)?.status;
      if (!ok(ex) || (typeof status === 'string' && TERMINAL.includes(status))) run.finished.add(id);
    }
  }
}

/** Starts a video once fewer than MAX_RUNNING of the run's own run. */
const whenFree = (run: Run) => readUntilRunning(run, MAX_RUNNING - 1);
/** Follows every video of the run to its end. */
const followToTheEnd = (run: Run) => readUntilRunning(run, 0);

/**
 * A generation or conversion of a probe, once fewer than MAX_RUNNING of the run's videos run: its video
 * followed. Answered a transient 5xx the suite did not send again (it may have made a video it cannot
 * tell apart: a file without text), it is sent once more: a probe's purpose is its answer, and the credit
 * guard counts the first as spent, so the budget still holds.
 */
async function start(s: Sender, send: () => Promise<Exchange>): Promise<Exchange> {
  await whenFree(s.run);
  let ex = await send();
  if (ex.status >= 500 && ex.status !== 503 && ex.notResent) ex = await send();
  const id = idOf(ex);
  if (id) s.run.created.push(id);
  return ex;
}

/** Service seconds between two status reads of one video by the watch (durations are timed to within half of it). */
export const WATCH_SECONDS = 5;

/**
 * Reads, in the background of a run, the status of every video it created until each ends, one read per
 * video every WATCH_SECONDS (paced as class B, waiting while a limiter probe runs): the suite's own
 * scenarios read their videos when they need to, and a duration needs its end seen soon after it came.
 */
export function watchVideos(run: Run, records: ProbeRecords): { stop(): Promise<void> } {
  let stopped = false;
  const last = new Map<string, number>();
  const every = (WATCH_SECONDS * 1000) / run.timeScale;
  const loop = run.as('calibrate: video watch', async () => {
    while (!stopped) {
      const now = Date.now();
      const due = records.quiet
        ? undefined
        : run.created.find((id) => !run.finished.has(id) && now - (last.get(id) ?? 0) >= every);
      if (!due) {
        await sleep(Math.min(50, every / 4));
        continue;
      }
      last.set(due, now);
      try {
        const ex = await run.main.call('getVideo', { path: { video_id: due } });
        const status = (ex.body as { status?: unknown } | undefined)?.status;
        if (ok(ex) && typeof status === 'string' && TERMINAL.includes(status)) run.finished.add(due);
      } catch {
        // A read that got no answer: the next one tells.
      }
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** The input modes the suite's own generations leave out (their durations need a generation here). */
export function modesLeftOut(target: TargetConfig) {
  const generated = new Set(roles(target).generated.map((c) => c.fields.filter((f) => f !== 'image_files').join('+')));
  return COMBINATIONS.filter((c) => !c.withOptional && !generated.has(c.fields.join('+')));
}

const FULL = need.profile('full', 'generations to time (a credit each)');
const BURSTS = need.profile('no-credit', 'limiter probes (bursts that meet a few 429s, no credit)');
const POSTS = need.profile('no-credit', 'POST requests');

/**
 * The calibration probes, each handing its record to `records`: `first`, those that spend no credit (sent
 * before the suite's scenarios, so that a budget the suite spends, or a create a transient 5xx may have
 * made, never keeps them from going out); `last`, those that spend, or may.
 */
export function calibrationChecks(target: TargetConfig, records: ProbeRecords): { first: Check[]; last: Check[] } {
  const left = modesLeftOut(target);
  const keep =
    <R>(put: (r: R) => void) =>
    (r: R) =>
      put(r);
  const first: Check[] = [
    probe('listVideoSettings', 'calibrate_encoding', {
      cost: { B: 3 },
      send: async (s) => {
        const out: Exchange[] = [];
        for (const accept of ['identity', 'gzip', 'br, gzip'])
          out.push(await s.main.call('listVideoSettings', { headers: { 'accept-encoding': accept } }));
        return out;
      },
      judge: keep((out: Exchange[]) => {
        for (const ex of out) records.tagged.set(ex, 'encoding');
      }),
    }),
    probe('getVideo', 'calibrate_download', {
      needs: [need.fixture('completedVideoId')],
      cost: { B: 1 },
      send: async (s) => {
        const id = await s.fixture('completedVideoId');
        const view = await s.main.call('getVideo', { path: { video_id: id } });
        const url = (view.body as { download_url?: unknown } | undefined)?.download_url;
        if (!ok(view) || typeof url !== 'string' || !url) return [];
        return [
          await fetchDownload(url, 'download'),
          await fetchDownload(url, 'download_with_authorization', { authorization: PROBE_AUTHORIZATION }),
          await fetchDownload(tampered(url), 'download_tampered'),
        ];
      },
      judge: keep((seen: Seen[]) => records.outside.push(...seen)),
    }),
    ...(['B', 'A'] as const).map((cls) =>
      probe(cls === 'B' ? 'listVideoSettings' : 'createConversion', `calibrate_limiter_${cls}`, {
        needs: [BURSTS],
        cost:
          cls === 'B'
            ? { B: LIMITER_REQUESTS('B'), upTo: true }
            : { A: LIMITER_REQUESTS('A'), upToA: true, atRisk: LIMITER_REQUESTS('A') },
        send: (s) => probeLimiter(s, cls, records),
        judge: keep((r: { exchanges: Exchange[] }) => {
          records.limiter[cls] = r;
          for (const ex of r.exchanges) records.tagged.set(ex, 'limiter');
        }),
      }),
    ),
    probe('generateVideo', 'calibrate_empty_text', {
      needs: [POSTS, need.fixture('videoSettingId')],
      cost: { A: 1, atRisk: 1 },
      send: async (s) => s.main.call('generateVideo', { form: emptyTextForm(await s.fixture('videoSettingId')) }),
      judge: () => undefined,
    }),
  ];
  const last: Check[] = [
    probe('generateVideo', 'calibrate_request_fields', {
      // A valid combination that is part of its setting's request_fields (text alone, to a text + PDF
      // setting): refused where every listed field is required (DECISIONS #26), accepted (a credit) where
      // any listed subset is.
      needs: [FULL, need.fixture('textPdfSettingId')],
      cost: { A: 1, atRisk: 1 },
      send: async (s) => {
        const setting = await s.fixture('textPdfSettingId');
        return start(s, () => s.main.call('generateVideo', { form: modeForm(setting, ['text']) }));
      },
      judge: () => undefined,
    }),
    probe('getVideo', 'calibrate_durations', {
      needs: [FULL],
      cost: () => ({ A: left.length, credits: left.length, reads: left.length, B: 1, upTo: true }),
      send: async (s) => {
        const { stopped } = await untilGuard(
          left.map((c) => async () => {
            const setting = await s.maybeFixture(settingFixture(c));
            if (!setting) return;
            await start(s, () => s.main.call('generateVideo', { form: modeForm(setting, c.fields) }));
          }),
        );
        await followToTheEnd(s.run);
        return stopped;
      },
      judge: () => undefined,
    }),
    probe('getVideo', 'calibrate_duration_samples', {
      needs: [FULL, need.budget('more duration samples (a credit each)'), need.fixture('videoSettingId')],
      cost: {
        A: EXTRA_SAMPLES.text + EXTRA_SAMPLES.conversion,
        credits: EXTRA_SAMPLES.text + EXTRA_SAMPLES.conversion,
        reads: EXTRA_SAMPLES.text + EXTRA_SAMPLES.conversion,
        B: 1,
        upTo: true,
      },
      send: async (s) => {
        const text = COMBINATIONS.find((c) => c.key === 'text');
        const setting = await s.fixture('videoSettingId');
        const source = await s.maybeFixture('convertibleVideoId');
        const { stopped } = await untilGuard([
          ...Array.from({ length: EXTRA_SAMPLES.text }, () => async () => {
            await start(s, () => s.main.call('generateVideo', { form: modeForm(setting, text?.fields ?? ['text']) }));
          }),
          ...Array.from({ length: EXTRA_SAMPLES.conversion }, () => async () => {
            if (!source) return;
            const options = await s.main.call('getConversionOptions', { path: { video_id: source } });
            const body = options.body as
              | { current_aspect_ratio?: unknown; available_aspect_ratios?: unknown }
              | undefined;
            const ratios = Array.isArray(body?.available_aspect_ratios) ? body.available_aspect_ratios : [];
            const ratio = ratios.find((r) => typeof r === 'string' && r !== body?.current_aspect_ratio);
            if (typeof ratio !== 'string') return;
            await start(s, () =>
              s.main.call('createConversion', { path: { video_id: source }, json: { aspect_ratio: ratio } }),
            );
          }),
        ]);
        await followToTheEnd(s.run);
        return stopped;
      },
      judge: () => undefined,
    }),
  ];
  return { first, last };
}

function emptyTextForm(setting: string): FormData {
  const form = new FormData();
  form.append('video_setting_id', setting);
  form.append('text', '');
  return form;
}
