// The limits of section 8: a burst past class B answers 429; a third simultaneous generation 503.
import { check, ensure, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';
import type { Exchange } from '../http.ts';
import { textForm } from './requests.ts';

export const limitChecks: Check[] = [
  check('listVideoSettings', 'rate_limit_burst', async (ctx) => {
    ctx.requireFull('bursts');
    ctx.requireStateful('it has no rate limits');
    const { pacer } = ctx.run;
    await pacer.drain('main', 'B');
    const n = pacer.classOf('B').limit + 1;
    // One more than the window allows, all at once and unpaced.
    const all = await Promise.all(Array.from({ length: n }, () => ctx.main.get('/video-settings/', { pace: false, retry: false })));
    const limited = all.filter((ex) => ex.status === 429);
    ensure(limited.length > 0, `${n} requests at once (class B allows ${n - 1} per window) got no 429: ${all.map((e) => e.status).join(', ')}`);
    for (const ex of all) ensure(ex.status === 200 || ex.status === 429, `a burst answered ${ex.status}`, ex);
    for (const ex of limited) {
      ensureError(ex, [429]);
      const ra = ex.headers.get('retry-after');
      if (ra !== null) ensure(Number.isFinite(Number(ra)) && Number(ra) >= 0, `Retry-After "${ra}" is not a number of seconds`, ex);
    }
  }),
  check('generateVideo', 'concurrency_limit', async (ctx) => {
    const c = await saturate(ctx);
    if (!c.stillRunning && c.third.status !== 503) ctx.skip('the first two generations were not both running when the third was about to be sent');
    ensureError(c.third, [503], 'SIMULTANEOUS_GENERATE_LIMIT');
  }),
  check('createConversion', 'concurrency_limit_shared', async (ctx) => {
    // 8.2.2: conversions count toward the same limit as generation.
    const c = await saturate(ctx);
    if (!c.conversion) return ctx.skip('no convertible fixture to convert while two generations run');
    if (!c.stillRunningForConversion && c.conversion.status !== 503) ctx.skip('the two generations finished before the conversion was sent');
    ensureError(c.conversion, [503], 'SIMULTANEOUS_GENERATE_LIMIT');
  }),
];

interface Saturated {
  third: Exchange;
  conversion?: Exchange;
  /** Both generations read as running just before the third was sent. */
  stillRunning: boolean;
  stillRunningForConversion: boolean;
}

/** Two generations running, then a third generation and a conversion: both must be refused. */
function saturate(ctx: CheckContext): Promise<Saturated> {
  ctx.requireFull('generating videos');
  ctx.requireStateful('it has no running videos');
  return ctx.run.once('concurrency', async () => {
    const setting = await ctx.fixture('videoSettingId');
    const source = (await ctx.run.fixtures()).convertibleVideoId;
    const { run } = ctx;
    // Start from no running video of ours, so that exactly two are running when the third is asked.
    for (const id of run.created) {
      for (;;) {
        const ex = await ctx.main.get(`/videos/${id}/`);
        if (ex.status !== 200 || (ex.body as any).status !== 'running') break;
        await run.sleep(5);
      }
    }
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const ex = await ctx.main.post('/videos/generate/', { form: textForm(setting, `Contract suite: concurrency ${n}`), retry: false });
      const body = ensureStatus(ex, 200, `generation ${n} of 2 (the limit allows 2 running)`);
      ids.push(body.video_id);
      run.created.push(body.video_id);
    }
    // Establish the state before sending the third (issue 10 §2): both read as running now. A service
    // that queued the third until a slot freed and then answered 200 is judged by this state, so it
    // fails the check instead of reading as "the first two finished first".
    const bothRunning = async () => {
      let both = true;
      for (const id of ids) if (((await ctx.main.get(`/videos/${id}/`)).body as any)?.status !== 'running') both = false;
      return both;
    };
    const stillRunning = await bothRunning();
    // The 503s are the answers provoked here, not server errors.
    const third = await ctx.main.post('/videos/generate/', { form: textForm(setting, 'Contract suite: concurrency 3'), retry: false, expectServerError: true });
    if (third.status === 200) run.created.push((third.body as any).video_id);
    // The conversion is judged by the same state, established again just before it is sent.
    const stillRunningForConversion = source ? await bothRunning() : false;
    const conversion = source ? await ctx.main.post(`/videos/${source}/conversions/`, { json: { aspect_ratio: '1:1' }, retry: false, expectServerError: true }) : undefined;
    if (conversion?.status === 200) run.created.push((conversion.body as any).video_id);
    return { third, conversion, stillRunning, stillRunningForConversion };
  });
}
