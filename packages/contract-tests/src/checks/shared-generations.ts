// The run's shared generations: made once and judged by several checks, because each generation costs
// a credit on a real service. Two generations serve eight checks: the five generation checks
// (generation.ts), the pdf_file input mode (generation-modes.ts) and both concurrency checks
// (limits.ts). They are one budget group (check-costs.ts), taken whole or not at all.
//
// On a stateful target they are also the concurrency probe (8.2): the account is first left with no
// running video the suite can see, so that while both run a third generation and a conversion must
// be refused.
import { SkipError, type CheckContext } from './types.ts';
import type { Exchange } from '../http.ts';
import { textForm } from './requests.ts';
import { modeForm } from './mode-forms.ts';
import { maxRunning, waitUntilRunningAtMost } from './video-helpers.ts';
import { byNewest, INPUT_MODES } from '../fixtures.ts';

export const CONCURRENCY_LIMIT = 'generateVideo › concurrency_limit';
export const CONCURRENCY_SHARED = 'createConversion › concurrency_limit_shared';

/** How many of the account's newest videos the idle wait reads (the list shows no status). */
export const NEWEST_READ = 5;

/** Generations the group makes for itself (a text one and SHARED_MODE's): both fill running places. */
export const SHARED = 2;

/** The input mode whose check judges the second generation instead of sending its own. */
export const SHARED_MODE = INPUT_MODES.find((m) => m.name === 'pdf_file')!;

export interface ConcurrencyProbe {
  third: Exchange;
  conversion?: Exchange;
  /** Every filling generation was seen running just before the third was sent. */
  allRunning: boolean;
  /** They were all still running after the conversion was answered (so while it was sent). */
  allRunningForConversion: boolean;
}

export interface SharedGenerations {
  /** A text generation. */
  first: Exchange;
  /** GET of the first video right after its creation (it should still be running); stateful targets. */
  firstStatus?: Exchange;
  /** The pdf_file input mode's generation (when the target has a pdf-only setting). */
  modeGeneration?: Exchange;
  /** The second generation: the mode's when it was accepted, else a second text one (so that a refused pdf_file fails its own check only). */
  second?: Exchange;
  /** Stateful targets, when the generations were accepted. */
  probe?: ConcurrencyProbe;
  /** Why the probe was not sent (the credit budget): the concurrency checks skip with it, the others judge the videos. */
  probeSkipped?: string;
}

const idOf = (ex: Exchange | undefined): string | undefined => {
  const id = (ex?.body as any)?.video_id;
  return ex && ex.status >= 200 && ex.status < 300 && typeof id === 'string' ? id : undefined;
};

export function sharedGenerations(ctx: CheckContext): Promise<SharedGenerations> {
  return ctx.run.once('shared generations', async () => {
    const { run } = ctx;
    const fixtures = await run.fixtures();
    const setting = await ctx.fixture('videoSettingId');
    // The run's guard (Run.beforeSend) sends no generation or conversion once the budget is spent, not
    // even one a conforming target refuses: the probe needs a credit left after the generations filling
    // the running places. Decided before any is sent, as the plan does (plan.ts).
    const filling = Math.max(maxRunning(ctx), SHARED);
    const probeSkipped =
      run.creditBudget !== undefined && run.creditsSpent + filling >= run.creditBudget
        ? `credit budget ${run.creditBudget} (CONTRACT_CREDIT_BUDGET) spent by the ${filling} generations filling the running places: the third generation and the conversion, which a target that wrongly accepted them would charge, are not sent`
        : undefined;
    const probing = run.target.stateful && !probeSkipped;
    // Start from no running video, so that exactly the ones sent here are running when one more is asked.
    if (probing) await run.onBehalfOf(CONCURRENCY_LIMIT, () => waitForIdleAccount(ctx));
    // Any 2xx with an id goes on: the success status is our choice (DECISIONS #2), judged in the checks.
    const first = await ctx.main.post('/videos/generate/', { form: textForm(setting, 'Contract suite: explain the water cycle in one minute.') });
    const out: SharedGenerations = { first, probeSkipped };
    const firstId = idOf(first);
    if (!firstId) return out;
    run.created.push(firstId);
    if (run.target.stateful) out.firstStatus = await ctx.main.get(`/videos/${firstId}/`);
    const modeSetting = fixtures[SHARED_MODE.fixture];
    if (modeSetting) {
      out.modeGeneration = await ctx.main.post('/videos/generate/', { form: modeForm(modeSetting, SHARED_MODE.fields) });
      if (idOf(out.modeGeneration)) out.second = out.modeGeneration;
    }
    try {
      out.second ??= await ctx.main.post('/videos/generate/', { form: textForm(setting, 'Contract suite: explain the water cycle, second take.') });
    } catch (e) {
      // The credit budget may stop this extra generation: the checks that need a second one then skip.
      if (!(e instanceof SkipError)) throw e;
      return out;
    }
    const secondId = idOf(out.second);
    if (!secondId) return out;
    run.created.push(secondId);
    if (!probing) return out;
    try {
      out.probe = await probe(ctx, setting, [firstId, secondId]);
    } catch (e) {
      // The guard refused a probe request after all: the generations stand, the concurrency checks skip.
      if (!(e instanceof SkipError)) throw e;
      out.probeSkipped = e.reason;
    }
    return out;
  });
}

