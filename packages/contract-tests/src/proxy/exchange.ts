// One caller's request through the proxy, read top-down. `handleRequest` checks what it can before
// anything is sent (the request target, the credit budget, the body). `forward` is a loop of small
// steps: `acquireSlot` (the pacer: the account's rate limits, a running slot for a start), `attempt`
// (one send to the target, the head of its answer read), `decide` (the rules' one retryDecision of
// 7.1) and `deliver` (the target's answer streamed to the caller, or the proxy's own). `statusRead` is
// the one request the proxy sends of its own (a running video's status, while a start waits, 8.2).
// Nothing here counts or records: every step tells the observers (observers.ts: the statistics, the
// HAR, the log line), which do.
//
// When is a re-send safe? The decision says: a 429 and a 503 refuse before any work, so even a POST
// goes again (the proxy waits those out until --max-wait rather than a count: its callers should never
// see a 429 the limits explain); a connection that was never made sent nothing. Any other 5xx, or a
// connection lost after sending, may follow a created video: a GET goes again (up to x-retry-policy's
// maxRetries, with exponential backoff), a POST never (the proxy cannot look for the video it made),
// and its answer carries NOT_RESENT_HEADER. The proxy is an HTTP intermediary: that header on its own
// answer to its caller is protocol, documented for the tools behind it (README, docs guide 09).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  MAX_RUNNING,
  noAnswerOf,
  operationById,
  operationFor,
  pathParametersOf,
  PacerWaitError,
  retryDecision,
  type AttemptResult,
  type NoAnswer,
  type Outcome,
  type Pacer,
  type RateClass,
  type RetryDecision,
  type Ticket,
} from '@videogen/openapi/rules';
import type { Accounts, Caller } from './accounts.ts';
import { watchBody, type BodyTimes } from './body-watch.ts';
import type { CreditBudget, StartOutcome } from './budget.ts';
import { NOT_RESENT_HEADER, proxyAnswer, sendAnswer, type ProxyAnswer } from './envelope.ts';
import { HAR_TEXT_BYTES, type Exchange as Recorded } from './har-log.ts';
import { forwardHeaders, hasBody, jsonOf, readUpTo, requestBodyOf, requestPath, responseHeaders } from './messages.ts';
import { seconds, type ExchangeObserver, type ResendReason, type Trace } from './observers.ts';
import { BodySpool, BodyTooLargeError } from './spool.ts';
import type { Attempt, Upstream } from './upstream.ts';

export interface ProxyContext {
  /** The target's base URL as given (origin and base path, e.g. `/v1`). */
  target: URL;
  pacer: Pacer;
  accounts: Accounts;
  budget: CreditBudget;
  upstream: Upstream;
  /** Told what happens to every request (observers.ts: statistics, HAR, log). */
  observe: Required<ExchangeObserver>;
  /** The ceiling of everything a request waits for in the proxy. */
  maxWaitMs: number;
  /** Time limit for the target's answer headers once a request is sent. */
  timeoutMs: number;
  /** Time limits of the target's answer body (a stall, the whole body), from its headers. */
  body: BodyTimes;
  /** How much faster than real time the target runs (the proxy's own waits: 503, backoff). */
  timeScale: number;
  maxBodyBytes: number;
  tmpDir: () => Promise<string>;
  /** Aborted when the proxy closes: requests still waiting are answered PROXY_CLOSING. */
  closing: AbortSignal;
}

/** Bodies read to decide what to do (errors, starts, status views): far above any such body of the API. */
const BODY_BYTES = 1024 * 1024;
const GET_VIDEO = operationById('getVideo');

interface Request {
  method: string;
  path: string;
  operationId?: string;
  caller?: Caller;
  rateClass: RateClass;
  startsVideo: boolean;
  videoId?: string;
  rawHeaders: string[];
  body?: BodySpool;
  /** Aborted when the caller leaves. */
  gone: AbortSignal;
  /** The start already waited for a running slot (told once). */
  held?: boolean;
}

/** One attempt at the target: its answer with the head of the body read, or none. */
type Attempted =
  | {
      kind: 'answer';
      result: AttemptResult & { status: number };
      up: IncomingMessage;
      head: { bytes: Buffer; complete: boolean };
      sent: Extract<Attempt, { kind: 'answer' }>;
      waitStart: number;
      blockedMs: number;
      error_code?: string;
    }
  | { kind: 'failed'; result: { failure: NoAnswer }; error: Error };

