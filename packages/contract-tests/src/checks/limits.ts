// The limits of section 8: a burst past class B answers 429; a third simultaneous generation 503.
import { MAX_RUNNING, RATE_LIMITS, parseRetryAfter } from '@videogen/openapi/rules';
import { check, ensure, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';
import type { Exchange } from '../http.ts';
import { textForm } from './requests.ts';
import { byNewest } from '../fixtures.ts';

export const limitChecks: Check[] = [
  check('listVideoSettings', 'rate_limit_burst', async (ctx) => {
    ctx.requireFull('bursts');
    ctx.requireStateful('it has no rate limits');
    const { pacer } = ctx.run;
    await pacer.drain('B', 'main');
    // One more than the window allows, by the spec's reading or the target's own (the larger), all at
    // once and unpaced.
    const n = Math.max(pacer.limitOf('B', 'main').limit, RATE_LIMITS.B.requests) + 1;
    const all = await Promise.all(Array.from({ length: n }, () => ctx.main.get('/video-settings/', { pace: false, retry: false })));
    const limited = all.filter((ex) => ex.status === 429);
    ensure(limited.length > 0, `${n} requests at once (class B allows ${RATE_LIMITS.B.requests} per ${RATE_LIMITS.B.windowMs / 1000} s) got no 429: ${all.map((e) => e.status).join(', ')}`);
    for (const ex of all) ensure(ex.status === 200 || ex.status === 429, `a burst answered ${ex.status}`, ex);
    for (const ex of limited) {
      ensureError(ex, [429]);
      const ra = ex.headers.get('retry-after');
      if (ra !== null) ensure(parseRetryAfter(ra) !== undefined, `Retry-After "${ra}" is neither a number of seconds nor an HTTP-date`, ex);
    }
  }),
  check('generateVideo', 'concurrency_limit', async (ctx) => {
    const c = await saturate(ctx);
    // Judged by the state established before sending: two running. A queue that holds the third and
    // answers 200 once a slot frees breaks 8.2 all the same.
    if (!c.twoRunning) ctx.skip('the first two generations had already finished when the third was to be sent (too fast to test the limit)');
    ensureError(c.third, [503], 'SIMULTANEOUS_GENERATE_LIMIT');
  }),
  check('createConversion', 'concurrency_limit_shared', async (ctx) => {
    // 8.2.2: conversions count toward the same limit as generation.
    const c = await saturate(ctx);
    if (!c.conversion) return ctx.skip('no convertible fixture to convert while two generations run');
    if (!c.twoRunningForConversion && c.conversion.status !== 503) ctx.skip('the two generations had finished by the time the conversion was answered (too fast to test the limit)');
    ensureError(c.conversion, [503], 'SIMULTANEOUS_GENERATE_LIMIT');
  }),
];

interface Saturated {
  third: Exchange;
  conversion?: Exchange;
  /** Both generations were seen running just before the third was sent. */
  twoRunning: boolean;
  /** Both generations were still running after the conversion was answered (so while it was sent). */
  twoRunningForConversion: boolean;
}

/** Whether every one of `ids` is running now (status reads). */
async function allRunning(ctx: CheckContext, ids: string[]): Promise<boolean> {
  for (const id of ids) {
    const ex = await ctx.main.get(`/videos/${id}/`);
    if (ex.status !== 200 || (ex.body as any)?.status !== 'running') return false;
  }
  return true;
}

/**
 * Waits until the account runs no video the suite can see: ours, and the newest ones listed (another
 * user of the account may be generating). The list shows no status, so the newest few are read.
 */
async function waitForIdleAccount(ctx: CheckContext): Promise<void> {
  const { run } = ctx;
  const listed = await ctx.main.get('/videos/');
  // Newest first whatever order the target lists in (DECISIONS #18), as fixture discovery reads them.
  const newest = listed.status === 200 ? [...((listed.body as any)?.results ?? [])].sort(byNewest).slice(0, 5).map((v: any) => v.video_id) : [];
  const watch = [...new Set([...run.created.filter((id) => !run.finished.has(id)), ...newest])];
  for (const id of watch) {
    for (let polls = 0; polls < 120; polls++) {
      const ex = await ctx.main.get(`/videos/${id}/`);
      if (ex.status !== 200 || (ex.body as any).status !== 'running') break;
      await run.sleep(5);
    }
  }
}

/** Two generations running, then a third generation and a conversion: both must be refused. */
function saturate(ctx: CheckContext): Promise<Saturated> {
  ctx.requireFull('generating videos');
  ctx.requireStateful('it has no running videos');
  return ctx.run.once('concurrency', async () => {
    const setting = await ctx.fixture('videoSettingId');
    const source = (await ctx.run.fixtures()).convertibleVideoId;
    const { run } = ctx;
    // Start from no running video, so that exactly MAX_RUNNING are running when one more is asked.
    await waitForIdleAccount(ctx);
    const ids: string[] = [];
    for (let n = 1; n <= MAX_RUNNING; n++) {
      const ex = await ctx.main.post('/videos/generate/', { form: textForm(setting, `Contract suite: concurrency ${n}`), retry: false });
      const body = ensureStatus(ex, 200, `generation ${n} of ${MAX_RUNNING} (the limit allows ${MAX_RUNNING} running)`);
      ids.push(body.video_id);
      run.created.push(body.video_id);
    }
    // Establish the state before sending: both running. The sends go unpaced for the concurrency gate
    // (pace: false would skip the rate limit too, so the pacer is told what is running instead).
    run.pacer.noteRunning(ids, 'main');
    const twoRunning = await allRunning(ctx, ids);
    // The 503s are the answers provoked here, not server errors.
    const third = await ctx.main.post('/videos/generate/', { form: textForm(setting, `Contract suite: concurrency ${MAX_RUNNING + 1}`), retry: false, expectServerError: true, gate: false });
    if (third.status >= 200 && third.status < 300) run.created.push((third.body as any).video_id);
    let conversion: Exchange | undefined;
    let twoRunningForConversion = false;
    if (source) {
      conversion = await ctx.main.post(`/videos/${source}/conversions/`, { json: { aspect_ratio: '1:1' }, retry: false, expectServerError: true, gate: false });
      if (conversion.status >= 200 && conversion.status < 300) run.created.push((conversion.body as any).video_id);
      // Read after sending, to lose no time before it: a video running now was running when it was sent.
      twoRunningForConversion = await allRunning(ctx, ids);
    }
    return { third, conversion, twoRunning, twoRunningForConversion };
  });
}