/**
 * With the account's running places filled by `ids` (and, were the limit above two, more text
 * generations), a third generation and a conversion of the convertible fixture: 8.2 says both are
 * refused with 503 SIMULTANEOUS_GENERATE_LIMIT.
 */
async function probe(ctx: CheckContext, setting: string, ids: string[]): Promise<ConcurrencyProbe> {
  const { run } = ctx;
  // Sent on the concurrency checks' behalf: their plan counts and their failure bundles.
  const { third, allRunning } = await run.onBehalfOf(CONCURRENCY_LIMIT, async () => {
    for (let n = ids.length + 1; n <= maxRunning(ctx); n++) {
      const id = idOf(await ctx.main.post('/videos/generate/', { form: textForm(setting, `Contract suite: concurrency ${n}`), retry: false }));
      if (id) ids.push(id), run.created.push(id);
    }
    // Establish the state before sending: all running. The sends skip the pacer's concurrency gate
    // (pace: false would skip the rate limit too), so the pacer is told what is running instead.
    run.pacer.noteRunning(ids, 'main');
    const allRunning = await everyRunning(ctx, ids);
    // The 503s are the answers provoked here, not server errors.
    const third = await ctx.main.post('/videos/generate/', { form: textForm(setting, 'Contract suite: one more than the limit'), retry: false, expectServerError: true, gate: false });
    const thirdId = idOf(third);
    if (thirdId) run.created.push(thirdId);
    return { third, allRunning };
  });
  const source = (await run.fixtures()).convertibleVideoId;
  if (!source) return { third, allRunning, allRunningForConversion: false };
  return run.onBehalfOf(CONCURRENCY_SHARED, async () => {
    const conversion = await ctx.main.post(`/videos/${source}/conversions/`, { json: { aspect_ratio: '1:1' }, retry: false, expectServerError: true, gate: false });
    const conversionId = idOf(conversion);
    if (conversionId) run.created.push(conversionId);
    // Read after sending, to lose no time before it: a video running now was running when it was sent.
    return { third, conversion, allRunning, allRunningForConversion: await everyRunning(ctx, ids) };
  });
}

/** Whether every one of `ids` is running now (status reads). */
async function everyRunning(ctx: CheckContext, ids: string[]): Promise<boolean> {
  for (const id of ids) {
    const ex = await ctx.main.get(`/videos/${id}/`);
    if (ex.status !== 200 || (ex.body as any)?.status !== 'running') return false;
  }
  return true;
}

/**
 * Waits until the account runs no video the suite can see: this run's, and the newest listed (another
 * user of the account may be generating). The list shows no status, so the newest NEWEST_READ are read. Past
 * the polling timeout it carries on: the probe then judges by the state it sees.
 */
async function waitForIdleAccount(ctx: CheckContext): Promise<void> {
  const listed = await ctx.main.get('/videos/');
  // Newest first whatever order the target lists in (DECISIONS #18), as fixture discovery reads them.
  const newest = listed.status === 200 ? [...((listed.body as any)?.results ?? [])].sort(byNewest).slice(0, NEWEST_READ).map((v: any) => v.video_id) : [];
  await waitUntilRunningAtMost(ctx, [...new Set([...ctx.run.created, ...newest])], 0, { carryOn: true });
}
