// The boundary phase: deterministic, before the random one, as Schemathesis's coverage phase comes before
// its fuzzing. Its requests (boundary-cases.ts) go out in order, edge tier first, the class-A and class-B
// ones side by side at the pacer's pace, within --max-time (shared with the random phase that follows);
// every one is judged, and a failing one is shrunk to the smallest of its parts that still fails, so a
// failure names its one class of input ("page: 2^31 → 500"). Three scenarios, so that the plan and the
// credit budget see each for what it is: the requests a conforming target refuses or answers without
// creating anything (every profile, GET only in read-only); the uploads at and past the plans' size
// limits (megabytes: only against a sandbox or within a credit budget); and the requests the interface
// says are valid (a credit each: the full profile), each followed to a terminal status.
import {
  ASPECT_RATIOS,
  LANGUAGES,
  pacingFloorMs,
  PLANS,
  type ConversionSource,
  type Plan,
  type RateClass,
} from '@videogen/openapi/rules';
import { need, scenario, type PlanTarget, type Scenario, type Sender } from '../engine/catalogue.ts';
import { loadContract } from '../engine/contract.ts';
import type { Api } from '../engine/http.ts';
import { Judge } from '../engine/judge.ts';
import { GuardRefusal, Violation } from '../engine/outcomes.ts';
import { idOf, pollUntilDone } from '../scenarios/videos.ts';
import type { Cost, Exchange, GenerationSettings, TargetConfig } from '../shapes.ts';
import { combinationKeys } from './arbitraries.ts';
import { boundaryCases, positiveCases, type BoundaryCase, type BoundaryContext, type Tier } from './boundary-cases.ts';
import { terminalCase, type GeneratedCase } from './cases.ts';
import { LARGEST_UPLOAD, uploadPlanOf } from './form-oracle.ts';
import { judgeCase } from './judge.ts';
import { context, SHRINK_REQUESTS, type GenerationClock } from './scenarios.ts';
import { sendCase, unansweredCase } from './send.ts';

/** One request of the phase, with its answer (or why none came). */
export interface BoundarySent {
  bc: BoundaryCase;
  exchange?: Exchange;
  /** No answer after the retries of 7.1 (a hang), or the guard that kept it from being sent. */
  error?: string;
  /** Sent while shrinking a failure (one of its parts): not one of the phase's own requests. */
  shrinking?: boolean;
  /** A status read of the video an accepted request created, at the end of its polling. */
  terminal?: { case: GeneratedCase; exchange: Exchange };
  /** Why its answer fails, when it does (the checks judge it again, with the mismatches). */
  failed?: string;
}

export interface BoundaryFailure {
  /** The smallest request that fails: a part of the failing one, or itself. */
  smallest: BoundaryCase;
  first: BoundaryCase;
  exchange?: Exchange;
  message: string;
  shrinkRequests: number;
  /** Why the request could not be shrunk to its parts (the credit guard). */
  unshrunk?: string;
}

export interface BoundaryRecord {
  sent: BoundarySent[];
  failures: BoundaryFailure[];
  /** What the phase left out and why (the value tier at this pace, the deadline, the credit guard). */
  notes: string[];
  /** The phase's own requests per tier, and whether the value tier went. */
  tiers: { edge: number; value: number; valueSent: boolean };
}

export type BoundaryKind = 'refused' | 'sizes' | 'positive';

/** The plan of each key, as the run knows it. */
function plansOf(t: TargetConfig): BoundaryContext['plans'] {
  const read = (p: string | undefined) =>
    p !== undefined && (PLANS as readonly string[]).includes(p) ? uploadPlanOf(p as Plan) : undefined;
  const main = read(t.accountPlans?.main);
  const other = read(t.accountPlans?.other);
  return { ...(main && { main }), ...(other && { other }) };
}

const fakeId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The context the plan counts with: every fixture there (the run sends at most as many). */
function planningContext(p: PlanTarget, sizes: boolean): BoundaryContext {
  const options: ConversionSource = {
    is_convertible: true,
    current_language: LANGUAGES[0],
    current_aspect_ratio: ASPECT_RATIOS[0],
    available_languages: LANGUAGES.slice(1),
  };
  return {
    contract: loadContract(),
    target: p.target,
    profile: p.profile,
    settings: Object.fromEntries(combinationKeys().map((k, i) => [k, fakeId(100 + i)])),
    videos: [fakeId(1)],
    source: { id: fakeId(1), options },
    plans: plansOf(p.target),
    otherKey: Boolean(p.target.otherAccountKey),
    sizes,
  };
}

