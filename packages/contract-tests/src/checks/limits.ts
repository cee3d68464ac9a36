// The limits of section 8: a burst past class B answers 429; a third simultaneous generation 503.
import { MAX_RUNNING, RATE_LIMITS, parseRetryAfter } from '@videogen/openapi/rules';
import { check, ContractViolation, ensure, ensureError, ensureStatus, type Check, type CheckContext } from './types.ts';
import type { Exchange } from '../http.ts';
import { generated } from './generation.ts';
import type { ConcurrencyProbe } from './shared-generations.ts';

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
  // Both judge the run's shared generations (shared-generations.ts): its probe filled the running
  // places with them and then sent a third generation and a conversion.
  check('generateVideo', 'concurrency_limit', async (ctx) => {
    const p = await probed(ctx);
    // Judged by the state established before sending: all running. A queue that holds the third and
    // answers 200 once a place frees breaks 8.2 all the same.
    if (!p.allRunning) ctx.skip('the generations filling the running places had already finished when the third was to be sent (too fast to test the limit)');
    showing(p.filling, () => ensureError(p.third, [503], 'SIMULTANEOUS_GENERATE_LIMIT'));
  }),
  check('createConversion', 'concurrency_limit_shared', async (ctx) => {
    // 8.2.2: conversions count toward the same limit as generation.
    const p = await probed(ctx);
    if (!p.conversion) return ctx.skip('no convertible fixture to convert while the running places are full');
    if (!p.allRunningForConversion && p.conversion.status !== 503) ctx.skip('the generations filling the running places had finished by the time the conversion was answered (too fast to test the limit)');
    showing(p.filling, () => ensureError(p.conversion!, [503], 'SIMULTANEOUS_GENERATE_LIMIT'));
  }),
];

/** The concurrency probe of the shared generations, both of its generations checked as accepted. */
async function probed(ctx: CheckContext): Promise<ConcurrencyProbe & { filling: Exchange[] }> {
  ctx.requireStateful('it has no running videos');
  const { g } = await generated(ctx);
  ensureStatus(g.second ?? ctx.skip('no second generation was sent (the credit budget)'), 200, `the second generation (the limit allows ${MAX_RUNNING} running)`);
  if (g.probeSkipped) ctx.skip(g.probeSkipped);
  const p = g.probe ?? ctx.skip('the generations filling the running places were not all accepted');
  return { ...p, filling: [g.first, g.second!] };
}

/**
 * A failure also shows the generations that filled the running places (sent by the first check of the
 * shared generations), so that its failure bundle replays them before the refused request.
 */
function showing(filling: Exchange[], judge: () => void): void {
  try {
    judge();
  } catch (err) {
    if (err instanceof ContractViolation) err.exchanges.unshift(...filling.filter((e) => !err.exchanges.includes(e)));
    throw err;
  }
}
