// What a run sends, decided before anything is sent, from the declarations of the catalogue alone:
// which checks run and which skip (profile, keys, target, fixtures, credit budget), which scenarios
// are sent, what they cost. --plan prints it; the run follows it (the runner skips what it skips, and
// its guard holds the credit cap). Nothing here models the run a second time.
import { pacingFloorMs } from '@videogen/openapi/rules';
import {
  budgetFlag,
  FIXTURE_ENV,
  KEY_ENV,
  PROFILES,
  profileFlag,
  type Cost,
  type FixtureName,
  type Profile,
  type TargetConfig,
} from '../shapes.ts';
import { checkId, type Catalogue, type Check, type Need, type PlanTarget, type Scenario } from './catalogue.ts';

export interface PlannedCheck {
  check: Check;
  id: string;
  /** Why it does not run, when that is known before sending. */
  skip?: string;
  /** Fixtures it needs that are not configured: looked for on the target (it skips if none is found). */
  pending: FixtureName[];
}

export interface Selection {
  profile: Profile;
  budget?: number;
  /** The most credits the run's guard lets it spend (the budget; in full the plan's credits + 1; in no-credit 1). */
  creditCap?: number;
  capReason: string;
  checks: PlannedCheck[];
  /** The scenarios sent, in the order of first use, with their declared costs. */
  scenarios: Array<{ scenario: Scenario; cost: Cost }>;
  skippedScenarios: Map<Scenario, string>;
  totals: {
    main: { A: number; B: number };
    others: { A: number; B: number };
    /** Status reads of created videos (one per video waited for, at least). */
    reads: number;
    credits: number;
    atRisk: number;
    /** Part of main.B that depends on what discovery finds (the most it sends). */
    upToB: number;
    /** Least wall time the main account's limits impose on the checks' own requests, evenly spaced (ms, target time). */
    floorMs: number;
    /** The generated requests among main.A and main.B (the most they send), and the least time they take (ms, target time). */
    generated: { A: number; B: number; floorMs: number };
  };
}

const rank = (p: Profile) => PROFILES.indexOf(p);

/** Why a need that is known before sending is unmet, or undefined. */
function unmet(n: Need, p: PlanTarget): string | undefined {
  const t = p.target;
  switch (n.kind) {
    case 'profile':
      return rank(p.profile) >= rank(n.profile)
        ? undefined
        : `profile ${p.profile}: ${n.why} only in the ${n.profile} profile${n.profile === 'no-credit' ? ' or full' : ''} (${profileFlag(t.named, n.profile)})`;
    case 'key':
      return keyOf(t, n.account) ? undefined : `${n.why}: set ${KEY_ENV[n.account]}`;
    case 'stateful':
      return t.stateful ? undefined : `target ${t.kind} is a stateless mock: ${n.why}`;
    case 'checksKeys':
      return t.checksKeys ? undefined : `target ${t.kind} ${n.why}`;
    case 'sandbox':
      return t.kind === 'sandbox' ? undefined : `only against the sandbox: ${n.why}`;
    case 'repeatedParts':
      return t.kind !== 'prism' ? undefined : `target ${t.kind} ${n.why}`;
    case 'budget':
      return p.budget !== undefined ? undefined : `${n.why}: only within a credit budget (${budgetFlag(t.named)})`;
    case 'uploads':
      return t.kind === 'sandbox' || p.budget !== undefined
        ? undefined
        : `${n.why}: only against a sandbox or within a credit budget (${budgetFlag(t.named)})`;
    case 'fixture':
      return undefined;
  }
}

const keyOf = (t: TargetConfig, account: string) =>
  ({ main: t.apiKey, other: t.otherAccountKey, freePlan: t.freePlanKey, noCredit: t.noCreditKey })[account];

class Planner {
  private readonly verdicts = new Map<Scenario, string | null>();
  constructor(
    private readonly catalogue: Catalogue,
    private readonly p: PlanTarget,
    /** Scenarios left out (the budget) and why. */
    private readonly excluded: Map<Scenario, string>,
  ) {}

  /** Why a fixture cannot be had, or undefined (configured, or some source can be sent). */
  fixture(name: FixtureName, seen: Set<Scenario>, made = true): string | undefined {
    if (this.p.target.fixtures[name]) return undefined;
    const sources = this.catalogue.fixtureSources.filter((s) => s.provides.includes(name) && (made || !s.makes));
    const why = sources.map((s) => this.scenario(s.scenario, seen)).filter((w): w is string => w !== undefined);
    if (sources.length && why.length < sources.length) return undefined;
    return `no fixture ${name}: set ${FIXTURE_ENV[name]}${why.length ? ` (${why[0]})` : ''}`;
  }