/** The target's last answer sent again, given to the caller unchanged if the next wait passes the ceiling. */
interface Kept {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  bytes: Buffer;
  recorded: Recorded;
}

export async function handleRequest(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const left = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) left.abort(new Error('the caller closed the connection'));
  });
  const method = (req.method ?? 'GET').toUpperCase();
  const target = requestPath(ctx.target, req.url ?? '');
  const t: Trace = {
    startedAt: Date.now(),
    method,
    path: typeof target === 'string' ? target : (req.url ?? ''),
    waitedMs: 0,
  };
  ctx.observe.request(t);
  if (typeof target !== 'string') return reply(ctx, t, res, target);

  const pathname = target.split('?')[0];
  const op = operationFor(method, pathname);
  t.caller = ctx.accounts.of(req.headers.authorization);
  const startsVideo = op?.startsVideo ?? false;
  const r: Request = {
    method,
    path: target,
    operationId: op?.operationId,
    caller: t.caller,
    // 8.1: class B is "all other endpoints", so a keyed request outside the document is class B too.
    rateClass: op?.rateClass ?? 'B',
    startsVideo,
    videoId: op && pathParametersOf(op, pathname)?.video_id,
    rawHeaders: req.rawHeaders,
    gone: left.signal,
  };

  if (startsVideo && !ctx.budget.reserve()) {
    const b = ctx.budget;
    return reply(
      ctx,
      t,
      res,
      proxyAnswer(
        'PROXY_CREDIT_BUDGET_EXCEEDED',
        `The pacing proxy's credit budget is used up: ${b.spent} of ${b.limit} generations and conversions accepted` +
          `${b.inFlight ? `, ${b.inFlight} under way` : ''}. This ${op?.operationId} request was not sent to the target; ` +
          'restart the proxy with a larger --credit-budget (CONTRACT_CREDIT_BUDGET) to spend more.',
      ),
    );
  }
  let outcome: StartOutcome = 'refused';
  try {
    if (hasBody(req)) {
      const refused = await readBody(ctx, t, r, req, res);
      if (refused) return;
    }
    outcome = await forward(ctx, t, r, res);
  } finally {
    if (startsVideo) ctx.budget.settle(outcome);
    ctx.accounts.done(r.caller);
    await r.body?.dispose();
  }
}

/** Stores the request's body (memory, then a temporary file); answers the caller itself when it cannot. */
async function readBody(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  try {
    // A declared length over the limit is refused before a byte is read.
    if (Number(req.headers['content-length'] ?? 0) > ctx.maxBodyBytes) throw new BodyTooLargeError(ctx.maxBodyBytes);
    r.body = await BodySpool.read(req, {
      maxBytes: ctx.maxBodyBytes,
      dir: ctx.tmpDir,
      contentType: req.headers['content-type'],
    });
    if (r.body.onDisk) ctx.observe.spooled(t);
    return false;
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      res.setHeader('connection', 'close');
      reply(
        ctx,
        t,
        res,
        proxyAnswer(
          'PROXY_PAYLOAD_TOO_LARGE',
          `The request body exceeds ${err.maxBytes} bytes, more than any valid request of the interface can hold (8.4); it was not sent to the target.`,
        ),
      );
      return true;
    }
    // The caller went away (or broke its body off) before the request was whole: nothing is sent.
    reply(
      ctx,
      t,
      res,
      proxyAnswer(
        'PROXY_INVALID_REQUEST',
        `The request body could not be read: ${ctx.accounts.scrub(String((err as Error).message))}`,
      ),
    );
    ctx.observe.abandoned(t);
    return true;
  }
}

/** The attempts of one request; returns what became of it when it starts a video. */
async function forward(ctx: ProxyContext, t: Trace, r: Request, res: ServerResponse): Promise<StartOutcome> {
  const deadline = t.startedAt + ctx.maxWaitMs;
  const headers = forwardHeaders(r.rawHeaders, ctx.target, r.body);
  let kept: Kept | undefined;
  let retries = 0;
  for (let n = 1; ; n++) {
    const slot = await acquireSlot(ctx, t, r, deadline);
    if ('stop' in slot) return stopped(ctx, t, r, res, slot, kept);
    const a = await attempt(ctx, t, r, headers, slot);
    if (r.gone.aborted) return left(ctx, t, r, a);
    const d = decide(ctx, r, a, retries, deadline);
    if (!d.retry) return deliver(ctx, t, r, res, a, d, { headers, n });
    if (a.kind === 'answer') kept = keepForResend(ctx, t, r, a, { headers, n }) ?? kept;
    ctx.observe.resend(
      t,
      resendReason(d),
      a.kind === 'answer'
        ? `${a.result.status} waited out`
        : `sent again after: ${ctx.accounts.scrub(a.error.message)}`,
    );
    if (d.counted) retries++;
    const stop = d.waitMs > 0 ? await pause(ctx, t, r, res, d.waitMs) : undefined;
    if (stop) return stop;
  }
}

