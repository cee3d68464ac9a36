// `calibrate --plan`: what a calibration would send, spend and wait, from the same declarations the run
// follows (the suite's scenarios and the probes, selected for the profile and the budget), and what
// each probe costs; plus what the profile leaves unobserved. Nothing but the preflight is sent.
import { BEHAVIOUR_KEYS } from '@videogen/openapi/twin';
import { MAX_RUNNING, pacingFloorMs, RATE_LIMITS } from '@videogen/openapi/rules';
import type { Selection } from '../engine/selection.ts';
import type { PreflightResult } from '../preflight.ts';
import type { TargetConfig } from '../shapes.ts';
import { scheduleCost } from './limiter.ts';
import { EXTRA_SAMPLES, modesLeftOut } from './probes.ts';
import { unobservedReason } from './twin.ts';

const secs = (ms: number) =>
  ms < 10_000
    ? `${Math.round(ms / 100) / 10} s`
    : ms < 180_000
      ? `${Math.round(ms / 1000)} s`
      : `${Math.round(ms / 6000) / 10} min`;

/** What each probe sends and costs, in words. */
function probeLines(s: Selection, target: TargetConfig): string[] {
  const running = new Set(s.checks.filter((c) => !c.skip).map((c) => c.check.name));
  const skipped = new Map(s.checks.filter((c) => c.skip).map((c) => [c.check.name, c.skip]));
  const line = (name: string, what: string) =>
    running.has(name)
      ? `  ${name}: ${what}`
      : skipped.has(name)
        ? `  ${name}: not sent (${skipped.get(name)})`
        : undefined;
  const limiter = (cls: 'A' | 'B') => {
    const { requests, windowMs } = RATE_LIMITS[cls];
    const c = scheduleCost(requests, windowMs);
    return `up to ${c.requests} class-${cls} requests${cls === 'A' ? ' (conversions of a video that does not exist: 404 where the limiter lets them through, no credit; each at risk on a broken target)' : ' (GET /video-settings/)'}, about 3 × 429; ${secs((c.idleMs + c.durationMs) / target.timeScale)} (${secs(c.idleMs / target.timeScale)} of quiet in the class, then single requests and bursts over ${secs(c.durationMs / target.timeScale)})`;
  };
  const left = modesLeftOut(target).map((c) => c.fields.join('+'));
  return [
    line('calibrate_limiter_B', limiter('B')),
    line('calibrate_limiter_A', limiter('A')),
    line('calibrate_encoding', '3 class-B requests (Accept-Encoding identity, gzip, br)'),
    line(
      'calibrate_download',
      '1 class-B request and 3 downloads of a completed video (plain, with an Authorization header that is no key, with its signature changed); downloads carry no key',
    ),
    line('calibrate_empty_text', '1 class-A request a conforming target refuses (1 at risk)'),
    line(
      'calibrate_durations',
      left.length
        ? `${left.length} generations (${left.length} credits: ${left.join(', ')}, the modes the suite does not generate), then every video of the run read at the class-B pace until it ends`
        : 'every video of the run read at the class-B pace until it ends',
    ),
    line(
      'calibrate_duration_samples',
      `${EXTRA_SAMPLES.text} more text generations and ${EXTRA_SAMPLES.conversion} more conversion (${EXTRA_SAMPLES.text + EXTRA_SAMPLES.conversion} credits), for more duration samples`,
    ),
  ].filter((l): l is string => Boolean(l));
}

export function formatCalibrationPlan(s: Selection, target: TargetConfig, preflight?: PreflightResult): string {
  const t = s.totals;
  const limiterMs = (['A', 'B'] as const)
    .filter((cls) => s.checks.some((c) => c.check.name === `calibrate_limiter_${cls}` && !c.skip))
    .reduce((a, cls) => {
      const c = scheduleCost(RATE_LIMITS[cls].requests, RATE_LIMITS[cls].windowMs);
      return a + c.idleMs + c.durationMs;
    }, 0);
  const floor = pacingFloorMs({ A: t.main.A, B: t.main.B + t.reads });
  const scaled = target.timeScale !== 1;
  const at = (ms: number) =>
    scaled
      ? `${secs(ms / target.timeScale)} at this target's pace (${secs(ms)} at the interface's real-time limits)`
      : secs(ms);
  const unobserved = BEHAVIOUR_KEYS.filter((k) => unobservedReason(k, '', s.profile).startsWith('profile '));
  const lines = [
    `Calibration plan for ${target.kind} ${target.baseUrl} — ${preflight ? `only the preflight sent (${preflight.requests} request${preflight.requests === 1 ? '' : 's'}, no credit)` : 'nothing sent'}`,
    ...(preflight && !preflight.ok ? [`Preflight: a calibration would stop here (exit 2): ${preflight.message}`] : []),
    `Profile ${s.profile}${s.budget !== undefined ? `, credit budget ${s.budget}` : ''}: the suite's scenarios (generated requests off) and the calibration probes, paced per account (class A one request per ${secs(RATE_LIMITS.A.windowMs / RATE_LIMITS.A.requests)}, class B one per ${secs(RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests)}${scaled ? `, ${target.timeScale}× faster here` : ''}).`,
    `  requests: ${t.main.A} class-A and ${t.main.B} class-B of the main account${t.upToB ? ` (${t.upToB} of them at most)` : ''}${t.reads ? `, and at least ${t.reads} status reads of the videos it creates` : ''}; ${t.others.A + t.others.B} of other accounts or without a key`,
    `  credits: ${t.credits}${s.creditCap !== undefined ? ` (the guard stops every generation and conversion once ${s.creditCap} ${s.creditCap === 1 ? 'is' : 'are'} spent${t.atRisk ? `; ${t.atRisk} requests a conforming target refuses would each cost one if accepted` : ''})` : ''}`,
    `  least wall time: ${at(floor + limiterMs)}${t.reads ? `, plus the generation time of the videos it follows to their end (at most ${MAX_RUNNING} at once)` : ''}`,
    'Probes:',
    ...probeLines(s, target),
    unobserved.length
      ? `Left unobserved by the ${s.profile} profile (their values stay the base twin's, marked "not observed"): ${unobserved.length} of ${BEHAVIOUR_KEYS.length}: ${unobserved.join(', ')}`
      : `The ${s.profile} profile can observe every behaviour (what the target's state hides, such as a completed video with copyright items, may still be missing).`,
    'Never observed by a calibration: lifecycle.expire_after_seconds (hours), refusal.oversize_upload and refusal.payload_too_large (50+ MB uploads), refusal.generation_no_credit (needs CONTRACT_NO_CREDIT_KEY).',
  ];
  return `${lines.join('\n')}\n`;
}
