// The state of one contract run: the target, the pacer (one per run), the keys, every final exchange,
// every transient answer, the credits spent and the guard that keeps them within the run's limit.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Pacer, scheduleName } from '@videogen/openapi/rules';
import { createRedisPacerStore } from '@videogen/pacer-redis';
import { identity } from './key-names.ts';
import type { Exchange, TargetConfig, TransientAnswer } from '../shapes.ts';
import { loadContract, type Contract } from './contract.ts';
import { Api, type Recorder } from './http.ts';
import { GuardRefusal } from './outcomes.ts';
import { registerSecret } from './redact.ts';

const CREATES = new Set(['generateVideo', 'createConversion']);

/**
 * The scenario each run's requests are sent for, per run, in the async context that sends them. One
 * storage for the process: Node 20 calls every AsyncLocalStorage ever entered, and never let go of, at
 * each promise made, so one per run made every promise of a process that ran 40 runs 40 times dearer.
 */
const labels = new AsyncLocalStorage<ReadonlyMap<Run, string>>();

/** Whether an exchange spent a credit: a generation or conversion the target accepted (the suite's unit). */
export const spentCredit = (e: Exchange) =>
  CREATES.has(e.operationId ?? '') && e.method === 'POST' && e.status >= 200 && e.status < 300;

/**
 * Whether a run reads the target's pace from its RateLimit-Policy (the preflight) instead of taking the
 * config's: an external target, or a sandbox at a URL, whose time scale the user did not give.
 */
export const learnsTimeScale = (config: TargetConfig, timeScaleGiven: boolean) =>
  !timeScaleGiven && (config.kind === 'external' || config.paceFromTarget === true);

/**
 * The pacer of a run: spaced at the target's time scale (`'learn'`: learned from the target's
 * RateLimit-Policy, for an external target whose pace the user did not give), and shared with every
 * process pacing the account when the run has a pacing store (named as the client and the proxy name it).
 */
export function pacerFor(target: TargetConfig, scale: number | 'learn' = target.timeScale): Pacer {
  // Not a default parameter's `undefined`: that would silently take the config's 1 and pace a
  // time-scaled sandbox in real time.
  const timeScale = scale === 'learn' ? undefined : scale;
  const keys: Record<string, string | undefined> = {
    main: target.apiKey,
    other: target.otherAccountKey,
    'free-plan': target.freePlanKey,
    'no-credit': target.noCreditKey,
  };
  return new Pacer({
    timeScale,
    ...(target.pacingUrl && {
      store: createRedisPacerStore({
        url: target.pacingUrl,
        log: (_level, message) => process.stderr.write(`videogen-contract: ${message}\n`),
      }),
      storeName: (label: string) => scheduleName(target.baseUrl, keys[label] ? identity(keys[label]) : label),
    }),
  });
}

export class Run implements Recorder {
  readonly contract: Contract;
  readonly pacer: Pacer;
  readonly exchanges: Exchange[] = [];
  readonly transients: TransientAnswer[] = [];
  readonly timeScale: number;
  readonly limits?: TargetConfig['limits'];
  readonly main: Api;
  readonly anon: Api;
  readonly other?: Api;
  readonly freePlan?: Api;
  readonly noCredit?: Api;
  /** Videos this run created (waited for before the next generation, so that no 503 is provoked). */
  readonly created: string[] = [];
  /** Ids of `created` seen in a state other than running (not read again). */
  readonly finished = new Set<string>();
  /**
   * The most credits the run may spend (CONTRACT_CREDIT_BUDGET; 1 in the no-credit profile, where one
   * accepted request is the most at risk): once spent, no generation or conversion request goes out.
   */
  creditCap?: number;
  /** Why the cap is there, for the refusal's message. */
  capReason = '';
  /** The credit budget the user set (--budget), when one was: what spends credits beyond the run's own may then. */
  budget?: number;
  /** Creates whose attempt may have made a video although its answer did not say so: counted as spent. */
  private maybeSpent = 0;

  constructor(
    readonly target: TargetConfig,
    /** The pacer of requests sent before the run (the preflight's), so that it spaces the run's after them. */
    pacer?: Pacer,
  ) {
    for (const k of [target.apiKey, target.otherAccountKey, target.freePlanKey, target.noCreditKey]) registerSecret(k);
    this.contract = loadContract();
    this.timeScale = target.timeScale;
    this.limits = target.limits;
    this.pacer = pacer ?? pacerFor(target);
    this.pacer.enabled = target.rateLimited;
    const api = (account: string, key: string | undefined) => new Api(this, target.baseUrl, account, key);
    this.main = api('main', target.apiKey);
    this.anon = api('anonymous', undefined);
    if (target.otherAccountKey) this.other = api('other', target.otherAccountKey);
    if (target.freePlanKey) this.freePlan = api('free-plan', target.freePlanKey);
    if (target.noCreditKey) this.noCredit = api('no-credit', target.noCreditKey);
  }

  /** Ends the shared schedule's connection, if any. */
  close(): Promise<void> {
    return this.pacer.close();
  }

  /** Credits spent so far (a create that may have made a video counts: at most, never at least). */
  get creditsSpent(): number {
    return this.exchanges.filter(spentCredit).length + this.maybeSpent;
  }

  knownVideos(): ReadonlySet<string> {
    const t = this.target;
    return new Set([
      ...this.created,
      ...(t.seededIds ?? []),
      ...Object.values(t.fixtures).filter((v) => v !== undefined),
    ]);
  }

  mayHaveCreated(videoId: string | undefined): void {
    this.maybeSpent++;
    if (videoId) this.created.push(videoId);
  }

  scenario(): string {
    return labels.getStore()?.get(this) ?? 'setup';
  }

  /** Runs `fn` with its requests labelled as sent by `scenario`. */
  as<T>(scenario: string, fn: () => Promise<T>): Promise<T> {
    return labels.run(new Map(labels.getStore()).set(this, scenario), fn);
  }

  record(ex: Omit<Exchange, 'seq'>): Exchange {
    const full = { ...ex, seq: this.exchanges.length + 1 };
    this.exchanges.push(full);
    return full;
  }

  transient(t: TransientAnswer): void {
    this.transients.push(t);
  }

  beforeSend(operationId: string | undefined): void {
    if (this.creditCap === undefined || !CREATES.has(operationId ?? '')) return;
    if (this.creditsSpent >= this.creditCap)
      throw new GuardRefusal(
        this.capReason || `credit limit ${this.creditCap} reached: no more generation or conversion requests`,
      );
  }

  /** Sleep in target time: `seconds` of the real service, divided by the time scale. */
  sleep(seconds: number): Promise<void> {
    return new Promise((r) => setTimeout(r, (seconds * 1000) / this.timeScale));
  }

  api(account: 'main' | 'other' | 'freePlan' | 'noCredit'): Api | undefined {
    return this[account];
  }
}