const isPost = (bc: BoundaryCase) => loadContract().operation(bc.case.operationId)?.method !== 'GET';
const classOf = (bc: BoundaryCase): RateClass => (isPost(bc) ? 'A' : 'B');
const judged = (g: GenerationSettings | undefined, bc: BoundaryCase) =>
  !g?.operations || g.operations.includes(bc.case.operationId);

/** The cases of one of the phase's scenarios, for a context. */
function casesOf(kind: BoundaryKind, ctx: BoundaryContext, g: GenerationSettings | undefined): BoundaryCase[] {
  const all =
    kind === 'positive'
      ? positiveCases(ctx)
      : boundaryCases({ ...ctx, sizes: kind === 'sizes' }).filter((bc) => Boolean(bc.heavy) === (kind === 'sizes'));
  return all.filter((bc) => judged(g, bc));
}

/** Requests per class and account of a list of cases. */
function countOf(cases: BoundaryCase[]) {
  const n = { A: 0, B: 0, apartA: 0, apartB: 0 };
  for (const bc of cases) {
    const c = classOf(bc);
    if (bc.account === 'other') n[c === 'A' ? 'apartA' : 'apartB']++;
    else n[c]++;
  }
  return n;
}

/**
 * Whether the value tier goes too: when the whole phase fits in --max-time at the target's pace (a
 * sandbox, a time-scaled target); at the interface's real-time limits only the edge tier does, and the
 * plan says which --max-time would send the rest. Decided from the plan's count, so that the plan and
 * the run agree.
 */
export function valueTier(p: PlanTarget): { fits: boolean; edgeMs: number; allMs: number; value: number } {
  const g = p.target.generation;
  const cases = casesOf('refused', planningContext(p, false), g);
  const edge = countOf(cases.filter((c) => c.tier === 'edge'));
  const all = countOf(cases);
  const ms = (n: { A: number; B: number }) => pacingFloorMs({ A: n.A, B: n.B }, p.target.timeScale);
  const allMs = ms(all);
  return {
    fits: g !== undefined && allMs <= g.maxTimeMs,
    edgeMs: ms(edge),
    allMs,
    value: cases.length - cases.filter((c) => c.tier === 'edge').length,
  };
}

/** What a scenario of the phase declares it sends (the most: a fixture not found sends fewer). */
function costOf(kind: BoundaryKind, p: PlanTarget): Partial<Cost> {
  const g = p.target.generation;
  if (!g || g.boundary === false) return {};
  const tier = valueTier(p);
  const cases = casesOf(kind, planningContext(p, kind === 'sizes'), g).filter((c) => c.tier === 'edge' || tier.fits);
  const n = countOf(cases);
  const posts = cases.filter((c) => isPost(c)).length;
  // The options of the convertible source, read once where the POSTs may go (the rows of 7.2 it decides).
  const options = kind !== 'sizes' && p.profile !== 'read-only' && p.target.stateful ? 1 : 0;
  if (kind === 'positive')
    // Each accepted request is a credit, and its video is read until it ends (at least once).
    return { A: n.A, B: options, credits: n.A, reads: n.A, upTo: true, upToA: true };
  return { ...n, B: n.B + options, atRisk: posts, upTo: true, upToA: true };
}

/** What the phase knows of the target: the generated requests' context, the keys' plans, whether sizes go. */
async function contextOf(s: Sender, sizes: boolean, withSource: boolean): Promise<BoundaryContext> {
  const t = s.run.target;
  const g = await context(s, t.profile, withSource && t.profile !== 'read-only');
  return {
    contract: g.contract,
    target: t,
    profile: t.profile,
    settings: g.settings,
    videos: g.videos,
    ...(g.source && { source: g.source }),
    plans: plansOf(t),
    otherKey: Boolean(t.otherAccountKey),
    sizes,
  };
}

/** The first failure of an answer, as the checks will judge it (a mismatch with a decision is drift: it passes). */
function verdict(c: GeneratedCase, ex: Exchange): string | undefined {
  const j = new Judge(loadContract());
  try {
    judgeCase(c, ex, j);
  } catch (err) {
    if (err instanceof Violation) return err.message;
    if ((err as Error).name === 'DecisionStop') return undefined;
    throw err;
  }
  return undefined;
}

/** How a failure's headline names its class and what came back: `page: 2^31 → 500`. */
export function headline(bc: BoundaryCase, ex: Exchange | undefined): string {
  return `${bc.classes.join(' + ')} → ${ex?.status ? ex.status : 'no answer'}`;
}

interface Lane {
  cases: BoundaryCase[];
  api: Api;
}

