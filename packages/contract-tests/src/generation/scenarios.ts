// The generated requests as two scenarios of the catalogue: with the main key (what each operation
// must refuse, and what it must answer conformingly), and without a usable key. Each operation is a
// lane (runner: property.ts); class-A lanes (the POSTs) and class-B lanes run side by side, so that
// the pacer spaces both classes at once, as the limits allow. GET only in read-only; POSTs only those
// a conforming target refuses (no credit; the run's credit guard holds the rest).
import { RATE_LIMITS, type ConversionSource } from '@videogen/openapi/rules';
import { need, scenario, type PlanTarget, type Scenario, type Sender } from '../engine/catalogue.ts';
import { loadContract } from '../engine/contract.ts';
import type { Api } from '../engine/http.ts';
import type { Cost, Exchange, FixtureName, GenerationSettings, TargetConfig } from '../shapes.ts';
import { COMBINATIONS, settingFixture } from '../scenarios/forms.ts';
import { idOf, ok, pollUntilDone } from '../scenarios/videos.ts';
import { operationArbitraries, type GenerationContext } from './arbitraries.ts';
import { terminalCase, type GeneratedCase } from './cases.ts';
import type fc from 'fast-check';
import { MAX_STEPS, reachable, sendSequence, sequences, straightPath } from './links.ts';
import { runLane, verdict, type LaneResult, type Step } from './property.ts';
import { sendCase } from './send.ts';

/** The most requests spent shrinking one failure to its smallest request (each is paced, and may cost). */
export const SHRINK_REQUESTS = 40;

/** Cases per operation without a key: a fifth of --examples, at least one. */
export const keylessRuns = (examples: number) => (examples > 0 ? Math.max(1, Math.ceil(examples / 5)) : 0);

export interface GeneratedRecord {
  seed: number;
  /** The lanes run, by laneKey(operation, kind). */
  lanes: Map<string, LaneResult>;
  /** Operations left out, and why (the profile). */
  leftOut: Map<string, string>;
}

const VIDEO_FIXTURES: FixtureName[] = [
  'completedVideoId',
  'convertibleVideoId',
  'failedVideoId',
  'expiredVideoId',
  'notConvertibleVideoId',
];

