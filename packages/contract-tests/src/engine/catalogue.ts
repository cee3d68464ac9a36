// What the catalogue is made of. Scenarios send (each request once, recorded as named exchanges);
// checks judge (pure functions of a scenario's record). Each declares beside itself what it needs
// and what it costs, so that --plan, the credit budget and the run read the same declarations.
import {
  NO_COST,
  type Account,
  type Cost,
  type Exchange,
  type FixtureIds,
  type FixtureName,
  type Profile,
  type TargetConfig,
} from '../shapes.ts';
import type { OperationId } from '@videogen/openapi/types';
import type { Api } from './http.ts';
import type { Judge } from './judge.ts';
import type { Run } from './run.ts';

/**
 * A condition a scenario or check needs; unmet, it is not sent (or not judged) and reports `why`.
 * All but `fixture` are known before anything is sent; a fixture is configured, discovered, or made by
 * the run itself (FixtureSource).
 */
export type Need =
  | { kind: 'profile'; profile: Exclude<Profile, 'read-only'>; why: string }
  | { kind: 'key'; account: Account; why: string }
  | { kind: 'stateful'; why: string }
  | { kind: 'checksKeys'; why: string }
  | { kind: 'sandbox'; why: string }
  | { kind: 'repeatedParts'; why: string }
  | { kind: 'budget'; why: string }
  | { kind: 'uploads'; why: string }
  | { kind: 'fixture'; fixture: FixtureName; made?: false };

export const need = {
  /** Runs in this profile and the ones above it (read-only < no-credit < full). */
  profile: (profile: Exclude<Profile, 'read-only'>, what: string): Need => ({ kind: 'profile', profile, why: what }),
  key: (account: Account, why: string): Need => ({ kind: 'key', account, why }),
  stateful: (why: string): Need => ({ kind: 'stateful', why }),
  checksKeys: (why: string): Need => ({ kind: 'checksKeys', why }),
  sandbox: (why: string): Need => ({ kind: 'sandbox', why }),
  repeatedParts: (why: string): Need => ({ kind: 'repeatedParts', why }),
  /** Spends credits beyond the run's own: only when the user set a credit budget (it may fit there). */
  budget: (why: string): Need => ({ kind: 'budget', why }),
  /** Uploads of megabytes (up to 180 MB): against a sandbox, or elsewhere only within a credit budget (they may create). */
  uploads: (why: string): Need => ({ kind: 'uploads', why }),
  fixture: (fixture: FixtureName): Need => ({ kind: 'fixture', fixture }),
  /** A fixture configured or found on the target, not one the run makes (needed before the run's videos complete). */
  foundFixture: (fixture: FixtureName): Need => ({ kind: 'fixture', fixture, made: false }),
};

/** What the plan knows before anything is sent. */
export interface PlanTarget {
  target: TargetConfig;
  profile: Profile;
  /** The credit budget, when the user set one. */
  budget?: number;
}

/** What a scenario's send gets: the run's APIs, fixtures, the records of the scenarios it uses. */
export interface Sender {
  readonly run: Run;
  readonly main: Api;
  readonly anon: Api;
  api(account: Account): Api;
  /** A fixture: configured, discovered, or made by the run; else it skips (or fails: the answer it rests on was an error). */
  fixture(name: FixtureName, opts?: { made?: boolean }): Promise<string>;
  /** A fixture when there is one, without skipping; `made: false` leaves out the run's own videos (no waiting for one). */
  maybeFixture(name: FixtureName, opts?: { made?: boolean }): Promise<string | undefined>;
  /** The record of a scenario (sent once per run). */
  read<R>(scenario: Scenario<R>): Promise<R>;
  /** Whether the plan of this run sends `scenario` (a scenario sent in the midst of another: the concurrency probe). */
  selected(scenario: Scenario<unknown>): boolean;
  /** Sends `fn`'s requests on behalf of `scenario` (its plan counts them, its checks' bundles show them). */
  as<T>(scenario: Scenario<unknown>, fn: () => Promise<T>): Promise<T>;
}

