// A fetch wrapper that paces every request, records every exchange, and checks each response
// against the contract as it arrives (the conformance checks later report what it found).
import { checkResponse, matchOperation, type FindingKind } from '@videogen/openapi';
import { parseRetryAfter, type Pacer, type RateClass } from '@videogen/openapi/rules';
import { redact } from './redact.ts';
import type { Contract } from './spec.ts';
import { recordRequest, type RecordedRequest } from './recorded-request.ts';

export type ProblemKind = 'server_error' | 'status' | 'content_type' | 'schema' | 'headers' | 'envelope' | 'error_code';

export interface Problem {
  kind: ProblemKind;
  message: string;
  /** DECISIONS.md entries when the problem breaks only this document's choice, not the interface. */
  decision?: number[];
}

/** A finding of the shared response check → the conformance check that reports it. */
const KIND_OF: Record<FindingKind, ProblemKind> = { status: 'status', 'content-type': 'content_type', body: 'schema', header: 'headers' };

export interface Exchange {
  seq: number;
  /** The check that sent the request. */
  check: string;
  operationId?: string;
  method: string;
  /** Path relative to the base URL, with the query. */
  path: string;
  /** How the request authenticated (never the key itself). */
  auth: string;
  status: number;
  contentType: string;
  headers: Headers;
  body: unknown;
  text: string;
  ms: number;
  problems: Problem[];
  /** Answered 429/503 and then waited out and re-sent (not a failure). */
  retried: boolean;
  /** What was sent (key redacted), so that a failure can be replayed (src/failures.ts). */
  request?: RecordedRequest;
  /** The base URL the request went to (for a curl line). */
  baseUrl: string;
}

export type Auth = 'key' | 'none' | { header: string; label: string };

export interface RequestOptions {
  query?: Record<string, string | number>;
  json?: unknown;
  /** A raw body with its content type (for bodies that are not JSON objects). */
  raw?: { body: string; contentType: string };
  form?: FormData;
  auth?: Auth;
  /** Wait out and re-send a 429 / 503 (default true); off in the checks that provoke them. */
  retry?: boolean;
  /** Wait for a free place in the rate-limit window (default true); off for deliberate bursts. */
  pace?: boolean;
  /** Wait for a free place among the running videos (default true); off where the check provokes the 503. */
  gate?: boolean;
  /** The check provokes a 5xx on purpose (e.g. the 7.2 UNKNOWN_ERROR row). */
  expectServerError?: boolean;
}

export interface RunRecorder {
  contract: Contract;
  pacer: Pacer;
  exchanges: Exchange[];
  currentCheck: string;
  timeScale: number;
  retries: number;
  /** May refuse to send (e.g. a credit budget spent) by throwing. */
  beforeSend?(operationId: string | undefined): void;
}

const MAX_ATTEMPTS = 4;

