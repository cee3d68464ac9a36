// The one way the suite sends a request: paced (the rules' pacer), answered as interface 7.1 says
// before anything is judged (the rules' one retryDecision: a 5xx or no answer retried up to
// RETRY_POLICY.maxRetries times with exponential backoff, a 429 waited out until the reset, a 503 for
// the load waited out), each such transient answer reported apart, and the final answer recorded with
// what the response checks found. At most once for every POST: a generation or conversion that may
// have done its work is looked for (recovery.ts), never sent again blindly. Requests name their
// operation, as openapi-fetch types a call: `call('getVideo', { path: { video_id } })`; the method and
// the path template come from the document's operation table, never from a path written here.
import {
  BODY_LIMITS,
  noAnswerOf,
  OPERATIONS,
  readBody,
  retryDecision,
  type AttemptResult,
  type OperationEntry,
  type Pacer,
  type RateClass,
  type RetryDecision,
} from '@videogen/openapi/rules';
import type { JsonRequestBody, OperationId, PathParams, QueryParams, Untrusted } from '@videogen/openapi/types';
import type { AttemptLimits, Exchange, RecordedRequest, RequestOptions, TransientAnswer } from '../shapes.ts';
import type { Contract } from './contract.ts';
import { curlLine, recordRequest } from './recorded-request.ts';
import { lookForCreated } from './recovery.ts';
import { redact } from './redact.ts';
import { IN_MEMORY_FILE_BYTES } from './zero-file.ts';
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
  /** Ids of videos the run knows already (created, configured, seeded): a look for a new one skips them. */
  knownVideos(): ReadonlySet<string>;
  /** A create may have made a video (and spent a credit) although its answer did not say so; the video when found. */
  mayHaveCreated(videoId: string | undefined): void;
  /** The time and size limits of one attempt (TargetConfig.limits; attemptLimits fills the defaults). */
  readonly limits?: AttemptLimits;
}

/** Time limit for the answer's headers, once a request is sent (--timeout). */
const HEADERS_TIMEOUT_MS = 60_000;

/** The limits of one attempt: what the run was given, else the suite's defaults (the rules' BODY_LIMITS for the body). */
export const attemptLimits = (l: AttemptLimits = {}): Required<AttemptLimits> => ({
  timeoutMs: l.timeoutMs ?? HEADERS_TIMEOUT_MS,
  bodyTimeoutMs: l.bodyTimeoutMs ?? BODY_LIMITS.idleMs,
  bodyDeadlineMs: l.bodyDeadlineMs ?? BODY_LIMITS.totalMs,
  maxBodyBytes: l.maxBodyBytes ?? BODY_LIMITS.maxBytes,
});

/**
 * A request of one operation: its path parameters by name (any text: a malformed id is a request the
 * suite sends on purpose), its query (any value: `page=abc` too), and its body: JSON with the
 * document's field names and any values (a check sends wrong ones on purpose), a form, or raw bytes.
 */
export type Call<Id extends OperationId> = Omit<RequestOptions, 'query' | 'json'> &
  (keyof PathParams<Id> extends never ? { path?: undefined } : { path: { [K in keyof PathParams<Id>]: string } }) & {
    query?: { [K in keyof QueryParams<Id>]?: string | number };
    json?: [JsonRequestBody<Id>] extends [never] ? never : Untrusted<JsonRequestBody<Id>>;
  };