export interface Scenario<R = unknown> {
  readonly name: string;
  readonly needs: readonly Need[];
  /** Sends nothing with the main key (the authentication checks): runs without VIDEO_API_KEY. */
  readonly keyless?: boolean;
  /** Generated requests: their time is bounded by the run's time budget (--max-time), apart in the plan. */
  readonly generated?: boolean;
  /** Scenarios whose records it reads (sent first; a check of this one shows their exchanges too). */
  readonly uses: readonly Scenario[];
  /** Scenarios sent right after this one, before anything else (the concurrency probe, while the generations run). */
  readonly then: Scenario[];
  /** What it sends, declared (held to real runs by test/plan.test.ts). */
  cost(p: PlanTarget): Cost;
  send(s: Sender): Promise<R>;
}

/**
 * An answer a check provokes and expects of its operation: a status, and the code when one is expected
 * (the coverage matrix reads it: a documented answer no running check provokes is "not reachable" with
 * the reason those checks skip). A check that declares none expects the operation's success.
 */
export interface Answer {
  status: number;
  code?: string;
}

/** A check of one operation (`Id`), judging a record of type R. */
export interface Check<R = unknown, Id extends OperationId = OperationId> {
  readonly operation: Id;
  readonly answers?: readonly Answer[];
  readonly name: string;
  /** The scenario whose record it judges; `all` for the conformance checks (every exchange of the run so far). */
  readonly reads: Scenario<R> | 'all';
  readonly needs: readonly Need[];
  /**
   * What a failure's bundle replays: by default its scenario's exchanges and those its failure shows;
   * `shown`: only those (generated requests: the one request a failure was shrunk to).
   */
  readonly bundle?: 'shown';
  judge(record: R, j: Judge): void;
}

export const checkId = (c: { operation: string; name: string }) => `${c.operation} › ${c.name}`;

export function scenario<R>(s: {
  name: string;
  needs?: Need[];
  uses?: Scenario[];
  keyless?: boolean;
  generated?: boolean;
  cost: Partial<Cost> | ((p: PlanTarget) => Partial<Cost>);
  send: (s: Sender) => Promise<R>;
}): Scenario<R> {
  const cost = s.cost;
  return {
    name: s.name,
    needs: s.needs ?? [],
    keyless: s.keyless,
    ...(s.generated && { generated: true }),
    uses: s.uses ?? [],
    // biome-ignore lint/suspicious/noThenProperty: a scenario's follow-ups; an array, so a scenario is never taken for a thenable
    then: [],
    cost: (p) => ({ ...NO_COST, ...(typeof cost === 'function' ? cost(p) : cost) }),
    send: s.send,
  };
}

/** A check judging a shared scenario. */
export function check<R, Id extends OperationId>(
  operation: Id,
  name: string,
  reads: Scenario<R>,
  judge: (record: R, j: Judge) => void,
  needs: Need[] = [],
  answers?: Answer[],
): Check<R, Id> {
  return { operation, name, reads, needs, judge, ...(answers && { answers }) };
}

/**
 * A check with requests of its own: its scenario (named after it) sends them, declared beside the
 * judgement that reads them.
 */
export function probe<R, Id extends OperationId>(
  operation: Id,
  name: string,
  p: {
    needs?: Need[];
    uses?: Scenario[];
    keyless?: boolean;
    cost: Partial<Cost> | ((p: PlanTarget) => Partial<Cost>);
    send: (s: Sender) => Promise<R>;
    judge: (record: R, j: Judge) => void;
    /** The answers it provokes (none: the operation's success). */
    answers?: Answer[];
  },
): Check<R, Id> {
  const own = scenario({
    name: checkId({ operation, name }),
    needs: p.needs,
    uses: p.uses,
    keyless: p.keyless,
    cost: p.cost,
    send: p.send,
  });
  return { operation, name, reads: own, needs: [], judge: p.judge, ...(p.answers && { answers: p.answers }) };
}

/** Where a fixture comes from when it is not configured: a scenario that looks for it (discovery) or makes it. */
export interface FixtureSource {
  provides: readonly FixtureName[];
  /** The run makes it (its own generated video), rather than looks for it on the target (discovery). */
  makes?: boolean;
  scenario: Scenario<FixtureFindings>;
}

/** What a fixture source found: ids, why one is missing, and the error answer that kept it from looking. */
export interface FixtureFindings {
  found: Partial<FixtureIds>;
  notes: Partial<Record<FixtureName, string>>;
  blocked: Partial<Record<FixtureName, Exchange>>;
}

export interface Catalogue {
  /** In the order they are judged; conformance last. */
  checks: Check[];
  fixtureSources: FixtureSource[];
}
