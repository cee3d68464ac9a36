// contract --plan: what a run would send, spend and wait, computed from the check declarations
// (src/check-costs.ts) and the spec's limits; nothing is sent. Also the credit budget's selection.
import { OPERATIONS, RATE_LIMITS, MAX_RUNNING, POLLING, pacingFloorMs } from '@videogen/openapi/rules';
import type { Check } from './checks/types.ts';
import { DECLARED, type CheckCost, type Needs } from './check-costs.ts';
import { checkId } from './runner.ts';
import type { Profile, TargetConfig } from './target.ts';

const CONFORMANCE = /_conformance$|^not_a_server_error$|^error_envelope$|^documented_error_code$/;

/** The cost of one check: declared, else derived (one request of its operation's class; conformance reads the log). */
export function costOf(check: Check): CheckCost {
  const id = checkId(check);
  const d = DECLARED[id] ?? {};
  const cls = OPERATIONS.find((o) => o.operationId === check.operation)?.rateClass ?? 'B';
  const base: CheckCost = CONFORMANCE.test(check.name) ? { A: 0, B: 0, reads: 0, credits: 0 } : { A: cls === 'A' ? 1 : 0, B: cls === 'B' ? 1 : 0, reads: 0, credits: 0 };
  const cost: CheckCost = { ...base, ...d, reads: d.reads ?? 0, credits: d.credits ?? 0 };
  // Requests without a key belong to no account: paced apart from the main account's.
  if (check.name.startsWith('ignored_auth')) cost.apart = { A: cost.A, B: cost.B };
  // A check that posts, or shares a generation or conversion, runs only in the full profile.
  if (cost.A > 0 || cost.group) cost.full = true;
  return cost;
}

export interface PlannedCheck {
  id: string;
  cost: CheckCost;
}

export interface Plan {
  profile: Profile;
  included: PlannedCheck[];
  skipped: Array<{ id: string; reason: string }>;
  /** Requests of the main account per class (status reads of created videos counted once each: the floor). */
  main: { A: number; B: number };
  /** Requests of other accounts and without a key (paced apart). */
  others: { A: number; B: number };
  credits: number;
  /** Least wall time the main account's limits impose, evenly spaced (ms, in target time). */
  floorMs: number;
  /** Videos the run waits for (each at least one status read, one every POLLING.intervalMs while running). */
  videosWaited: number;
  /** Fixture discovery, when fixtures are not configured: at most this many class-B reads. */
  discoveryReads: number;
}

function missing(needs: Needs[] | undefined, target: TargetConfig): Needs | undefined {
  for (const n of needs ?? []) {
    const have =
      n === 'other' ? target.otherAccountKey : n === 'freePlan' ? target.freePlanKey : n === 'noCredit' ? target.noCreditKey : (target.fixtures as Record<string, string | undefined>)[n];
    if (!have) return n;
  }
  return undefined;
}

/**
 * Which credit-spending checks a budget of `budget` credits runs: cheapest coverage first, that is
 * groups (checks sharing one generation or conversion) by credits per check covered, ascending, ties in
 * catalogue order; a group is taken whole or not at all, so no check loses the videos it shares. Today:
 *  1. the shared generations (checks/shared-generations.ts): 2 credits, 8 checks — the five generation
 *     checks, generate_mode_pdf_file and both concurrency checks (these also need a credit left after
 *     the 2, for the probe the run's guard would otherwise refuse: `plan` below skips them then);
 *  2. the conversion: 1 credit, 3 checks;
 *  3. each other input mode: 1 credit each, in catalogue order.
 * Returns the skipped check ids with the reason.
 */
export function budgetSkips(checks: Check[], budget: number): Map<string, string> {
  const groups = new Map<string, { ids: string[]; credits: number; order: number }>();
  checks.forEach((c, order) => {
    const cost = costOf(c);
    const key = cost.group ?? checkId(c);
    const g = groups.get(key) ?? { ids: [], credits: 0, order };
    g.ids.push(checkId(c));
    g.credits += cost.credits;
    groups.set(key, g);
  });
  const spending = [...groups.values()].filter((g) => g.credits > 0).sort((a, b) => a.credits / a.ids.length - b.credits / b.ids.length || a.order - b.order);
  const skips = new Map<string, string>();
  let left = budget;
  for (const g of spending) {
    if (g.credits <= left) left -= g.credits;
    else for (const id of g.ids) skips.set(id, `credit budget ${budget} (CONTRACT_CREDIT_BUDGET): this check needs ${g.credits} credit${g.credits > 1 ? 's' : ''} and ${left} ${left === 1 ? 'is' : 'are'} left (cheapest coverage first)`);
  }
  return skips;
}

