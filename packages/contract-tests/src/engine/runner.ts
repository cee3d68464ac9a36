// Runs a catalogue as its selection says: each scenario is sent once, when a check first reads it (its
// requests labelled with its name); each check's judgement is then a pure function of the record.
import { FIXTURE_ENV, type CheckResult, type Exchange, type FixtureName } from '../shapes.ts';
import type { Catalogue, Check, FixtureFindings, Scenario, Sender } from './catalogue.ts';
import { Judge } from './judge.ts';
import { Blocked, DecisionStop, Skip, Violation } from './outcomes.ts';
import { redact } from './redact.ts';
import type { Run } from './run.ts';
import type { Selection } from './selection.ts';

/** A check's result, with the exchanges a failure bundle replays (its scenarios' and those it points at). */
export type RunResult = CheckResult & { exchanges?: Exchange[] };

type Settled<R> = { ok: true; record: R } | { ok: false; error: unknown };

class ScenarioRunner {
  /** Each scenario's settled send: its own record (R of the Scenario<R> it is keyed by). */
  private readonly memo = new Map<Scenario, Promise<Settled<unknown>>>();
  private readonly selected: Set<Scenario>;

  constructor(
    readonly run: Run,
    private readonly catalogue: Catalogue,
    private readonly selection: Selection,
  ) {
    this.selected = new Set(selection.scenarios.map((s) => s.scenario));
  }

  get main() {
    return this.run.main;
  }

  get anon() {
    return this.run.anon;
  }

  api(account: 'main' | 'other' | 'freePlan' | 'noCredit') {
    const a = this.run.api(account);
    if (!a) throw new Skip(`no key of the ${account} account`);
    return a;
  }

  isSelected(s: Scenario<unknown>): boolean {
    return this.selected.has(s);
  }

  /** What a scenario's send sees. */
  view(): Sender {
    return {
      run: this.run,
      main: this.run.main,
      anon: this.run.anon,
      api: (a) => this.api(a),
      fixture: (n, o) => this.fixture(n, o),
      maybeFixture: (n, o) => this.maybeFixture(n, o),
      read: (s) => this.read(s),
      selected: (s) => this.isSelected(s),
      as: (s, fn) => this.as(s, fn),
    };
  }

  async read<R>(s: Scenario<R>): Promise<R> {
    let p = this.memo.get(s);
    if (!p) {
      p = this.settle(s);
      this.memo.set(s, p);
    }
    const r = await p;
    if (!r.ok) throw r.error;
    // The record `s` sent (the memo is keyed by the scenario whose R it holds).
    return r.record as R;
  }

  private async settle<R>(s: Scenario<R>): Promise<Settled<R>> {
    try {
      const why = this.selection.skippedScenarios.get(s);
      if (why) throw new Skip(why);
      for (const u of s.uses) await this.read(u);
      const done: Settled<R> = { ok: true, record: await this.run.as(s.name, () => s.send(this.view())) };
      // Resolved before its follow-ups, which read it.
      this.memo.set(s, Promise.resolve(done));
      for (const t of s.then) if (this.selected.has(t) && !this.memo.has(t)) await this.read(t).catch(() => undefined);
      return done;
    } catch (error) {
      return { ok: false, error };
    }
  }

  as<T>(s: Scenario<unknown>, fn: () => Promise<T>): Promise<T> {
    return this.run.as(s.name, fn);
  }

  async maybeFixture(name: FixtureName, opts: { made?: boolean } = {}): Promise<string | undefined> {
    try {
      return await this.fixture(name, opts);
    } catch (e) {
      if (e instanceof Skip) return undefined;
      throw e;
    }
  }

  /** Configured, else from the first source that has it: discovered on the target, or made by the run. */
  async fixture(name: FixtureName, opts: { made?: boolean } = {}): Promise<string> {
    const configured = this.run.target.fixtures[name];
    if (configured) return configured;
    const notes: string[] = [];
    for (const src of this.catalogue.fixtureSources) {
      if (!src.provides.includes(name) || !this.selected.has(src.scenario) || (src.makes && opts.made === false))
        continue;
      let f: FixtureFindings;
      try {
        f = await this.read(src.scenario);
      } catch (e) {
        if (e instanceof Skip) {
          notes.push(e.reason);
          continue;
        }
        throw e;
      }
      const id = f.found[name];
      if (id) return id;
      const blocked = f.blocked[name];
      if (blocked) throw new Blocked(`looking for ${name} (${src.scenario.name})`, blocked);
      const note = f.notes[name];
      if (note) notes.push(note);
    }
    throw new Skip(`no fixture ${name}: set ${FIXTURE_ENV[name]}${notes.length ? ` (${notes.join('; ')})` : ''}`);
  }