async function sendOne(api: Api, bc: BoundaryCase): Promise<BoundarySent> {
  try {
    const exchange = await sendCase(api, bc.case, bc.classes);
    const failed = verdict(bc.case, exchange);
    return { bc, exchange, ...(failed && { failed }) };
  } catch (err) {
    if (err instanceof GuardRefusal) throw err;
    const message = (err as Error).message;
    // No answer (a hang): the request kept as an exchange of status 0, so that its bundle replays it.
    const exchange = await unansweredCase(api, bc.case, message, bc.classes);
    return { bc, error: message, exchange, failed: message };
  }
}

/** Sends a case and records it; the guard's reason when the credit guard kept it from going (noted in the record). */
async function sendRecorded(
  api: Api,
  bc: BoundaryCase,
  record: BoundaryRecord,
  shrinking = false,
): Promise<BoundarySent | { stopped: string }> {
  try {
    const one = await sendOne(api, bc);
    record.sent.push(shrinking ? { ...one, shrinking } : one);
    return one;
  } catch (err) {
    const stopped = (err as GuardRefusal).reason;
    record.notes.push(`stopped: ${stopped}`);
    return { stopped };
  }
}

/** Sends a lane's cases in order, judging each; a failure is shrunk to the first of its parts that still fails. */
async function runLane(lane: Lane, record: BoundaryRecord, deadline: number): Promise<void> {
  for (const [i, bc] of lane.cases.entries()) {
    if (Date.now() > deadline) {
      record.notes.push(
        `the time budget (--max-time) ended after ${i} of ${lane.cases.length} requests of one lane: the rest was not sent`,
      );
      return;
    }
    const one = await sendRecorded(lane.api, bc, record);
    if ('stopped' in one) return;
    const failed = one.failed;
    if (!failed) continue;
    // Shrunk: each part (one class each) sent alone; every part that still fails is a failure of its own
    // class, and when none does, the request itself is (the classes fail only together).
    const smallest: Array<{ bc: BoundaryCase; exchange?: Exchange; message: string }> = [];
    let tried = 0;
    let unshrunk: string | undefined;
    for (const part of bc.parts) {
      if (tried >= SHRINK_REQUESTS) break;
      // A part another request was shrunk to already (a near miss rides in several): judged once.
      const key = JSON.stringify(part.case);
      if (record.failures.some((f) => JSON.stringify(f.smallest.case) === key)) {
        smallest.push({ bc: part, message: 'the same as a failure above' });
        continue;
      }
      const p = await sendRecorded(lane.api, part, record, true);
      if ('stopped' in p) {
        // The credit guard: a create that may have spent a credit (a 5xx) stops every further one.
        unshrunk = p.stopped;
        break;
      }
      tried++;
      if (p.failed) smallest.push({ bc: part, exchange: p.exchange, message: p.failed });
    }
    if (!smallest.length) smallest.push({ bc, exchange: one.exchange, message: failed });
    const known = (c: BoundaryCase) =>
      record.failures.some((f) => JSON.stringify(f.smallest.case) === JSON.stringify(c.case));
    for (const s of smallest.filter((x) => !known(x.bc)))
      record.failures.push({
        smallest: s.bc,
        first: bc,
        ...(s.exchange && { exchange: s.exchange }),
        message: s.message,
        shrinkRequests: tried,
        ...(unshrunk && s.bc === bc && { unshrunk }),
      });
  }
}

/** Sends cases in lanes: per account and rate class, side by side, each in its order (edge tier first). */
async function sendAll(s: Sender, cases: BoundaryCase[], record: BoundaryRecord, deadline: number) {
  const lanes = new Map<string, Lane>();
  for (const bc of cases) {
    const key = `${bc.account}|${classOf(bc)}`;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { cases: [], api: bc.account === 'other' ? s.api('other') : s.main }));
    lane.cases.push(bc);
  }
  await Promise.all([...lanes.values()].map((l) => runLane(l, record, deadline)));
}

const ordered = (cases: BoundaryCase[]) => [
  ...cases.filter((c) => c.tier === 'edge'),
  ...cases.filter((c) => c.tier === 'value'),
];

export interface BoundaryScenarios {
  /** GET requests and the POSTs a conforming target refuses: every profile (POSTs from no-credit on). */
  refused: Scenario<BoundaryRecord>;
  /** Uploads at and one byte past each plan's size limit (up to 180 MB): a sandbox, or within a budget. */
  sizes: Scenario<BoundaryRecord>;
  /** Requests the interface says are valid, a credit each, followed to a terminal status: the full profile. */
  positive: Scenario<BoundaryRecord>;
}