export function plan(checks: Check[], target: TargetConfig, profile: Profile = target.profile, budget?: number): Plan {
  const p: Plan = { profile, included: [], skipped: [], main: { A: 0, B: 0 }, others: { A: 0, B: 0 }, credits: 0, floorMs: 0, videosWaited: 0, discoveryReads: 0 };
  const skips = budget === undefined ? new Map<string, string>() : budgetSkips(checks, budget);
  let spent = 0;
  // A group's requests all go out when its first check runs (run.once), after the group's credits (the
  // concurrency probe after the shared generations): the guard below sees the spend of then, not of the
  // later check they are counted for.
  const spentByGroup = new Map<string, number>();
  for (const c of checks) {
    const id = checkId(c);
    const cost = costOf(c);
    const lack = missing(cost.needs, target);
    const spentWhenSent = (cost.group === undefined ? undefined : spentByGroup.get(cost.group)) ?? spent;
    if (profile !== 'full' && cost.full) p.skipped.push({ id, reason: 'full profile only' });
    else if (lack) p.skipped.push({ id, reason: `needs ${lack}` });
    else if (skips.has(id)) p.skipped.push({ id, reason: skips.get(id)! });
    // The run's guard (Run.beforeSend): once the budget is spent, no POST that could start a video
    // goes out, not even one expected to be refused (a target that accepts it would charge it).
    else if (budget !== undefined && cost.A > 0 && spentWhenSent >= budget) p.skipped.push({ id, reason: `credit budget ${budget} (CONTRACT_CREDIT_BUDGET) spent` });
    else {
      spent += cost.credits;
      if (cost.group !== undefined && !spentByGroup.has(cost.group)) spentByGroup.set(cost.group, spent);
      p.included.push({ id, cost });
      const apartA = cost.apart?.A ?? 0;
      const apartB = cost.apart?.B ?? 0;
      p.main.A += cost.A - apartA;
      p.main.B += cost.B - apartB + cost.reads;
      p.others.A += apartA;
      p.others.B += apartB;
      p.credits += cost.credits;
      p.videosWaited += cost.reads;
    }
  }
  const f = target.fixtures;
  if (!f.videoSettingId) p.discoveryReads += 1;
  if (!f.completedVideoId || !f.failedVideoId || !f.expiredVideoId) p.discoveryReads += 1 + 5;
  if (!f.convertibleVideoId) p.discoveryReads += 1;
  p.main.B += p.discoveryReads;
  p.floorMs = pacingFloorMs(p.main);
  return p;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

export function formatPlans(plans: Plan[], target: TargetConfig): string {
  const spacing = Object.entries(RATE_LIMITS)
    .map(([c, l]) => `class ${c} one request per ${secs(l.windowMs / l.requests)}`)
    .join(', ');
  const lines = [
    `Contract plan for ${target.kind} ${target.baseUrl} — nothing sent`,
    `Pacing: evenly spaced per account, ${spacing}; at most ${MAX_RUNNING} videos running; status polled every ${secs(POLLING.intervalMs)}${target.timeScale !== 1 ? ` (target time scale ${target.timeScale}: divided by it)` : ''}.`,
    'A credit = one generation or conversion accepted (the interface shows no price).',
  ];
  for (const p of plans) {
    lines.push(
      '',
      `${p.profile}: ${p.included.length} checks run, ${p.skipped.length} skipped`,
      `  main account: ${p.main.A} class-A, ${p.main.B} class-B requests (at least${p.discoveryReads ? `; incl. up to ${p.discoveryReads} fixture-discovery reads` : ''})`,
      `  other accounts / no key: ${p.others.A} class-A, ${p.others.B} class-B (paced apart)`,
      `  credits: ${p.credits}`,
      `  floor wall time: ${secs(p.floorMs)} at the service's pace${target.timeScale !== 1 ? ` (${secs(p.floorMs / target.timeScale)} at time scale ${target.timeScale})` : ''}, plus the generation time of ${p.videosWaited} videos waited for`,
    );
    const reasons = new Map<string, number>();
    for (const s of p.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
    for (const [r, n] of reasons) lines.push(`  skipped ${n}: ${r}`);
  }
  return lines.join('\n') + '\n';
}