/** Step 1: wait until the account's limits allow the request (and, for a start, a running slot). */
async function acquireSlot(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  deadline: number,
): Promise<
  { ticket?: Ticket; waitStart: number; blockedMs: number } | { stop: 'gone' | 'closing' | 'ceiling'; waitMs?: number }
> {
  const waitStart = Date.now();
  let ticket: Ticket | undefined;
  if (r.caller) {
    const caller = r.caller;
    const signal = AbortSignal.any([r.gone, ctx.closing, AbortSignal.timeout(Math.max(0, deadline - waitStart))]);
    try {
      ticket = await ctx.pacer.acquire({
        account: caller.account,
        rateClass: r.rateClass,
        startsVideo: r.startsVideo,
        videoId: r.videoId,
        signal,
        // The pacer calls it when the account is full (8.2): the start is held until a video ends.
        checkRunning: (id) => {
          if (!r.held) {
            r.held = true;
            ctx.observe.held(t);
          }
          return statusRead(ctx, caller, id, signal);
        },
      });
    } catch (err) {
      t.waitedMs += Date.now() - waitStart;
      if (r.gone.aborted) return { stop: 'gone' };
      if (ctx.closing.aborted) return { stop: 'closing' };
      if (!(err instanceof PacerWaitError) && (err as Error)?.name !== 'TimeoutError') throw err;
      return { stop: 'ceiling', waitMs: err instanceof PacerWaitError ? err.waitMs : undefined };
    }
  }
  const blockedMs = Date.now() - waitStart;
  t.waitedMs += blockedMs;
  if (r.gone.aborted) {
    ticket?.settle();
    return { stop: 'gone' };
  }
  return { ticket, waitStart, blockedMs };
}

/** Step 2: one send to the target; the head of an answer that decides something is read, and the pacer told. */
async function attempt(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  headers: OutgoingHttpHeaders,
  slot: { ticket?: Ticket; waitStart: number; blockedMs: number },
): Promise<Attempted> {
  ctx.observe.sent(t);
  const sent = await ctx.upstream.send({
    method: r.method,
    path: r.path,
    headers,
    body: r.body,
    fresh: r.startsVideo,
    timeoutMs: ctx.timeoutMs,
    signal: r.gone,
  });
  const failed = (error: Error, failure: NoAnswer): Attempted => {
    slot.ticket?.settle();
    ctx.observe.failed(t, ctx.accounts.scrub(error.message));
    return { kind: 'failed', result: { failure }, error };
  };
  if (sent.kind === 'failed')
    return failed(sent.error, sent.timedOut ? 'timeout' : sent.reached ? 'dropped' : 'refused');
  const up = sent.res;
  const status = up.statusCode ?? 0;
  // Only bodies that can change what happens next are read first: an error, a start's id, a status view.
  const needBody = status >= 400 || r.startsVideo || r.videoId !== undefined;
  let head: { bytes: Buffer; complete: boolean } = { bytes: Buffer.alloc(0), complete: false };
  if (needBody) {
    // The caller leaving, a stall or the body's deadline ends the read at once, and frees the slot.
    const onGone = () => up.destroy(new Error('the caller closed the connection'));
    r.gone.addEventListener('abort', onGone, { once: true });
    try {
      watchBody(up, ctx.body);
      head = await readUpTo(up, BODY_BYTES);
    } catch (error) {
      return failed(error as Error, noAnswerOf(error));
    } finally {
      r.gone.removeEventListener('abort', onGone);
    }
  }
  ctx.observe.answered(t, status);
  const json = head.complete ? jsonOf(head.bytes) : undefined;
  const error_code = typeof json?.error_code === 'string' ? json.error_code : undefined;
  const outcome: Outcome = { status, headers: up.headers, error_code };
  if (r.startsVideo && typeof json?.video_id === 'string') outcome.video_id = json.video_id;
  if (!r.startsVideo && typeof json?.status === 'string') outcome.videoStatus = json.status;
  slot.ticket?.settle(outcome);
  return {
    kind: 'answer',
    result: { status, error_code, headers: up.headers },
    up,
    head,
    sent,
    waitStart: slot.waitStart,
    blockedMs: slot.blockedMs,
    error_code,
  };
}