  /** Why a scenario cannot be sent, or undefined. */
  scenario(s: Scenario, seen = new Set<Scenario>()): string | undefined {
    const known = this.verdicts.get(s);
    if (known !== undefined) return known ?? undefined;
    if (seen.has(s)) return undefined;
    seen.add(s);
    const why =
      this.excluded.get(s) ??
      this.needsOf(s.needs, seen) ??
      (!s.keyless && !this.p.target.apiKey ? 'no API key (VIDEO_API_KEY)' : undefined) ??
      s.uses.map((u) => this.scenario(u, seen)).find(Boolean);
    this.verdicts.set(s, why ?? null);
    return why;
  }

  needsOf(needs: readonly Need[], seen: Set<Scenario>): string | undefined {
    for (const n of needs) {
      const why = n.kind === 'fixture' ? this.fixture(n.fixture, seen, n.made !== false) : unmet(n, this.p);
      if (why) return why;
    }
    return undefined;
  }

  /** The scenarios a check's judgement rests on: its own, what they use, and the sources of fixtures not configured. */
  closure(c: Check): Scenario[] {
    const out: Scenario[] = [];
    const visit = (s: Scenario) => {
      if (out.includes(s) || this.scenario(s)) return;
      out.push(s);
      s.uses.forEach(visit);
      for (const f of this.fixtureNeeds(s.needs)) visitFixture(f);
    };
    const visitFixture = (name: FixtureName, made = true) => {
      for (const src of this.catalogue.fixtureSources)
        if (src.provides.includes(name) && (made || !src.makes)) visit(src.scenario);
    };
    if (c.reads !== 'all') visit(c.reads);
    for (const n of c.needs)
      if (n.kind === 'fixture' && !this.p.target.fixtures[n.fixture]) visitFixture(n.fixture, n.made !== false);
    return out;
  }

  /** The scenarios the runner sends for `checks`, in its order: per check (in order) its fixtures' sources, what its scenario uses, the scenario, its follow-ups. */
  runOrder(checks: Check[]): Scenario[] {
    const out: Scenario[] = [];
    const visit = (s: Scenario) => {
      if (out.includes(s) || this.scenario(s)) return;
      s.uses.forEach(visit);
      for (const f of this.fixtureNeeds(s.needs)) for (const source of this.sources(f)) visit(source);
      out.push(s);
      s.then.forEach(visit);
    };
    for (const c of checks) {
      for (const n of c.needs)
        if (n.kind === 'fixture' && !this.p.target.fixtures[n.fixture])
          this.sources(n.fixture, n.made !== false).forEach(visit);
      if (c.reads !== 'all') visit(c.reads);
    }
    return out;
  }

  sources(name: FixtureName, made = true): Scenario[] {
    return this.catalogue.fixtureSources
      .filter((s) => s.provides.includes(name) && (made || !s.makes))
      .map((s) => s.scenario);
  }

  fixtureNeeds(needs: readonly Need[]): FixtureName[] {
    return needs.flatMap((n) => (n.kind === 'fixture' && !this.p.target.fixtures[n.fixture] ? [n.fixture] : []));
  }

  plan(c: Check): PlannedCheck {
    const id = checkId(c);
    const direct = c.reads === 'all' ? undefined : c.reads;
    const skip = this.needsOf(c.needs, new Set()) ?? (direct && this.scenario(direct));
    const foundOnly = new Set(c.needs.flatMap((n) => (n.kind === 'fixture' && n.made === false ? [n.fixture] : [])));
    const pending = [...new Set([...this.fixtureNeeds(c.needs), ...(direct ? this.allNeeds(direct) : [])])].filter(
      (f) => (foundOnly.has(f) ? !this.p.target.fixtures[f] : !this.sureFixture(f)),
    );
    return { check: c, id, skip, pending: skip ? [] : pending };
  }

  /** Fixture needs of a scenario and the scenarios it uses. */
  allNeeds(s: Scenario, seen = new Set<Scenario>()): FixtureName[] {
    if (seen.has(s)) return [];
    seen.add(s);
    return [...this.fixtureNeeds(s.needs), ...s.uses.flatMap((u) => this.allNeeds(u, seen))];
  }

  /** A fixture the run is sure to have: configured, or made by a scenario it sends (not only looked for). */
  sureFixture(name: FixtureName): boolean {
    if (this.p.target.fixtures[name]) return true;
    return this.catalogue.fixtureSources.some(
      (s) => s.provides.includes(name) && s.makes && !this.scenario(s.scenario),
    );
  }
}

