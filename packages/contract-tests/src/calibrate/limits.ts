// The rate_limit.{class}.* behaviours: from the limiter probe's answers (limiter.ts infers the style,
// the numbers and whether refusals count), else from what the target states in its headers
// (RateLimit-Policy, X-RateLimit-Limit), which give numbers but no style.
import { OPERATIONS, parseRateLimitHeaders, RATE_LIMITS, type RateClass } from '@videogen/openapi/rules';
import type { BehaviourKey } from '@videogen/openapi/twin';
import type { Exchange } from '../shapes.ts';
import type { Finding } from './extract.ts';
import { attemptsOf, candidateLimits, infer } from './limiter.ts';
import { fromExchange, type Seen } from './seen.ts';

/** What the target states of a class's limit in its headers (real ms), and the answer that states it. */
export function statedLimit(
  seen: Seen[],
  cls: RateClass,
): { limit?: number; windowMs?: number; seen: Seen } | undefined {
  const ops = new Set(OPERATIONS.filter((o) => o.rateClass === cls).map((o) => o.operationId as string));
  for (const s of seen) {
    if (s.auth !== 'key' || !s.operationId || !ops.has(s.operationId)) continue;
    const policy = parseRateLimitHeaders(s.headers).policies[0];
    if (policy) return { limit: policy.limit, windowMs: policy.windowMs, seen: s };
    const x = Number(s.headers['x-ratelimit-limit']);
    if (Number.isInteger(x) && x > 0) return { limit: x, seen: s };
  }
  return undefined;
}

/** Rounded to 3 significant digits (a window read back through a time scale). */
const sig3 = (x: number) => Number(x.toPrecision(3));

export function limiterFindings(
  cls: RateClass,
  probe: { exchanges: Exchange[] } | undefined,
  seen: Seen[],
  timeScale: number,
  add: (key: BehaviourKey, f: Finding | string) => void,
): void {
  const key = (k: string) => `rate_limit.${cls}.${k}` as BehaviourKey;
  const nominal = RATE_LIMITS[cls];
  const stated = statedLimit(seen, cls);
  const toService = (ms: number) => sig3((ms * timeScale) / 1000);
  if (!probe || !probe.exchanges.length) {
    const why = 'not probed (the limiter probe sends bursts: --profile no-credit)';
    add(key('style'), why);
    add(key('refused_count'), why);
    if (stated?.limit !== undefined)
      add(key('limit'), {
        value: stated.limit,
        evidence: [stated.seen],
        note: 'as the target states it in its headers; not probed',
      });
    else add(key('limit'), why);
    if (stated?.windowMs !== undefined)
      add(key('window_seconds'), {
        value: toService(stated.windowMs),
        evidence: [stated.seen],
        note: 'as the target states it in RateLimit-Policy; not probed',
      });
    else add(key('window_seconds'), why);
    return;
  }
  const attempts = attemptsOf(probe.exchanges);
  const realWindow = nominal.windowMs / timeScale;
  const limits = candidateLimits(attempts, nominal.requests, stated?.limit);
  const windows = [...new Set([realWindow, stated?.windowMs])].filter(
    (w): w is number => typeof w === 'number' && w > 0,
  );
  const inferred = infer(attempts, limits, windows);
  const evidence = probe.exchanges.map((ex) => fromExchange(ex, 'limiter'));
  const refusals = evidence.filter((s) => s.status === 429);
  const shown = [...refusals.slice(0, 2), ...evidence.filter((s) => s.status !== 429).slice(0, 2)];
  const sequence = attempts.map((a) => (a.allowed ? '✓' : '✗')).join('');
  if (!inferred) {
    const why = `no limiter of the four styles explains the probe's ${attempts.length} answers (${sequence}) with a limit of ${limits.join(', ')} per ${windows.map(toService).join(' or ')} s`;
    for (const k of ['style', 'refused_count', 'limit', 'window_seconds']) add(key(k), why);
    return;
  }
  const ambiguous = inferred.candidates.length > 1;
  const note = `${attempts.length} answers of the probe (${sequence}: ✓ let through, ✗ 429) ${ambiguous ? `are explained as well by ${inferred.candidates.join(', ')}; the strictest is kept` : `are explained best by ${inferred.candidates[0]} among the four styles (the fewest answers taken at a boundary within their round trip)`}`;
  add(key('style'), { value: inferred.style, evidence: shown, samples: attempts.length, note });
  add(key('limit'), { value: inferred.limit, evidence: shown, samples: attempts.length, note });
  add(key('window_seconds'), { value: toService(inferred.windowMs), evidence: shown, samples: attempts.length, note });
  if (inferred.refusedCount === undefined)
    add(key('refused_count'), 'a fixed window answers the same whether refused requests count or not: not observable');
  else
    add(key('refused_count'), {
      value: inferred.refusedCount,
      evidence: refusals.length ? refusals.slice(0, 3) : shown,
      samples: attempts.length,
      note,
    });
}