/**
 * Step 3: interface 7.1 through the rules' one decision. With a key the pacer waits a 429's reset and a
 * start's 503 itself; 429 and 503 are bounded by the ceiling (what is left of --max-wait), other
 * answers also by x-retry-policy's count.
 */
function decide(ctx: ProxyContext, r: Request, a: Attempted, retries: number, deadline: number): RetryDecision {
  return retryDecision({
    method: r.method,
    result: a.result,
    attempt: retries,
    rateClass: r.rateClass,
    startsVideo: r.startsVideo,
    paced: r.caller !== undefined,
    refusals: 'ceiling',
    maxWaitMs: Math.max(0, deadline - Date.now()),
    now: Date.now(),
    timeScale: ctx.timeScale,
  });
}

const resendReason = (d: RetryDecision): ResendReason =>
  d.reason === 'rate-limit'
    ? 'rateLimit'
    : d.reason === 'server-load'
      ? 'unavailable'
      : d.reason === 'server-error'
        ? 'serverError'
        : 'network';

/** An answer that goes again: recorded as sent again, and kept (when read whole) in case the ceiling makes it the answer. */
function keepForResend(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  a: Extract<Attempted, { kind: 'answer' }>,
  at: { headers: OutgoingHttpHeaders; n: number },
): Kept | undefined {
  const code = a.error_code ? ` ${a.error_code}` : '';
  const recorded = record(
    ctx,
    r,
    a,
    at,
    'sent again',
    `answered ${a.result.status}${code}: the proxy waited and sent the request again`,
  );
  ctx.observe.exchange(t, recorded);
  if (!a.head.complete) {
    a.up.destroy();
    return undefined;
  }
  return {
    status: a.result.status,
    statusMessage: a.up.statusMessage ?? '',
    rawHeaders: a.up.rawHeaders,
    bytes: a.head.bytes,
    recorded,
  };
}

/** Step 4: the last attempt's answer to the caller: the target's, or (no answer) the proxy's own. */
async function deliver(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  res: ServerResponse,
  a: Attempted,
  d: RetryDecision,
  at: { headers: OutgoingHttpHeaders; n: number },
): Promise<StartOutcome> {
  // A POST that may have created a video: the proxy cannot look for it, so it is not sent again.
  const notResent = d.lookFirst !== undefined;
  if (notResent) ctx.observe.notResent(t);
  if (a.kind === 'failed') {
    const reason = ctx.accounts.scrub(a.error.message);
    const { failure } = a.result;
    const timedOut = failure === 'timeout' || failure === 'body-timeout';
    const hint = /certificate|self.signed|unable to verify/i.test(reason)
      ? ' (an HTTPS target with a private CA: pass --ca FILE or set NODE_EXTRA_CA_CERTS)'
      : '';
    const what =
      failure === 'timeout'
        ? 'The target did not answer'
        : failure === 'body-timeout'
          ? `The target's answer did not arrive whole (--body-timeout ${seconds(ctx.body.idleMs)} s, --body-deadline ${seconds(ctx.body.totalMs)} s)`
          : `The target ${ctx.target.origin} could not be reached`;
    reply(
      ctx,
      t,
      res,
      proxyAnswer(
        timedOut ? 'PROXY_TARGET_TIMEOUT' : 'PROXY_TARGET_UNREACHABLE',
        `${what}: ${reason}${hint}.` + (notResent ? ' The request may have reached it, so it was not sent again.' : ''),
        { headers: notResent ? { [NOT_RESENT_HEADER]: 'the request may have reached the target' } : {} },
      ),
    );
    return notResent ? 'maybe' : 'refused';
  }
  await passThrough(
    ctx,
    t,
    r,
    res,
    a,
    at,
    notResent ? { [NOT_RESENT_HEADER]: 'the first attempt may have created the video' } : {},
  );
  const status = a.result.status;
  if (status >= 200 && status <= 299) return 'accepted';
  return status >= 500 && status !== 503 ? 'maybe' : 'refused';
}

