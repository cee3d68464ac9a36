// --plan: what a run would send, spend and wait, per profile, from the declarations of the catalogue
// (engine/selection.ts): the same selection the run follows. Nothing is sent.
import { MAX_RUNNING, POLLING, RATE_LIMITS, redactUrl } from '@videogen/openapi/rules';
import { requestLine } from '../engine/http.ts';
import { select, type Selection } from '../engine/selection.ts';
import { catalogue } from '../checks/index.ts';
import { SHRINK_REQUESTS } from '../generation/scenarios.ts';
import { DISCOVERY } from '../scenarios/discovery.ts';
import type { PreflightResult } from '../preflight.ts';
import { PROFILES, type Profile, type TargetConfig } from '../shapes.ts';

/** Seconds as a reader wants them: tenths below 10 s (a time-scaled target's run is short), whole seconds above. */
const secs = (ms: number) => `${ms < 10_000 ? (Math.round(ms / 100) / 10).toString() : (ms / 1000).toFixed(0)} s`;

export function plans(target: TargetConfig, budget?: number, profiles: readonly Profile[] = PROFILES): Selection[] {
  const cat = catalogue(target);
  return profiles.map((p) => select(cat, target, p, budget));
}

/** The generated requests: how many at most, and the time they take, bounded by --max-time (wall time). */
function generatedLine(g: Selection['totals']['generated'], target: TargetConfig): string[] {
  const settings = target.generation;
  if (!settings || (!g.A && !g.B)) return [];
  const natural = g.floorMs / target.timeScale;
  const bounded = Math.min(natural, settings.maxTimeMs);
  return [
    `  generated requests (--examples ${settings.examples}${settings.seedGiven ? `, --seed ${settings.seed}` : ''}): at most ${g.A ? `${g.A} class-A and ${g.B} class-B of the above, the two classes side by side` : `${g.B} class-B of the above`}: ${secs(bounded)} more${natural > settings.maxTimeMs ? ` (cut by --max-time ${secs(settings.maxTimeMs)}; ${secs(natural)} for all of them)` : ` at most (--max-time ${secs(settings.maxTimeMs)})`}, and ${SHRINK_REQUESTS} requests more for each failure shrunk`,
  ];
}

export function formatPlans(all: Selection[], target: TargetConfig, preflight?: PreflightResult): string {
  const spacing = Object.entries(RATE_LIMITS)
    .map(([c, l]) => `class ${c} one request per ${secs(l.windowMs / l.requests)}`)
    .join(', ');
  const scaled = target.timeScale !== 1;
  const pace = !scaled
    ? preflight
      ? ' (the target states no faster pace: real time)'
      : ''
    : ` (the target runs ${target.timeScale}× faster than real time${preflight?.ok && preflight.timeScale === target.timeScale ? `, read from its RateLimit-Policy ${preflight.policy}` : ''}: every time below is divided by it)`;
  const lines = [
    `Contract plan for ${target.kind} ${redactUrl(target.baseUrl)} — ${preflight ? `only the preflight sent (${preflight.requests} request${preflight.requests === 1 ? '' : 's'}, no credit)` : 'nothing sent'}`,
    ...(preflight
      ? preflight.ok
        ? preflight.notes.map((n) => `Preflight: ${n}`)
        : [`Preflight: a run would stop here (exit 2): ${preflight.message}`]
      : []),
    `Pacing: evenly spaced per account, ${spacing}; at most ${MAX_RUNNING} videos running; status polled every ${secs(POLLING.intervalMs)}${pace}.`,
    'A credit = one generation or conversion the target accepts (the interface shows no price).',
    `Discovery (fixtures not configured): at most ${DISCOVERY.settingPages} pages of ${requestLine('listVideoSettings')}, ${DISCOVERY.pages} pages of ${requestLine('listVideos')} and ${DISCOVERY.reads} video reads; another account's list, and ${DISCOVERY.otherAccountReads} option reads for the Free-plan and no-credit accounts.`,
  ];
  for (const p of all) {
    const run = p.checks.filter((c) => !c.skip);
    const pending = run.filter((c) => c.pending.length);
    const t = p.totals;
    lines.push(
      '',
      `${p.profile}: ${run.length} checks run, ${p.checks.length - run.length} skipped${pending.length ? ` (${pending.length} of those that run need a fixture discovery must find, else they skip)` : ''}`,
      `  main account: ${t.main.A} class-A, ${t.main.B} class-B requests${t.upToB ? ` (${t.upToB} of them at most: discovery and reads that stop once they find what they look for, a second rate-limit burst only when the first met no 429)` : ''}${t.reads ? `, and at least ${t.reads} status reads of the videos it creates` : ''}`,
      `  other accounts / no key: ${t.others.A} class-A, ${t.others.B} class-B (paced apart)`,
      `  credits: ${t.credits}${p.creditCap !== undefined ? `; at most ${p.creditCap} (the run's guard: no generation or conversion once ${p.creditCap} ${p.creditCap === 1 ? 'is' : 'are'} spent${t.atRisk ? `; ${t.atRisk} requests a conforming target refuses would each cost one if accepted` : ''})` : ''}`,
      scaled
        ? `  floor wall time: ${secs(t.floorMs / target.timeScale)} at this target's pace (${secs(t.floorMs)} at the interface's real-time limits)${t.reads ? ', plus the generation time of the videos it waits for' : ''}`
        : `  floor wall time: ${secs(t.floorMs)} at the service's pace${t.reads ? ', plus the generation time of the videos it waits for' : ''}`,
      ...generatedLine(t.generated, target),
    );
    const reasons = new Map<string, number>();
    for (const c of p.checks) if (c.skip) reasons.set(c.skip, (reasons.get(c.skip) ?? 0) + 1);
    for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1])) lines.push(`  skipped ${n}: ${r}`);
  }
  return lines.join('\n') + '\n';
}
