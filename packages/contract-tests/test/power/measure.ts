// The power of a default run: each generative fault is a server of its own (the sandbox behind one class
// of inputs that fails), and a default run of the suite either finds it or not, with one of its phases,
// after some number of requests. A class is found when a failed check shows an answer of its fault
// (`x-generative-fault`), or, for a hang, names the request the fault held.
//
// A run here is the default run's generated phases and its response checks for the fault's operation
// (as `--only OPERATION` judges them): the hand-written scenarios send no request of any class (the
// self-test runs them alone against every fault at once and counts none), the boundary phase is the same
// requests whatever else runs, and each random lane draws from a seed of its own (the run's seed and
// the lane's name), so the operation's requests are those of the whole default run.
import type { RunningSandbox } from '@videogen/sandbox';
import { checkId, type Check } from '../../src/engine/catalogue.ts';
import type { RunResult } from '../../src/engine/runner.ts';
import type { AttemptLimits, Profile, TargetConfig } from '../../src/shapes.ts';
import { operationEntry } from '../../src/engine/http.ts';
import { startFaultServer, type GenerativeFault } from '../generative-faults.ts';
import { generation, runSuite } from '../harness.ts';

export type Phase = 'boundary' | 'random' | 'scenarios';

export interface ClassResult {
  fault: GenerativeFault;
  profile: Profile;
  seed: number;
  /** The profile sends no request the class could hold (a POST in read-only). */
  outOfProfile?: boolean;
  /** Requests of its class the run sent. */
  sent: number;
  /** The place of the first of them among the run's requests (what meeting it cost). */
  firstAt?: number;
  found: boolean;
  /** The phase whose request showed it (or whose check named the request it held). */
  phase?: Phase;
  check?: string;
  /** Requests the run sent, and its wall time. */
  requests: number;
  seconds: number;
  /** Checks that failed for no answer of the fault: false failures (none is expected). */
  unexplained: string[];
}

/**
 * A hang costs this long per attempt: the faults send the headers and hold the body forever, and the
 * suite gives up on a body with nothing for --body-timeout (default 30 s; shortened here so that a
 * hang costs seconds, not minutes: the timeout is not what finds it). The headers get longer than the
 * default 60 s: the faults' server reads a 180 MB upload whole before the sandbox does, and with
 * several seeds measured at once on a busy machine that took more than 60 s (a false "no answer").
 */
export const HANG_LIMITS: AttemptLimits = { timeoutMs: 300_000, bodyTimeoutMs: 1000, bodyDeadlineMs: 3000 };

const phaseOf = (scenario: string): Phase =>
  scenario.startsWith('boundary') ? 'boundary' : scenario.startsWith('generated') ? 'random' : 'scenarios';
const phaseOfCheck = (name: string): Phase =>
  name.startsWith('boundary_') ? 'boundary' : name.startsWith('generated_') ? 'random' : 'scenarios';

/** The checks of a default run that judge generated requests: the phases' own, and the response checks over every answer. */
export const generatedOrResponse = (c: Check) => c.reads === 'all' || /^(boundary|generated)_/.test(c.name);

/** Whether the failed results show the fault, and which phase sent the request that did. */
function attribute(fault: GenerativeFault, results: RunResult[], held: string[]) {
  let found: { phase: Phase; check: string } | undefined;
  const explained = new Set<string>();
  for (const r of results.filter((x) => x.state === 'failed')) {
    for (const ex of r.exchanges ?? []) {
      if (ex.headers.get('x-generative-fault') !== fault.id) continue;
      explained.add(checkId(r));
      const phase = phaseOf(ex.scenario);
      // The boundary phase runs first: a request of it is what found the class.
      if (!found || (found.phase !== 'boundary' && phase === 'boundary')) found = { phase, check: checkId(r) };
    }
    if (held.some((request) => (r.message ?? '').includes(request))) {
      explained.add(checkId(r));
      found ??= { phase: phaseOfCheck(r.name), check: checkId(r) };
    }
  }
  return { found, explained };
}