/** Streams the target's answer to the caller: what was read already, then the rest (kept for the HAR up to its cap). */
async function passThrough(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  res: ServerResponse,
  a: Extract<Attempted, { kind: 'answer' }>,
  at: { headers: OutgoingHttpHeaders; n: number },
  extra: Record<string, string>,
): Promise<void> {
  const { up, head } = a;
  const status = up.statusCode ?? 502;
  res.writeHead(status, up.statusMessage, responseHeaders(up.rawHeaders, extra));
  const chunks = [head.bytes];
  let size = head.bytes.length;
  let whole = true;
  let error: Error | undefined | null;
  if (head.complete) res.end(head.bytes);
  else {
    if (head.bytes.length) res.write(head.bytes);
    // A stall or the body's deadline cuts the answer off (the caller sees its connection end); a caller
    // that leaves ends the pipeline, and with it the target's answer.
    watchBody(up, ctx.body);
    const tee = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (whole) {
          if (size <= HAR_TEXT_BYTES) chunks.push(chunk);
          else whole = false;
        }
        done(null, chunk);
      },
    });
    error = await new Promise<Error | null | undefined>((resolve) => pipeline(up, tee, res, resolve));
  }
  const recorded = record(ctx, r, a, at, 'passed to the caller');
  recorded.responseBody = { bytes: whole ? Buffer.concat(chunks) : Buffer.alloc(0), size, complete: whole && !error };
  ctx.observe.exchange(t, recorded);
  ctx.observe.delivered(
    t,
    status,
    undefined,
    error ? `answer cut off: ${ctx.accounts.scrub(error.message)}` : undefined,
  );
}

/** The wait for a slot ended without sending: the caller left, the proxy closes, or the ceiling came. */
function stopped(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  res: ServerResponse,
  s: { stop: 'gone' | 'closing' | 'ceiling'; waitMs?: number },
  kept: Kept | undefined,
): StartOutcome {
  if (s.stop === 'gone') return abandon(ctx, t);
  if (s.stop === 'closing') {
    reply(
      ctx,
      t,
      res,
      proxyAnswer('PROXY_CLOSING', 'The pacing proxy is shutting down; the request was not sent to the target.'),
    );
    return 'refused';
  }
  // The ceiling: the target's last answer as it was, or (nothing sent yet) the proxy's own.
  if (kept) {
    res.writeHead(kept.status, kept.statusMessage, responseHeaders(kept.rawHeaders, {}));
    res.end(kept.bytes);
    ctx.observe.keptPassed(t, kept.recorded);
    ctx.observe.delivered(t, kept.status);
    return 'refused';
  }
  const full = r.startsVideo && r.caller !== undefined && ctx.pacer.runningCount(r.caller.account) >= MAX_RUNNING;
  const { waitMs } = s;
  reply(
    ctx,
    t,
    res,
    proxyAnswer(
      'PROXY_WAIT_CEILING_EXCEEDED',
      full
        ? `The account already runs ${MAX_RUNNING} videos (8.2) and none finished within the proxy's --max-wait of ${seconds(ctx.maxWaitMs)} s; the request was not sent to the target.`
        : `The account's class ${r.rateClass} rate limit (8.1) would hold this request longer than the proxy's --max-wait of ${seconds(ctx.maxWaitMs)} s${waitMs ? ` (${seconds(waitMs)} s)` : ''}; it was not sent to the target.`,
      { status: full ? 503 : 429, headers: waitMs ? { 'retry-after': String(Math.ceil(waitMs / 1000)) } : {} },
    ),
  );
  return 'refused';
}

/**
 * A status read of a video the pacer believes running, sent by the proxy itself while a start of
 * the same account waits for a slot (the pacer calls it; nobody else may be polling). Paced like
 * any class B request, recorded in the HAR with a comment; never sent again.
 */