/** The entry of the document's operation table for an operationId (an unknown one is a bug of the suite). */
export function operationEntry(operationId: string): OperationEntry {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in the document`);
  return op;
}

/** How messages name an operation's requests: its method and path template (`GET /videos/{video_id}/`). */
export function requestLine(operationId: OperationId): string {
  const op = operationEntry(operationId);
  return `${op.method} ${op.path}`;
}

/** A request's query as sent (`?page=1&page=2`: a list is the parameter once per value), or nothing. */
export function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const pairs = Object.entries(query).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((one) => [k, String(one)] as [string, string]),
  );
  return `?${new URLSearchParams(pairs).toString()}`;
}

/** The operation's path template with its parameters filled in, each encoded as a path segment. */
export function filledPath(op: OperationEntry, params: Record<string, string | undefined> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

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

  /** Sends one request of `operationId` (paced, 7.1's retries, recorded); its final answer. */
  call<Id extends OperationId>(operationId: Id, req: Call<Id>): Promise<Exchange<Id>> {
    // Call<Id> is RequestOptions with typed parameters: the same data, read as such to send it.
    return this.callData(operationId, req as RequestOptions & { path?: Record<string, string> }) as Promise<
      Exchange<Id>
    >;
  }

  /**
   * A request whose parameters are data made at run time (a generated case): its operation named as the
   * document names it, its path parameters by name.
   */
  callData(operationId: string, req: RequestOptions & { path?: Record<string, string> }): Promise<Exchange> {
    const op = operationEntry(operationId);
    const { path: params, ...opts } = req;
    return this.send(op, op.method, filledPath(op, params), opts, params);
  }

  /**
   * What a request that got no answer (after the retries of 7.1) would have recorded: status 0, the
   * reason as its text. Not a recorded exchange of the run: for a failure's bundle, so that `--replay`
   * re-sends it too.
   */
  async unanswered(
    operationId: string,
    req: RequestOptions & { path?: Record<string, string> },
    reason: string,
  ): Promise<Exchange> {
    const op = operationEntry(operationId);
    const { path: params, ...opts } = req;
    const path = filledPath(op, params) + queryString(opts.query);
    const auth = opts.auth ?? 'key';
    return {
      seq: 0,
      scenario: this.rec.scenario(),
      operationId,
      method: op.method,
      path,
      auth: auth === 'key' ? `key of ${this.account}` : auth === 'none' ? 'no key' : auth.label,
      status: 0,
      contentType: '',
      headers: new Headers(),
      body: undefined,
      text: redact(`no answer: ${reason}`),
      ms: 0,
      problems: [{ kind: 'server_error', message: redact(`no answer: ${reason}`) }],
      transients: 0,
      request: await recordRequest(op.method, path, auth, opts, params),
      baseUrl: this.baseUrl,
      ...(opts.inputClasses && { inputClasses: opts.inputClasses }),
    };
  }

  /** A recorded request sent again as it was (--replay): its operation, method and path as recorded. */
  resend(operationId: string | undefined, request: RecordedRequest, opts: RequestOptions): Promise<Exchange> {
    const op = OPERATIONS.find((o) => o.operationId === operationId);
    return this.send(op, request.method, request.path, opts, request.pathParams);
  }

  private async send(
    op: OperationEntry | undefined,
    method: string,
    path: string,
    opts: RequestOptions,
    params: Record<string, string | undefined> = {},
  ): Promise<Exchange> {
    const { contract, pacer } = this.rec;
    const rateClass: RateClass = op?.rateClass ?? 'B';
    const startsVideo = op?.startsVideo ?? false;
    const videoId = params.video_id;
    const qs = queryString(opts.query);
    const auth = opts.auth ?? 'key';
    const label = auth === 'key' ? `key of ${this.account}` : auth === 'none' ? 'no key' : auth.label;
    const request = await recordRequest(method, path + qs, auth, opts, params);
    const line = `${method} ${path}${qs} (${label})`;
    // Limits apply per user account (5.5, 8.1): a request without the account's key spends no
    // account's quota, so it is not held back.
    const paced = opts.pace !== false && auth === 'key';
    const scenario = this.rec.scenario();
    let transients = 0;
    let firstSentAt: number | undefined;
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
            checkRunning: (id) => this.call('getVideo', { path: { video_id: id } }),
          });
      const started = performance.now();
      firstSentAt ??= Date.now();
      const sent = await sendOnce(this.baseUrl + path + qs, { method, headers, body }, attemptLimits(this.rec.limits));
      const report = (t: Pick<TransientAnswer, 'status' | 'errorCode' | 'detail' | 'action'>) => {
        this.rec.transient({
          scenario,
          request: line,
          operationId: op?.operationId,
          attempt,
          curl: curlLine(this.baseUrl, request),
          ...t,
        });
        transients++;
      };

      if ('error' in sent) {
        ticket?.settle();
        const { error } = sent;
        const cause = (error as { cause?: { message?: string } }).cause;
        const detail = redact(`${error.message}${cause ? ` (${cause.message ?? cause})` : ''}`);
        const d = this.decide(method, { failure: noAnswerOf(error) }, opts, { startsVideo, paced, rateClass }, attempt);
        if (d.lookFirst) {
          const note = await this.lookFirst(d, op?.operationId, opts, firstSentAt);
          if (note === 'resend') continue;
          throw new Error(
            redact(`${line} got no answer (${detail}); not sent again, it may have created a video: ${note}`),
          );
        }
        if (!d.retry) throw new Error(redact(`${line} got no answer after ${attempt} attempts: ${detail}`));
        // No answer at all: retried like a 5xx when it cannot have done any work.
        report({ status: 0, detail, action: 'retried' });
        await sleep(d.waitMs);
        continue;
      }

      const { res, text } = sent;
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
      const result: AttemptResult = { status: res.status, error_code: errorCode, headers: res.headers };
      const d = this.decide(method, result, opts, { startsVideo, paced, rateClass }, attempt);
      let notResent: string | undefined;
      if (d.lookFirst) {
        const note = await this.lookFirst(d, op?.operationId, opts, firstSentAt);
        if (note === 'resend') {
          report({ status: res.status, errorCode, detail: 'no video was made: sent again', action: 'retried' });
          continue;
        }
        notResent = note;
      } else if (d.retry) {
        report({
          status: res.status,
          errorCode,
          detail: errorCode ? undefined : redact(text.slice(0, 120)),
          action: d.reason === 'rate-limit' || d.reason === 'server-load' ? 'waited' : 'retried',
        });
        await sleep(d.waitMs);
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
        ...(notResent && { notResent }),
        ...(opts.inputClasses && { inputClasses: opts.inputClasses }),
      });
    }
  }

  /**
   * Interface 7.1 through the rules' retryDecision, with what a check asks for: a 500 it provokes on
   * purpose is the answer (expectServerError), and so are a 429 or a 503 it provokes (retry: false).
   * The pacer holds the class back after a 429 and a start after a 503; the target's time scale
   * shortens the suite's own waits.
   */
  private decide(
    method: string,
    result: AttemptResult,
    opts: RequestOptions,
    how: { startsVideo: boolean; paced: boolean; rateClass: RateClass },
    attempt: number,
  ): RetryDecision {
    const d = retryDecision({
      method,
      result,
      attempt: attempt - 1,
      rateClass: how.rateClass,
      startsVideo: how.startsVideo && opts.gate !== false,
      paced: how.paced,
      timeScale: this.rec.timeScale,
    });
    if (!('status' in result)) return d;
    const provoked =
      (opts.expectServerError && result.status === 500) ||
      (opts.retry === false && (d.reason === 'rate-limit' || d.reason === 'server-load'));
    return provoked ? { ...d, retry: false, lookFirst: undefined } : d;
  }

  /**
   * At most once: after the decision's wait, looks for the video a create may have made. `resend` when
   * the look shows none after an answer that ended the exchange (a 5xx); else what it found, for the
   * report, with the run told that a credit may be spent.
   */
  private async lookFirst(
    d: RetryDecision,
    operationId: string | undefined,
    opts: RequestOptions,
    sentAt: number,
  ): Promise<'resend' | string> {
    await sleep(d.waitMs);
    const found = await lookForCreated(operationId, opts, (page) => this.call('listVideos', { query: { page } }), {
      sentAt,
      known: this.rec.knownVideos(),
    });
    if (found === 'absent' && d.lookFirst === 'resend-if-absent') return 'resend';
    this.rec.mayHaveCreated(typeof found === 'object' ? found.video_id : undefined);
    if (typeof found === 'object') return `the video it made (${found.video_id}) was found in the list`;
    return found === 'absent'
      ? 'no video it made is in the list yet'
      : 'a video it made cannot be told apart in the list (no text to match)';
  }
}

/**
 * One attempt: the answer with its whole body, or the error that left none. redirect manual: a 3xx is
 * recorded and judged like any other answer, never followed. The headers within `timeoutMs`; then the
 * body under the rules' one watch (readBody): it stalls when less than 1 KiB arrives in `bodyTimeoutMs`,
 * is whole within `bodyDeadlineMs`, and at most `maxBodyBytes` decoded. Its errors carry undici's codes,
 * which noAnswerOf reads: a body that failed is a lost answer, decided like one.
 */
async function sendOnce(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | FormData },
  limits: Required<AttemptLimits>,
): Promise<{ res: Response; text: string } | { error: Error }> {
  const headers = new AbortController();
  const timer = setTimeout(
    () =>
      headers.abort(
        new DOMException(
          `no answer headers within ${Math.round(limits.timeoutMs / 1000)} s (--timeout)`,
          'TimeoutError',
        ),
      ),
    limits.timeoutMs,
  );
  try {
    const res = await fetch(url, { ...init, redirect: redirectMode(init.body), signal: headers.signal });
    clearTimeout(timer);
    const bytes = await readBody(res, {
      idleMs: limits.bodyTimeoutMs,
      totalMs: limits.bodyDeadlineMs,
      maxBytes: limits.maxBodyBytes,
    });
    return { res, text: new TextDecoder().decode(bytes) };
  } catch (error) {
    return { error: error as Error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * 'manual' (a 3xx is an answer, recorded and judged), except for a body with files past a megabyte:
 * undici keeps every chunk of a body it may have to send again, and with 'manual' it kept all of a
 * 180 MB upload in memory (measured on Node 20.20: 188 MB of array buffers; with 'error', 33 MB). A
 * redirect answering such an upload ends the attempt as no answer ("unexpected redirect").
 */
function redirectMode(body: string | FormData | undefined): 'manual' | 'error' {
  const large =
    body instanceof FormData && [...body.values()].some((v) => typeof v !== 'string' && v.size > IN_MEMORY_FILE_BYTES);
  return large ? 'error' : 'manual';
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

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