export class Api {
  constructor(
    private readonly rec: RunRecorder,
    readonly baseUrl: string,
    /** The account whose limits this key spends (pacing is per account). */
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
    const pathOnly = path.split('?')[0];
    const op = matchOperation(contract.spec, method, pathOnly);
    const rateClass: RateClass = op?.operation['x-rate-limit']?.class ?? 'B';
    const startsVideo = Boolean(op?.operation['x-concurrency-limit']);
    const videoId = op?.pathParams.video_id;
    const qs = opts.query ? '?' + new URLSearchParams(Object.entries(opts.query).map(([k, v]) => [k, String(v)] as [string, string])).toString() : '';
    const auth = opts.auth ?? 'key';
    // Limits apply per user account (5.5, 8.1): a request without the account's key spends no
    // account's quota, so it is not held back (a 429 on one would still be waited out and counted).
    const account = this.account;
    const paced = opts.pace !== false && auth === 'key';
    this.rec.beforeSend?.(op?.operationId);
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (auth === 'key') {
        if (!this.key) throw new Error('this check needs an API key (VIDEO_API_KEY)');
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
            account,
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
        throw new Error(redact(`${method} ${path}${qs} failed: ${(err as Error).message}${(err as any).cause ? ` (${(err as any).cause.message ?? (err as any).cause})` : ''}`));
      }
      const ex = this.record(method, path + qs, op?.operationId, auth, res, text, performance.now() - started, opts);
      ex.request = await recordRequest(method, path + qs, auth, opts);
      const answer = ex.body as { error_code?: unknown; video_id?: unknown; status?: unknown } | undefined;
      const field = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const outcome = { status: res.status, headers: res.headers, error_code: field(answer?.error_code), video_id: field(answer?.video_id), videoStatus: field(answer?.status) };
      if (ticket) ticket.settle(outcome);
      else if (auth === 'key') pacer.record(rateClass, undefined, account);
      const waitable = res.status === 429 || res.status === 503;
      if (!waitable || opts.retry === false || attempt >= MAX_ATTEMPTS) return ex;
      // Waited out as the interface advises (7.1), and counted: the pacer already holds the class back
      // after a 429 and video starts after a 503; any other 503 waits here, Retry-After else 30 s scaled.
      ex.retried = true;
      this.rec.retries++;
      if (res.status === 503 && !startsVideo) {
        const wait = parseRetryAfter(res.headers.get('retry-after')) ?? 30_000 / this.rec.timeScale;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private record(method: string, path: string, operationId: string | undefined, auth: Auth, res: Response, text: string, ms: number, opts: RequestOptions): Exchange {
    const contentType = res.headers.get('content-type') ?? '';
    const { body, problems } = responseProblems(this.rec.contract, operationId, { status: res.status, contentType, headers: res.headers, text }, opts.expectServerError);
    const ex: Exchange = {
      seq: this.rec.exchanges.length + 1,
      check: this.rec.currentCheck,
      operationId,
      method,
      path,
      auth: auth === 'key' ? `key of ${this.account}` : auth === 'none' ? 'no key' : auth.label,
      status: res.status,
      contentType,
      headers: res.headers,
      body,
      text: redact(text.slice(0, 2000)),
      ms,
      problems: problems.map((p) => ({ ...p, message: redact(p.message) })),
      retried: false,
      baseUrl: this.baseUrl,
    };
    this.rec.exchanges.push(ex);
    return ex;
  }
}

/** One line that identifies an exchange in a failure message. */
export function describe(ex: Exchange): string {
  const body = ex.text.length > 300 ? ex.text.slice(0, 300) + '…' : ex.text;
  return `${ex.method} ${ex.path} (${ex.auth}) → ${ex.status} ${ex.contentType} ${body}`;
}

/**
 * Every check applied to each response as it arrives: status, content type, body and headers
 * against the operation (shared checkResponse), the error envelope and documented error codes.
 * Live runs, replays and recorded traffic (src/har.ts) all go through here: same checks, same tiers.
 */
export function responseProblems(
  contract: Contract,
  operationId: string | undefined,
  res: { status: number; contentType: string; headers: Headers; text: string },
  expectServerError = false,
): { body: unknown; problems: Problem[] } {
  const { contentType, text } = res;
  let body: unknown = text;
  const problems: Problem[] = [];
  if (/json/i.test(contentType) && text.length) {
    try {
      body = JSON.parse(text);
    } catch {
      problems.push({ kind: 'schema', message: `body is not valid JSON: ${text.slice(0, 80)}` });
    }
  }
  // A 503 is documented for every operation (7.1: server load, 8.2: the concurrency limit): waited
  // out, never a server error.
  if (res.status >= 500 && res.status !== 503 && !expectServerError) problems.push({ kind: 'server_error', message: `answered ${res.status}` });
  const op = operationId ? contract.operations.find((o) => o.operationId === operationId) : undefined;
  if (op) {
    for (const f of checkResponse(contract.ajv, contract.spec, op.operation, { status: res.status, contentType, body, headers: res.headers })) {
      problems.push({ kind: KIND_OF[f.kind], message: f.message, ...(f.decisions && { decision: f.decisions }) });
    }
  }
  if (res.status >= 400) {
    const envelope = /json/i.test(contentType) ? contract.validate('ErrorBody', body) : [`content type "${contentType}" is not JSON`];
    for (const m of envelope) problems.push({ kind: 'envelope', message: `error body: ${m}` });
    const codes = operationId ? contract.documentedErrorCodes(operationId, res.status) : undefined;
    const code = (body as any)?.error_code;
    if (codes && typeof code === 'string' && !codes.includes(code)) {
      // The interface's own codes are closed only where it fixes them (7.2); elsewhere the codes are ours (#5).
      const decision = contract.codeDecision(codes);
      problems.push({ kind: 'error_code', message: `error_code ${code} is not one documented for ${res.status} (${codes.join(', ')})`, ...(decision && { decision }) });
    }
  }
  return { body, problems };
}