/** A lane's own seed: the run's seed and the lane's name, so that each lane reproduces alone. */
function laneSeed(seed: number, name: string): number {
  let h = seed | 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/** What the generation knows of the target before it draws: settings, videos, a convertible source and its options. */
export async function context(
  s: Sender,
  profile: PlanTarget['profile'],
  withSource: boolean,
): Promise<GenerationContext> {
  const t = s.run.target;
  const settings: Record<string, string> = {};
  const videos: string[] = [];
  if (s.run.main.hasKey) {
    for (const c of COMBINATIONS) {
      const id = await s.maybeFixture(settingFixture(c), { made: false });
      if (id) settings[[...c.fields].sort().join('+')] = id;
    }
    for (const f of VIDEO_FIXTURES) {
      const id = await s.maybeFixture(f, { made: false });
      if (id && !videos.includes(id)) videos.push(id);
    }
  }
  let source: GenerationContext['source'];
  const convertible = s.run.main.hasKey ? await s.maybeFixture('convertibleVideoId', { made: false }) : undefined;
  if (withSource && convertible && t.stateful && profile !== 'read-only') {
    const options = await s.main.call('getConversionOptions', { path: { video_id: convertible } });
    const o = options.body as Partial<ConversionSource> | undefined;
    if (ok(options) && typeof o?.is_convertible === 'boolean' && Array.isArray(o.available_languages))
      source = { id: convertible, options: o as ConversionSource };
  }
  return { contract: s.run.contract, target: t, profile, settings, videos, source };
}

/** The run's generated-requests settings: a generated scenario is in the catalogue only when the run asks for them. */
function generationOf(target: TargetConfig): GenerationSettings {
  if (!target.generation) throw new Error('generated requests were not asked for in this run (no --examples)');
  return target.generation;
}

/** A lane: one operation's cases of one kind. */
export type LaneKind = 'refused' | 'conforms' | 'keyless' | 'links' | 'spends';
export const laneKey = (operationId: string, kind: LaneKind) => `${operationId}|${kind}`;
const LANE_NAMES: Record<LaneKind, string> = {
  refused: 'refused',
  conforms: 'allowed',
  keyless: 'without a key',
  links: 'link sequences',
  spends: 'allowed (credits)',
};

/**
 * POSTs the interface allows, per operation (each a credit when accepted): within a credit budget a fifth
 * of --examples, at least one; the full profile's default run one (DECISIONS of the suite: at most 5 more
 * credits than the hand-written scenarios, README "Profiles and what they cost").
 */
export const creditRuns = (examples: number, budget?: number) =>
  examples > 0 ? (budget === undefined ? 1 : Math.max(1, Math.ceil(examples / 5))) : 0;

/** Link sequences per run: half of --examples, at least one. */
export const linkRuns = (examples: number) => (examples > 0 ? Math.max(1, Math.ceil(examples / 2)) : 0);

interface Lane {
  operationId: string;
  method: string;
  kind: LaneKind;
  arbitrary: fc.Arbitrary<GeneratedCase>;
  runs: number;
}

/** Runs lanes: the class-A ones and the class-B ones side by side, each chain sharing what is left of the deadline. */
async function runLanes(
  lanes: Lane[],
  api: Api,
  g: GenerationSettings,
  /** Wall-clock end of the generated requests (--max-time, shared by every generated scenario of the run). */
  deadline: number,
  contract: GenerationContext['contract'],
  /** Told each answer (the run's own videos); the steps it returns are judged with the case's (the video followed to its end). */
  answered?: (ex: Exchange) => Promise<Step[]>,
) {
  const out = new Map<string, LaneResult>();
  const chain = async (list: Lane[]) => {
    for (const [i, l] of list.entries()) {
      // Each lane gets an equal share of what is left, so that a slow one does not starve the rest.
      const share = Math.max(0, deadline - Date.now()) / (list.length - i);
      const name = `${l.operationId} ${LANE_NAMES[l.kind]}`;
      const send = async (c: GeneratedCase) => {
        const exchange = await sendCase(api, c);
        return [{ case: c, exchange }, ...((await answered?.(exchange)) ?? [])];
      };
      out.set(
        laneKey(l.operationId, l.kind),
        await runLane(l.arbitrary, send, {
          name,
          runs: l.runs,
          seed: laneSeed(g.seed, name),
          deadline: Date.now() + share,
          shrinkRequests: SHRINK_REQUESTS,
          contract,
        }),
      );
    }
  };
  const classOf = (l: Lane) => (l.method === 'GET' ? 'B' : 'A');
  await Promise.all(Object.keys(RATE_LIMITS).map((c) => chain(lanes.filter((l) => classOf(l) === c))));
  return out;
}

/** How `--examples N` splits between an operation's two lanes with the key (refused first), or goes whole to one. */
export function splitRuns(examples: number, both: boolean): { refused: number; conforms: number } {
  return both
    ? { refused: Math.ceil(examples / 2), conforms: Math.floor(examples / 2) }
    : { refused: examples, conforms: 0 };
}

/** Which operations a profile lets generate: GET in every profile, the POSTs from no-credit on (they are refused: no credit). */
const allowed = (method: string, profile: PlanTarget['profile']) => method === 'GET' || profile !== 'read-only';

function costOf(p: PlanTarget, runs: (g: GenerationSettings) => number, apart: boolean): Partial<Cost> {
  const g = p.target.generation;
  if (!g) return {};
  const n = runs(g);
  const cost = { A: 0, B: 0, apartA: 0, apartB: 0, atRisk: 0 };
  for (const o of loadContract().operations) {
    if (!allowed(o.method, p.profile) || (g.operations && !g.operations.includes(o.operationId))) continue;
    if (o.method === 'GET') apart ? (cost.apartB += n) : (cost.B += n);
    else if (apart) cost.apartA += n;
    else {
      cost.A += n;
      // Each is a request a conforming target refuses: a broken one would charge it (the guard holds it).
      cost.atRisk += n;
    }
  }
  // The options of the convertible source, read once (the rows of 7.2 that depend on it).
  if (!apart && p.profile !== 'read-only' && p.target.stateful) cost.B += 1;
  return { ...cost, upTo: true, ...(!apart && { upToA: true }) };
}

export interface GeneratedScenarios {
  keyed: Scenario<GeneratedRecord>;
  keyless: Scenario<GeneratedRecord>;
  links: Scenario<GeneratedRecord>;
  /** POSTs the interface allows: generations and conversions, a credit each (full profile, within --budget). */
  spending: Scenario<GeneratedRecord>;
}

/** The link sequences' lane key: one lane, judged per operation by the steps that reached it. */
export const LINKS_LANE = 'links';

/** When the generated requests of a run must end: --max-time from the first of them sent (one per run, shared by every phase). */
export type GenerationClock = (g: GenerationSettings) => number;

export function generationClock(): GenerationClock {
  let end: number | undefined;
  return (g) => (end ??= Date.now() + g.maxTimeMs);
}

export function generatedScenarios(phaseEnd: GenerationClock = generationClock()): GeneratedScenarios {
  const make = (keyless: boolean): Scenario<GeneratedRecord> =>
    scenario({
      name: keyless ? 'generated requests without a key' : 'generated requests',
      keyless,
      generated: true,
      cost: (p) => costOf(p, (g) => (keyless ? keylessRuns(g.examples) : g.examples), keyless),
      send: async (s) => {
        const g = generationOf(s.run.target);
        const profile = s.run.target.profile;
        const ctx = await context(s, profile, !keyless);
        const lanes: Lane[] = [];
        const leftOut = new Map<string, string>();
        for (const op of operationArbitraries(ctx)) {
          if (g.operations && !g.operations.includes(op.operationId)) continue;
          if (!allowed(op.method, profile)) {
            leftOut.set(op.operationId, `profile ${profile}: no ${op.method} request`);
            continue;
          }
          const add = (kind: LaneKind, arbitrary: fc.Arbitrary<GeneratedCase> | undefined, runs: number) => {
            if (arbitrary && runs > 0)
              lanes.push({ operationId: op.operationId, method: op.method, kind, arbitrary, runs });
          };
          if (keyless) add('keyless', op.keyless, keylessRuns(g.examples));
          else {
            const runs = splitRuns(g.examples, Boolean(op.refused && op.conforms));
            add('refused', op.refused, runs.refused);
            add('conforms', op.conforms, runs.conforms);
          }
        }
        const lanesRun = await runLanes(lanes, keyless ? s.anon : s.main, g, phaseEnd(g), s.run.contract);
        return { seed: g.seed, lanes: lanesRun, leftOut };
      },
    });
  const links = scenario<GeneratedRecord>({
    name: 'generated link sequences',
    generated: true,
    cost: (p) => {
      const g = p.target.generation;
      if (!g || !p.target.stateful) return {};
      const most = linkRuns(g.examples) * MAX_STEPS;
      const posting = p.profile !== 'read-only';
      return { B: most, upTo: true, ...(posting && { A: most, atRisk: most, upToA: true }) };
    },
    send: async (s) => {
      const g = generationOf(s.run.target);
      const leftOut = new Map<string, string>();
      if (!s.run.target.stateful) {
        leftOut.set(LINKS_LANE, `target ${s.run.target.kind} is a stateless mock: its answers' ids lead nowhere`);
        return { seed: g.seed, lanes: new Map(), leftOut };
      }
      if (g.operations && ![...reachable(s.run.contract)].some((o) => g.operations?.includes(o))) {
        leftOut.set(LINKS_LANE, 'no operation a link sequence reaches is judged in this run (--only)');
        return { seed: g.seed, lanes: new Map(), leftOut };
      }
      const name = LANE_NAMES.links;
      const profile = s.run.target.profile;
      const lane = await runLane(sequences, (choices) => sendSequence(s.main, s.run.contract, profile, choices), {
        name,
        runs: linkRuns(g.examples),
        seed: laneSeed(g.seed, name),
        deadline: phaseEnd(g),
        shrinkRequests: SHRINK_REQUESTS,
        contract: s.run.contract,
        // First the deepest path, each step following the link the last answer offered (list → options →
        // conversion): every reachable operation is met in each run, whatever the seed draws next.
        examples: [straightPath()],
      });
      return { seed: g.seed, lanes: new Map([[LINKS_LANE, lane]]), leftOut };
    },
  });
  const posts = () => loadContract().operations.filter((o) => o.method !== 'GET');
  const spending = scenario<GeneratedRecord>({
    name: 'generated requests that spend credits',
    generated: true,
    needs: [
      need.profile('full', 'generated generations and conversions (a credit each)'),
      need.stateful('it charges nothing and runs no video'),
    ],
    cost: (p) => {
      const g = p.target.generation;
      if (!g) return {};
      const ops = posts().filter((o) => !g.operations || g.operations.includes(o.operationId));
      const n = creditRuns(g.examples, p.budget) * ops.length;
      // Each is a start (class A) and a credit when accepted, its video read until it ends; at most (a
      // source, a setting, may be missing). The convertible source's options are read once first.
      return { A: n, B: 1, credits: n, reads: n, upTo: true, upToA: true };
    },
    send: async (s) => {
      const g = generationOf(s.run.target);
      const ctx = await context(s, s.run.target.profile, true);
      const lanes: Lane[] = [];
      const leftOut = new Map<string, string>();
      for (const op of operationArbitraries(ctx)) {
        if (op.method === 'GET' || (g.operations && !g.operations.includes(op.operationId))) continue;
        if (!op.spends)
          leftOut.set(op.operationId, 'the run knows no setting or convertible video to send a valid request with');
        else
          lanes.push({
            operationId: op.operationId,
            method: op.method,
            kind: 'spends',
            arbitrary: op.spends,
            runs: creditRuns(g.examples, s.run.budget),
          });
      }
      const run = s.run;
      const created: Exchange[] = [];
      const lanesRun = await runLanes(lanes, s.main, g, phaseEnd(g), run.contract, async (ex) => {
        // The run's own videos: never mistaken for another's.
        const id = idOf(ex);
        if (id) {
          run.created.push(id);
          created.push(ex);
        }
        return [];
      });
      // Each accepted request's video followed until it ends (x-polling), side by side; one that does not
      // end fails its lane (not shrunk: each try would create another video).
      await Promise.all(
        created.map(async (ex) => {
          const id = idOf(ex) ?? '';
          const lane = lanesRun.get(laneKey(ex.operationId ?? '', 'spends'));
          const polled = await pollUntilDone(run, id);
          const step = { case: terminalCase(id, `the video ${id} a generated request created`), exchange: polled.last };
          if (!lane) return;
          lane.sent.push({ case: step.case, exchanges: [step.exchange] });
          const failed = verdict(run.contract, [step]);
          if (failed && !lane.failure)
            lane.failure = {
              case: step.case,
              exchanges: [step.exchange],
              before: [],
              message: failed.message,
              first: step.case,
              shrinks: 0,
              shrinkRequests: 0,
            };
        }),
      );
      return { seed: g.seed, lanes: lanesRun, leftOut };
    },
  });
  return { keyed: make(false), keyless: make(true), links, spending };
}
