// The one way the suite sends a request: paced (the rules' pacer), answered as interface 7.1 says
// before anything is judged (a 5xx or no answer retried up to RETRY_POLICY.maxRetries times with
// exponential backoff, a 429 waited out until the reset, a 503 for the load waited out), each such
// transient answer reported apart, and the final answer recorded with what the response checks found.
import { matchOperation } from '@videogen/openapi';
import {
  classifyError,
  parseRetryAfter,
  RATE_LIMITS,
  RETRY_POLICY,
  type Pacer,
  type RateClass,
} from '@videogen/openapi/rules';
import type { Exchange, RequestOptions, TransientAnswer } from '../shapes.ts';
import type { Contract } from './contract.ts';
import { curlLine, recordRequest } from './recorded-request.ts';
import { redact } from './redact.ts';
import { responseProblems } from './responses.ts';

/** What a request needs from its run. */
export interface Recorder {
  readonly contract: Contract;
  readonly pacer: Pacer;
  readonly timeScale: number;
  /** The scenario sending now. */
  scenario(): string;
  /** Appends the final answer of a request (its seq assigned). */
  record(ex: Omit<Exchange, 'seq'>): Exchange;
  /** An answer retried or waited out: reported, never judged. */
  transient(t: TransientAnswer): void;
  /** May refuse to send a request with an account's key (the credit guard) by throwing. */
  beforeSend(operationId: string | undefined): void;
}

/** First backoff of a retried 5xx, in target seconds; doubled on each retry (x-retry-policy: exponential). */
const BACKOFF_SECONDS = 1;

export class Api {
  constructor(
    private readonly rec: Recorder,
    readonly baseUrl: string,
    /** The account whose limits this key spends (pacing is per account, 5.5). */
    readonly account: string,
    private readonly key: string | undefined,
  ) {}

  get hasKey(): boolean {
    return Boolean(this.key);
  }

  get(path: string, opts: RequestOptions = {}) {
    return this.request('GET', path, opts);
  }

  post(path: string, opts: RequestOptions = {}) {
    return this.request('POST', path, opts);
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Exchange> {
    const { contract, pacer } = this.rec;
    const op = matchOperation(contract.spec, method, path.split('?')[0]);
    const rateClass: RateClass = op?.operation['x-rate-limit']?.class ?? 'B';
    const startsVideo = Boolean(op?.operation['x-concurrency-limit']);
    const videoId = op?.pathParams.video_id;
    const qs = opts.query
      ? '?' +
        new URLSearchParams(Object.entries(opts.query).map(([k, v]) => [k, String(v)] as [string, string])).toString()
      : '';
    const auth = opts.auth ?? 'key';
    const label = auth === 'key' ? `key of ${this.account}` : auth === 'none' ? 'no key' : auth.label;
    const request = await recordRequest(method, path + qs, auth, opts);
    const line = `${method} ${path}${qs} (${label})`;
    // Limits apply per user account (5.5, 8.1): a request without the account's key spends no
    // account's quota, so it is not held back.
    const paced = opts.pace !== false && auth === 'key';
    const scenario = this.rec.scenario();
    let transients = 0;
    for (let attempt = 1; ; attempt++) {
      // The credit guard: only a request with an account's key can spend its credits.
      if (auth === 'key') this.rec.beforeSend(op?.operationId);
      const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
      if (auth === 'key') {
        if (!this.key) throw new Error('this request needs an API key (VIDEO_API_KEY)');
        headers.authorization = `Bearer ${this.key}`;
      } else if (auth !== 'none') headers.authorization = auth.header;
      let body: string | FormData | undefined;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers['content-type'] = 'application/json';
      } else if (opts.raw) {
        body = opts.raw.body;
        headers['content-type'] = opts.raw.contentType;
      } else if (opts.form) body = opts.form;
      const ticket = !paced
        ? undefined
        : await pacer.acquire({
            account: this.account,
            rateClass,
            startsVideo: startsVideo && opts.gate !== false,
            videoId,
            // Believed full: a status read of the oldest running video shows whether it has finished.
            checkRunning: (id) => this.get(`/videos/${id}/`),
          });
      const started = performance.now();
      let res: Response;
      let text: string;
      try {
        // redirect manual: a 3xx is recorded and judged like any other answer, never followed.
        const init = { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(60_000) } as RequestInit;
        res = await fetch(this.baseUrl + path + qs, init);
        text = await res.text();
      } catch (err) {
        ticket?.settle();
        const detail = redact(
          `${(err as Error).message}${(err as any).cause ? ` (${(err as any).cause.message ?? (err as any).cause})` : ''}`,
        );
        // No answer at all: retried like a 5xx (the request may not have arrived), then an error.
        if (attempt <= RETRY_POLICY.maxRetries) {
          this.rec.transient({
            scenario,
            request: line,
            operationId: op?.operationId,
            status: 0,
            detail,
            attempt,
            action: 'retried',
            curl: curlLine(this.baseUrl, request),
          });
          transients++;
          await this.sleepTarget(BACKOFF_SECONDS * 2 ** (attempt - 1));
          continue;
        }
        throw new Error(redact(`${line} got no answer after ${attempt} attempts: ${detail}`));
      }
      const answer = parseBody(res, text);
      const errorCode = typeof answer?.error_code === 'string' ? answer.error_code : undefined;
      const outcome = {
        status: res.status,
        headers: res.headers,
        error_code: errorCode,
        video_id: str(answer?.video_id),
        videoStatus: str(answer?.status),
      };
      if (ticket) ticket.settle(outcome);
      else if (auth === 'key') pacer.record(rateClass, undefined, this.account);
      const next = this.nextStep(res, errorCode, opts, { startsVideo, paced, rateClass }, attempt);
      if (next) {
        this.rec.transient({
          scenario,
          request: line,
          operationId: op?.operationId,
          status: res.status,
          errorCode,
          detail: errorCode ? undefined : redact(text.slice(0, 120)),
          attempt,
          action: next.action,
          curl: curlLine(this.baseUrl, request),
        });
        transients++;
        if (next.waitMs > 0) await new Promise((r) => setTimeout(r, next.waitMs));
        continue;
      }
      const { body: parsed, problems } = responseProblems(
        contract,
        op?.operationId,
        { status: res.status, contentType: res.headers.get('content-type') ?? '', headers: res.headers, text },
        opts.expectServerError,
      );
      return this.rec.record({
        scenario,
        operationId: op?.operationId,
        method,
        path: path + qs,
        auth: label,
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        headers: res.headers,
        body: parsed,
        text: redact(text.slice(0, 2000)),
        ms: performance.now() - started,
        problems: problems.map((p) => ({ ...p, message: redact(p.message) })),
        transients,
        request,
        baseUrl: this.baseUrl,
      });
    }
  }