async function statusRead(ctx: ProxyContext, caller: Caller, videoId: string, signal: AbortSignal): Promise<void> {
  const waitStart = Date.now();
  const ticket = await ctx.pacer.acquire({ account: caller.account, rateClass: GET_VIDEO.rateClass, videoId, signal });
  const blockedMs = Date.now() - waitStart;
  const path =
    ctx.target.pathname.replace(/\/+$/, '') + GET_VIDEO.path.replace('{video_id}', encodeURIComponent(videoId));
  const headers: OutgoingHttpHeaders = {
    host: ctx.target.host,
    authorization: caller.authorization,
    accept: 'application/json',
    'accept-encoding': 'identity',
  };
  let outcome: Outcome | undefined;
  try {
    ctx.observe.sent(undefined);
    const sent = await ctx.upstream.send({ method: 'GET', path, headers, timeoutMs: ctx.timeoutMs });
    if (sent.kind === 'failed') {
      ctx.observe.failed(undefined, ctx.accounts.scrub(sent.error.message));
      return;
    }
    const up = sent.res;
    watchBody(up, ctx.body);
    const head = await readUpTo(up, BODY_BYTES);
    const json = head.complete ? jsonOf(head.bytes) : undefined;
    ctx.observe.answered(undefined, up.statusCode ?? 0);
    outcome = {
      status: up.statusCode,
      headers: up.headers,
      error_code: typeof json?.error_code === 'string' ? json.error_code : undefined,
      videoStatus: typeof json?.status === 'string' ? json.status : undefined,
    };
    ctx.observe.exchange(undefined, {
      startedAt: waitStart,
      blockedMs,
      sentAt: sent.sentAt,
      bodySentAt: sent.bodySentAt,
      headersAt: sent.headersAt,
      endAt: Date.now(),
      method: 'GET',
      url: ctx.target.origin + path,
      requestHeaders: headers,
      status: up.statusCode ?? 0,
      statusText: up.statusMessage ?? '',
      httpVersion: up.httpVersion,
      responseRawHeaders: up.rawHeaders,
      responseBody: { bytes: head.bytes, size: head.bytes.length, complete: head.complete },
      comment:
        'sent by the pacing proxy itself: a status read of a video it believes running, while a generation or conversion of the account waited for a running slot (8.2)',
      proxy: { key: caller.fingerprint, attempt: 1, next: 'kept by the proxy' },
    });
  } catch {
    // Best effort: the held start looks again at the polling pace.
  } finally {
    ticket.settle(outcome);
    ctx.observe.statusRead(caller, outcome?.status, outcome?.videoStatus);
  }
}

/** One attempt as sent and answered, for the observers (the HAR); the body as far as it was read. */
function record(
  ctx: ProxyContext,
  r: Request,
  a: Extract<Attempted, { kind: 'answer' }>,
  at: { headers: OutgoingHttpHeaders; n: number },
  next: Recorded['proxy']['next'],
  comment?: string,
): Recorded {
  const { up, sent, head } = a;
  return {
    startedAt: a.waitStart,
    blockedMs: a.blockedMs,
    sentAt: sent.sentAt,
    bodySentAt: sent.bodySentAt,
    headersAt: sent.headersAt,
    endAt: Date.now(),
    method: r.method,
    url: ctx.target.origin + r.path,
    requestHeaders: at.headers,
    requestBody: requestBodyOf(r.body, at.headers),
    status: a.result.status,
    statusText: up.statusMessage ?? '',
    httpVersion: up.httpVersion,
    responseRawHeaders: up.rawHeaders,
    responseBody: { bytes: head.bytes, size: head.bytes.length, complete: head.complete },
    comment,
    proxy: { key: r.caller?.fingerprint, attempt: at.n, next },
  };
}

/**
 * The proxy's own wait before a re-send (503, backoff). Undefined when it ran out; else the request
 * is over: the caller left (nothing more is sent), or the proxy is closing (answered so).
 */
async function pause(
  ctx: ProxyContext,
  t: Trace,
  r: Request,
  res: ServerResponse,
  ms: number,
): Promise<StartOutcome | undefined> {
  const started = Date.now();
  try {
    await sleep(ms, undefined, { signal: AbortSignal.any([r.gone, ctx.closing]) });
    return undefined;
  } catch {
    if (r.gone.aborted) return abandon(ctx, t);
    reply(
      ctx,
      t,
      res,
      proxyAnswer('PROXY_CLOSING', 'The pacing proxy is shutting down; the request was not sent again.'),
    );
    return 'refused';
  } finally {
    t.waitedMs += Date.now() - started;
  }
}

function abandon(ctx: ProxyContext, t: Trace): StartOutcome {
  ctx.observe.abandoned(t);
  return 'refused';
}

/**
 * The caller left while the target was answering: the attempt was stopped at once (its pacer slot
 * freed), and nothing more is sent. A start that reached the target may have spent a credit.
 */
function left(ctx: ProxyContext, t: Trace, r: Request, a: Attempted): StartOutcome {
  if (a.kind === 'answer') a.up.destroy();
  ctx.observe.left(t);
  const reached = a.kind === 'answer' || a.result.failure !== 'refused';
  return r.startsVideo && reached ? 'maybe' : 'refused';
}

/** The proxy's own answer to the caller. */
function reply(ctx: ProxyContext, t: Trace, res: ServerResponse, a: ProxyAnswer): void {
  sendAnswer(res, a);
  ctx.observe.delivered(t, a.status, { error_code: a.error_code });
}
