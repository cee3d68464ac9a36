// The state of one contract run: the target, the pacer (one per process), every exchange.
import { Api, type Exchange, type RunRecorder } from './http.ts';
import { Pacer } from '@videogen/openapi/rules';
import { DriftReport } from './drift.ts';
import type { Mismatch } from './checks/types.ts';
import { loadContract, type Contract } from './spec.ts';
import { registerTargetSecrets, type TargetConfig } from './target.ts';
import { resolveFixtures, type Fixtures } from './fixtures.ts';
import { SkipError } from './checks/types.ts';

export class Run implements RunRecorder {
  readonly contract: Contract;
  readonly pacer: Pacer;
  readonly exchanges: Exchange[] = [];
  currentCheck = 'setup';
  /** 429/503 answers met outside the checks that provoke them, waited out and re-sent. */
  retries = 0;
  readonly drift: DriftReport;
  /** Decision mismatches fail the run too (CONTRACT_STRICT=1; the default against a sandbox we started). */
  readonly strict: boolean;
  readonly timeScale: number;
  readonly main: Api;
  readonly anon: Api;
  readonly other?: Api;
  readonly freePlan?: Api;
  readonly noCredit?: Api;
  /** Videos this run created, so that the concurrency check can wait for them to finish. */
  readonly created: string[] = [];
  /** Ids of `created` seen in a state other than running (no need to read them again). */
  readonly finished = new Set<string>();
  /** Results that one check produces and later checks assert on (one generation serves several checks). */
  readonly scratch = new Map<string, Promise<any>>();
  private fixturesPromise?: Promise<Fixtures>;
  /** Where a failed check writes its replayable bundle (src/failures.ts); unset: none written. */
  failuresDir?: string;
  /** CONTRACT_CREDIT_BUDGET: credits this run may spend at most, and the checks the budget leaves out (src/plan.ts). */
  creditBudget?: number;
  budgetSkips?: Map<string, string>;

  /** Credits spent so far: generations and conversions the target accepted (src/check-costs.ts). */
  get creditsSpent(): number {
    return this.exchanges.filter((e) => (e.operationId === 'generateVideo' || e.operationId === 'createConversion') && e.method === 'POST' && e.status >= 200 && e.status < 300).length;
  }

  /** Called before a request is sent: once the budget is spent, no request that could start a video goes out. */
  beforeSend(operationId: string | undefined): void {
    if (this.creditBudget === undefined || (operationId !== 'generateVideo' && operationId !== 'createConversion')) return;
    if (this.creditsSpent >= this.creditBudget) throw new SkipError(`credit budget ${this.creditBudget} (CONTRACT_CREDIT_BUDGET) spent: no more generation or conversion requests`);
  }

  constructor(readonly target: TargetConfig) {
    registerTargetSecrets(target);
    this.contract = loadContract();
    this.timeScale = target.timeScale;
    this.pacer = new Pacer({ timeScale: target.timeScale });
    this.pacer.enabled = target.rateLimited !== false;
    this.strict = target.strict;
    this.drift = new DriftReport(target.driftFile);
    const api = (account: string, key: string | undefined) => new Api(this, target.baseUrl, account, key);
    this.main = api('main', target.apiKey);
    this.anon = api('anonymous', undefined);
    if (target.otherAccountKey) this.other = api('other', target.otherAccountKey);
    if (target.freePlanKey) this.freePlan = api('free-plan', target.freePlanKey);
    if (target.noCreditKey) this.noCredit = api('no-credit', target.noCreditKey);
  }

  recordMismatches(checkId: string, found: Mismatch[]): void {
    this.drift.add(checkId, found);
  }

  fixtures(): Promise<Fixtures> {
    if (!this.fixturesPromise) {
      const previous = this.currentCheck;
      this.currentCheck = 'fixture discovery';
      this.fixturesPromise = resolveFixtures(this).finally(() => (this.currentCheck = previous));
    }
    return this.fixturesPromise;
  }

  /** Run `make` once per run under `key`; later callers get the same promise. */
  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.scratch.has(key)) this.scratch.set(key, make());
    return this.scratch.get(key)!;
  }

  /**
   * Sends `send` on behalf of `check`: its exchanges are that check's (counted for it by the plan, in its
   * failure bundle), though an earlier check runs it: the concurrency probe, sent while the shared
   * generations run (src/checks/shared-generations.ts).
   */
  async onBehalfOf<T>(check: string, send: () => Promise<T>): Promise<T> {
    const previous = this.currentCheck;
    this.currentCheck = check;
    try {
      return await send();
    } finally {
      this.currentCheck = previous;
    }
  }

  /** Sleep in target time: `seconds` of the real service, divided by the time scale. */
  sleep(seconds: number): Promise<void> {
    return new Promise((r) => setTimeout(r, (seconds * 1000) / this.timeScale));
  }
}