  /**
   * Whether an answer is transient (interface 7.1) and how long to wait before sending again: a 5xx is
   * retried up to RETRY_POLICY.maxRetries times with exponential backoff (Retry-After when longer); a
   * 429 (not INSUFFICIENT_CREDIT) and a 503 are waited out the same number of times, unless the check
   * provokes them (retry: false). The pacer already holds the class back after a 429 and video starts
   * after a 503; any other 503 waits here, Retry-After else 30 s (target time).
   */
  private nextStep(
    res: Response,
    errorCode: string | undefined,
    opts: RequestOptions,
    how: { startsVideo: boolean; paced: boolean; rateClass: RateClass },
    attempt: number,
  ): { action: 'retried' | 'waited'; waitMs: number } | undefined {
    if (attempt > RETRY_POLICY.maxRetries) return undefined;
    const c = classifyError(res.status, errorCode);
    if (!c.retryable) return undefined;
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    if (c.wait === 'backoff') {
      if (opts.expectServerError && res.status === 500) return undefined;
      const backoff = (BACKOFF_SECONDS * 1000 * 2 ** (attempt - 1)) / this.rec.timeScale;
      return { action: 'retried', waitMs: Math.max(backoff, retryAfter ?? 0) };
    }
    if (opts.retry === false) return undefined;
    if (c.wait === 'server-load' && !how.startsVideo)
      return { action: 'waited', waitMs: retryAfter ?? RETRY_POLICY.serviceUnavailableDelayMs[0] / this.rec.timeScale };
    // A request the pacer does not hold (no key) waits the reset itself: Retry-After, else a whole window.
    if (c.wait === 'rate-limit' && !how.paced)
      return { action: 'waited', waitMs: retryAfter ?? RATE_LIMITS[how.rateClass].windowMs / this.rec.timeScale };
    return { action: 'waited', waitMs: 0 };
  }

  private sleepTarget(seconds: number): Promise<void> {
    return new Promise((r) => setTimeout(r, (seconds * 1000) / this.rec.timeScale));
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function parseBody(res: Response, text: string): Record<string, unknown> | undefined {
  if (!/json/i.test(res.headers.get('content-type') ?? '')) return undefined;
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}