/** The phase's scenarios are named from here (the plan and the reports find them by it). */
export const BOUNDARY_PHASE = 'boundary phase';
export const BOUNDARY_UPLOADS = `${BOUNDARY_PHASE}: upload sizes`;

export function boundaryScenarios(phaseEnd: GenerationClock): BoundaryScenarios {
  const record = (): BoundaryRecord => ({
    sent: [],
    failures: [],
    notes: [],
    tiers: { edge: 0, value: 0, valueSent: false },
  });
  const refused = scenario<BoundaryRecord>({
    name: BOUNDARY_PHASE,
    generated: true,
    cost: (p) => costOf('refused', p),
    send: async (s) => {
      const t = s.run.target;
      const g = t.generation;
      const out = record();
      if (!g) return out;
      const tier = valueTier({ target: t, profile: t.profile });
      const cases = casesOf('refused', await contextOf(s, false, true), g);
      out.tiers = {
        edge: cases.filter((c) => c.tier === 'edge').length,
        value: cases.filter((c) => c.tier === 'value').length,
        valueSent: tier.fits,
      };
      if (!tier.fits && out.tiers.value)
        out.notes.push(
          `value tier left out (${out.tiers.value} requests: the other enum values, every near miss, every combination with every extension): at this target's pace the phase would take ${Math.ceil(tier.allMs / 1000)} s, past --max-time ${g.maxTimeMs / 1000} s (--max-time ${Math.ceil(tier.allMs / 1000)} sends it)`,
        );
      await sendAll(s, ordered(cases.filter((c) => c.tier === 'edge' || tier.fits)), out, phaseEnd(g));
      return out;
    },
  });
  const sizes = scenario<BoundaryRecord>({
    name: BOUNDARY_UPLOADS,
    generated: true,
    needs: [
      need.profile('no-credit', 'uploads past the size limits (POST requests)'),
      need.uploads(`uploads of up to ${LARGEST_UPLOAD / 1e6} MB at and one byte past each plan’s limit`),
      need.stateful('it does not check upload sizes (x-upload-limits is an extension)'),
    ],
    cost: (p) => costOf('sizes', p),
    send: async (s) => {
      const g = s.run.target.generation;
      const out = record();
      if (!g) return out;
      const cases = casesOf('sizes', await contextOf(s, true, false), g);
      out.tiers.edge = cases.length;
      if (!s.run.target.accountPlans?.main)
        out.notes.push(
          'the account’s plan is not known (CONTRACT_ACCOUNT_PLAN): each limit of every plan is sent, and a size past a plan’s limit may be taken or refused',
        );
      await sendAll(s, cases, out, phaseEnd(g));
      return out;
    },
  });
  const positive = scenario<BoundaryRecord>({
    name: `${BOUNDARY_PHASE}: accepted requests`,
    generated: true,
    uses: [],
    needs: [
      need.profile('full', 'boundary requests the interface says are valid (a credit each)'),
      need.stateful('it charges nothing and runs no video'),
    ],
    cost: (p) => costOf('positive', p),
    send: async (s) => {
      const g = s.run.target.generation;
      const out = record();
      if (!g) return out;
      const cases = casesOf('positive', await contextOf(s, s.selected(sizes), true), g);
      out.tiers.edge = cases.length;
      const created: Array<{ sent: BoundarySent; id: string }> = [];
      for (const bc of cases) {
        const sent = await sendRecorded(s.main, bc, out);
        if ('stopped' in sent) break;
        if (sent.failed)
          out.failures.push({
            smallest: bc,
            first: bc,
            ...(sent.exchange && { exchange: sent.exchange }),
            message: sent.failed,
            shrinkRequests: 0,
          });
        const id = idOf(sent.exchange);
        if (id) {
          s.run.created.push(id);
          created.push({ sent, id });
        }
      }
      // Every accepted request's video read until it ends (x-polling), side by side.
      await Promise.all(
        created.map(async ({ sent, id }) => {
          const polled = await pollUntilDone(s.run, id);
          const c = terminalCase(id, `the video ${id} of ${sent.bc.classes.join(' + ')}`);
          sent.terminal = { case: c, exchange: polled.last };
          const failed = verdict(c, polled.last);
          if (failed)
            out.failures.push({
              smallest: sent.bc,
              first: sent.bc,
              exchange: polled.last,
              message: failed,
              shrinkRequests: 0,
            });
        }),
      );
      return out;
    },
  });
  return { refused, sizes, positive };
}

export type { Tier };