  /** The exchanges of a scenario and the scenarios it uses (what a failure bundle replays, in order). */
  exchangesOf(s: Scenario): Exchange[] {
    const names = new Set<string>();
    const visit = (x: Scenario) => {
      if (names.has(x.name)) return;
      names.add(x.name);
      x.uses.forEach(visit);
    };
    visit(s);
    return this.run.exchanges.filter((e) => names.has(e.scenario));
  }
}

/** The sending side of a run outside the catalogue's checks (contract --seed-fixtures): fixtures, scenarios. */
export function createSender(run: Run, catalogue: Catalogue, selection: Selection): Sender {
  return new ScenarioRunner(run, catalogue, selection).view();
}

export interface RunCatalogueOptions {
  /** Called as each check ends (progress lines). */
  onResult?: (r: RunResult, index: number, total: number) => void;
}

export async function runCatalogue(
  run: Run,
  catalogue: Catalogue,
  selection: Selection,
  opts: RunCatalogueOptions = {},
): Promise<RunResult[]> {
  run.creditCap = selection.creditCap;
  run.capReason = selection.capReason;
  run.budget = selection.budget;
  const sender = new ScenarioRunner(run, catalogue, selection);
  const view = sender.view();
  const out: RunResult[] = [];
  for (const [i, planned] of selection.checks.entries()) {
    const r = planned.skip
      ? {
          operation: planned.check.operation,
          name: planned.check.name,
          state: 'skipped' as const,
          message: redact(planned.skip),
          ms: 0,
        }
      : await judgeOne(run, sender, view, planned.check);
    out.push(r);
    opts.onResult?.(r, i, selection.checks.length);
  }
  return out;
}

async function judgeOne(run: Run, runner: ScenarioRunner, s: Sender, c: Check): Promise<RunResult> {
  const started = performance.now();
  const base = { operation: c.operation, name: c.name };
  const j = new Judge(run.contract);
  const mismatches = () => j.mismatches.map((m) => ({ ...m, message: redact(m.message) }));
  try {
    for (const n of c.needs) if (n.kind === 'fixture') await s.fixture(n.fixture, { made: n.made });
    const record = c.reads === 'all' ? run.exchanges.slice() : await s.read(c.reads);
    c.judge(record, j);
    const found = mismatches();
    const ms = performance.now() - started;
    if (found.length)
      return {
        ...base,
        state: 'drift',
        message: found.map((m) => `decision #${m.decision.join(', #')}: ${m.message}`).join('\n'),
        mismatches: found,
        ms,
      };
    return { ...base, state: 'passed', ...(j.note && { note: redact(j.note) }), ms };
  } catch (err) {
    const ms = performance.now() - started;
    const found = mismatches();
    if (err instanceof DecisionStop)
      return {
        ...base,
        state: 'drift',
        message: found.map((m) => `decision #${m.decision.join(', #')}: ${m.message}`).join('\n'),
        mismatches: found,
        ms,
      };
    if (err instanceof Skip)
      return { ...base, state: 'skipped', message: redact(err.reason), ms, ...(found.length && { mismatches: found }) };
    // An interface failure outweighs the mismatches met before it; they still go to the drift report.
    const message = redact((err as Error)?.message ?? String(err));
    const own = c.reads === 'all' || c.bundle === 'shown' ? [] : runner.exchangesOf(c.reads);
    const shown = err instanceof Violation ? err.exchanges : [];
    const exchanges = [...new Set([...own, ...shown])].sort((a, b) => a.seq - b.seq);
    return {
      ...base,
      state: 'failed',
      message: err instanceof Violation || err instanceof Error ? message : `error: ${message}`,
      ms,
      exchanges,
      ...(found.length && { mismatches: found }),
      ...(err instanceof Violation && err.inputClasses && { inputClasses: err.inputClasses }),
    };
  }
}