/** One default run (--examples 10, --max-time 120, the seed given) against the fault's own server. */
export async function measureClass(
  sandbox: { config: TargetConfig; handle: RunningSandbox },
  fault: GenerativeFault,
  profile: Profile,
  seed: number,
): Promise<ClassResult> {
  const [one] = await measureGroup(sandbox, [fault], profile, seed);
  return one;
}

/** Whether a group's run sends the uploads at the plans' size limits (hundreds of megabytes): only the group of the class they show. */
export const showsUploadSizes = (group: readonly GenerativeFault[]) =>
  group.some((f) => f.id === 'generate-size-at-limit');

/**
 * One default run against a server that breaks every class of `faults` at once (each answers its own
 * fault): the self-test's lean form, whose groups keep apart the classes that would hide each other
 * (GenerativeFault.alone). A class is judged as in a run of its own; the run's requests and time are
 * the group's.
 */
export async function measureGroup(
  sandbox: { config: TargetConfig; handle: RunningSandbox },
  faults: GenerativeFault[],
  profile: Profile,
  seed: number,
  /** Leave the uploads at the plans' size limits out (the self-test's lean form, for the groups they cannot show). */
  opts: { sizes?: boolean } = {},
): Promise<ClassResult[]> {
  const posting = (f: GenerativeFault) => ['generateVideo', 'createConversion'].includes(f.operation);
  const base = (fault: GenerativeFault) => ({
    fault,
    profile,
    seed,
    sent: 0,
    found: false,
    requests: 0,
    seconds: 0,
    unexplained: [],
  });
  const out = faults
    .filter((f) => profile === 'read-only' && posting(f))
    .map((f) => ({ ...base(f), outOfProfile: true }));
  const live = faults.filter((f) => !(profile === 'read-only' && posting(f)));
  if (!live.length) return out;
  const operations = [...new Set(live.map((f) => f.operation))];
  const server = await startFaultServer(sandbox.handle.origin, live);
  const started = Date.now();
  try {
    const g = { ...generation(seed), operations };
    const { results } = await runSuite(
      { ...sandbox.config, baseUrl: server.baseUrl, limits: HANG_LIMITS, generation: g },
      {
        profile,
        operations,
        checks: (c) => generatedOrResponse(c) && (opts.sizes !== false || c.name !== 'boundary_upload_sizes'),
      },
    );
    const explained = new Set<string>();
    const measured = live.map((fault) => {
      const mine = server.hits.filter((h) => h.fault === fault.id);
      const held = fault.failure === 'hang' ? mine.map((h) => h.request) : [];
      const a = attribute(fault, results, held);
      for (const id of a.explained) explained.add(id);
      return {
        ...base(fault),
        sent: mine.length,
        ...(mine.length && { firstAt: mine[0].at }),
        found: Boolean(a.found),
        ...(a.found && { phase: a.found.phase, check: a.found.check }),
      };
    });
    const seconds = (Date.now() - started) / 1000;
    const unexplained = results
      .filter((r) => r.state === 'failed' && !explained.has(checkId(r)))
      .map((r) => `${checkId(r)}: ${(r.message ?? '').split('\n').slice(0, 4).join(' / ')}`);
    return [...out, ...measured.map((m) => ({ ...m, requests: server.received(), seconds, unexplained }))];
  } finally {
    await server.close();
  }
}

/**
 * As few runs as keep the classes from hiding each other: the GET classes together, the POST classes
 * together, and each class whose 500 may have spent a credit in a run of its own (GenerativeFault.alone:
 * the credit guard sends no create once the run's credits may be spent). A class found among others is
 * found alone (the others' answers can only stop requests, never add one): the share measured so is a
 * lower bound of the share a run of each class alone finds.
 */
export function faultGroups(faults: readonly GenerativeFault[]): GenerativeFault[][] {
  const gets = faults.filter((f) => operationEntry(f.operation).method === 'GET');
  const posts = faults.filter((f) => !gets.includes(f));
  return [gets, posts.filter((f) => !f.alone), ...posts.filter((f) => f.alone).map((f) => [f])].filter((g) => g.length);
}