export function select(
  catalogue: Catalogue,
  target: TargetConfig,
  profile: Profile = target.profile,
  budget?: number,
): Selection {
  const p: PlanTarget = { target, profile, budget };
  const excluded = new Map<Scenario, string>();
  // 1. Without a budget: what each check needs, and the scenarios its judgement rests on.
  let planner = new Planner(catalogue, p, excluded);
  const first = catalogue.checks.map((c) => ({ c, plan: planner.plan(c), closure: planner.closure(c) }));
  // 2. The budget: credit-spending scenarios, cheapest coverage first (credits per check resting on
  //    them, ascending; ties in order of first use); one that does not fit is left out whole. A scenario
  //    that spends nothing but risks a credit (the concurrency probe) needs one left after what it uses.
  if (budget !== undefined) {
    const order: Scenario[] = [];
    for (const f of first) if (!f.plan.skip) for (const s of f.closure) if (!order.includes(s)) order.push(s);
    const covered = (s: Scenario) => first.filter((f) => !f.plan.skip && f.closure.includes(s)).length;
    const spending = order
      .filter((s) => s.cost(p).credits > 0)
      .sort(
        (a, b) =>
          a.cost(p).credits / covered(a) - b.cost(p).credits / covered(b) || order.indexOf(a) - order.indexOf(b),
      );
    let left = budget;
    for (const s of spending) {
      const credits = s.cost(p).credits;
      if (credits <= left) left -= credits;
      else
        excluded.set(
          s,
          `credit budget ${budget} (${budgetFlag(target.named, budget)}): ${s.name} needs ${credits} credit${credits > 1 ? 's' : ''} and ${left} ${left === 1 ? 'is' : 'are'} left (cheapest coverage first)`,
        );
    }
    // In the order the run sends them (each scenario when a check first reads it, what it uses first, its
    // follow-ups right after), a scenario that risks a credit is sent only with one left: the guard
    // refuses any generation or conversion once the budget is spent.
    let spent = 0;
    for (const s of planner.runOrder(catalogue.checks.filter((_, i) => !first[i].plan.skip))) {
      const c = s.cost(p);
      if (excluded.has(s)) continue;
      if (c.credits > 0) spent += c.credits;
      else if (c.atRisk > 0 && !s.keyless && budget - spent < 1)
        excluded.set(
          s,
          `credit budget ${budget} (${budgetFlag(target.named, budget)}) spent by the scenarios before it: ${s.name} sends requests a conforming target refuses, which a broken one would charge, so it needs a credit left`,
        );
    }
    planner = new Planner(catalogue, p, excluded);
  }
  const checks = catalogue.checks.map((c) => planner.plan(c));
  // A check that reads every exchange (conformance) has nothing to read for an operation no running check sends to.
  for (const c of checks) {
    if (c.check.reads !== 'all' || c.skip) continue;
    const sending = checks.some((x) => x.check.reads !== 'all' && !x.skip && x.check.operation === c.check.operation);
    if (!sending)
      c.skip = `no check of ${c.check.operation} runs in the ${profile} profile, so no request to it is made`;
  }
  // 3. What is sent: every scenario a running check rests on, once.
  const scenarios: Selection['scenarios'] = [];
  catalogue.checks.forEach((c, i) => {
    if (checks[i].skip) return;
    for (const s of planner.closure(c))
      if (!scenarios.some((x) => x.scenario === s)) scenarios.push({ scenario: s, cost: s.cost(p) });
  });
  const totals: Selection['totals'] = {
    main: { A: 0, B: 0 },
    others: { A: 0, B: 0 },
    reads: 0,
    credits: 0,
    atRisk: 0,
    upToB: 0,
    floorMs: 0,
    generated: { A: 0, B: 0, floorMs: 0 },
  };
  for (const { scenario: sc, cost } of scenarios) {
    if (sc.generated) {
      totals.generated.A += cost.A;
      totals.generated.B += cost.B;
    }
    totals.main.A += cost.A;
    totals.main.B += cost.B;
    totals.others.A += cost.apartA;
    totals.others.B += cost.apartB;
    totals.reads += cost.reads;
    totals.credits += cost.credits;
    totals.atRisk += cost.atRisk;
    if (cost.upTo) totals.upToB += cost.B;
  }
  // The generated requests apart: their time is bounded by the run's time budget (--max-time), not their count.
  totals.floorMs = pacingFloorMs({
    A: totals.main.A - totals.generated.A,
    B: totals.main.B - totals.generated.B + totals.reads,
  });
  totals.generated.floorMs = pacingFloorMs({ A: totals.generated.A, B: totals.generated.B });
  const skippedScenarios = new Map(excluded);
  // The guard: the budget; in no-credit one credit (the first accepted request stops the rest); in full
  // the plan's credits and one more (a target that accepts what it should refuse is stopped there).
  const creditCap = budget ?? (profile === 'read-only' ? undefined : profile === 'no-credit' ? 1 : totals.credits + 1);
  const capReason =
    budget !== undefined
      ? `credit budget ${budget} (${budgetFlag(target.named, budget)}) spent: no more generation or conversion requests`
      : profile === 'no-credit'
        ? 'no-credit profile: the target accepted a generation or conversion it should have refused (1 credit spent), so no further one is sent'
        : `the run's credit cap (${creditCap}: the plan's ${totals.credits} and one more) is spent: the target accepted requests it should have refused, so no further generation or conversion is sent`;
  return { profile, budget, creditCap, capReason, checks, scenarios, skippedScenarios, totals };
}
