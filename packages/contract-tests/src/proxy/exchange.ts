// One caller's request through the proxy, read top-down: `handleRequest` checks what it can before
// anything is sent (the request target, the credit budget, the body), `forward` is the loop of
// attempts (wait for the pacer, send, decide), `nextStep` says whether an answer is sent again
// (7.1), `passThrough` streams the target's answer to the caller, and `statusRead` is the one request
// the proxy sends of its own (a running video's status, while a start waits for a slot, 8.2).
//
// When is a re-send safe? A 429 and a 503 refuse a request before any work, so sending it again
// cannot create a second video; a connection that was never made sent nothing. Any other 5xx, or a
// connection lost after sending, may follow a created video: a GET is sent again (up to
// x-retry-policy's maxRetries, with exponential backoff), a POST never (the client's at-most-once
// rule), and its answer carries NOT_RESENT_HEADER.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  classifyError,
  headerValue,
  MAX_RUNNING,
  OPERATIONS,
  operationFor,
  PacerWaitError,
  parseRateLimitHeaders,
  parseRetryAfter,
  RETRY_POLICY,
  type Outcome,
  type Pacer,
  type RateClass,
  type Ticket,
} from '@videogen/openapi/rules';
import type { Accounts, Caller } from './accounts.ts';
import type { CreditBudget, StartOutcome } from './budget.ts';
import { NOT_RESENT_HEADER, proxyAnswer, sendAnswer, type ProxyAnswer } from './envelope.ts';
import { HAR_TEXT_BYTES, harEntry, isTextual, type Exchange, type HarLog } from './har-log.ts';
import { BodySpool, BodyTooLargeError } from './spool.ts';
import { count, type PacingProxyStats } from './stats.ts';
import type { Upstream } from './upstream.ts';

export interface ProxyContext {
  /** The target's base URL as given (origin and base path, e.g. `/v1`). */
  target: URL;
  pacer: Pacer;
  accounts: Accounts;
  budget: CreditBudget;
  upstream: Upstream;
  har?: HarLog;
  stats: PacingProxyStats;
  /** The ceiling of everything a request waits for in the proxy. */
  maxWaitMs: number;
  /** Time limit for the target's answer headers once a request is sent. */
  timeoutMs: number;
  /** How much faster than real time the target runs (the proxy's own waits: 503, backoff). */
  timeScale: number;
  maxBodyBytes: number;
  log: (line: string) => void;
  tmpDir: () => Promise<string>;
  /** Aborted when the proxy closes: requests still waiting are answered PROXY_CLOSING. */
  closing: AbortSignal;
}

/** Bodies read to decide what to do (errors, starts, status views): far above any such body of the API. */
const BODY_BYTES = 1024 * 1024;
/** Backoff before re-sending a GET after a 5xx or a lost connection (x-retry-policy: exponential). */
const BACKOFF_MS = { base: 1000, cap: 30_000 };
/** Headers that belong to one connection, not to the request (RFC 9110 7.6.1), and those the proxy sets itself. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];
const SET_BY_PROXY = ['host', 'content-length', 'expect', 'accept-encoding'];
const GET_VIDEO = OPERATIONS.find((o) => o.operationId === 'getVideo')!;

/** What the log line of a request says beyond its status. */
interface Trace {
  startedAt: number;
  method: string;
  path: string;
  caller?: Caller;
  waitedMs: number;
  notes: string[];
}

interface Request {
  method: string;
  path: string;
  operationId?: string;
  caller?: Caller;
  rateClass: RateClass;
  startsVideo: boolean;
  videoId?: string;
  idempotent: boolean;
  rawHeaders: string[];
  body?: BodySpool;
  gone: AbortSignal;
}

/** The target's last retryable answer, given to the caller unchanged when the ceiling is reached. */
interface Kept {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  bytes: Buffer;
  /** Its HAR entry, recorded as 'sent again' and corrected when the ceiling makes it the answer. */
  entry?: ReturnType<typeof harEntry>;
}

export async function handleRequest(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = Date.now();
  ctx.stats.requests++;
  const left = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) left.abort(new Error('the caller closed the connection'));
  });
  const method = (req.method ?? 'GET').toUpperCase();
  const target = requestPath(ctx, req.url ?? '');
  const trace: Trace = {
    startedAt,
    method,
    path: typeof target === 'string' ? target : (req.url ?? ''),
    waitedMs: 0,
    notes: [],
  };
  if (typeof target !== 'string') return reply(ctx, trace, res, target);

  const pathname = target.split('?')[0];
  const op = operationFor(method, pathname);
  const caller = ctx.accounts.of(req.headers.authorization);
  trace.caller = caller;
  const startsVideo = op?.startsVideo ?? false;
  const r: Request = {
    method,
    path: target,
    operationId: op?.operationId,
    caller,
    // 8.1: class B is "all other endpoints", so a keyed request outside the document is class B too.
    rateClass: op?.rateClass ?? 'B',
    startsVideo,
    videoId: op?.path.includes('{video_id}') ? videoIdOf(pathname) : undefined,
    idempotent: method === 'GET' || method === 'HEAD' || method === 'OPTIONS',
    rawHeaders: req.rawHeaders,
    gone: left.signal,
  };

  if (startsVideo && !ctx.budget.reserve()) {
    const b = ctx.budget;
    return reply(
      ctx,
      trace,
      res,
      proxyAnswer(
        'PROXY_CREDIT_BUDGET_EXCEEDED',
        `The pacing proxy's credit budget is used up: ${b.spent} of ${b.limit} generations and conversions accepted` +
          `${b.inFlight ? `, ${b.inFlight} under way` : ''}. This ${op!.operationId} request was not sent to the target; ` +
          'restart the proxy with a larger --credit-budget (CONTRACT_CREDIT_BUDGET) to spend more.',
      ),
    );
  }
  let outcome: StartOutcome = 'refused';
  try {
    if (hasBody(req)) {
      try {
        // A declared length over the limit is refused before a byte is read.
        if (Number(req.headers['content-length'] ?? 0) > ctx.maxBodyBytes)
          throw new BodyTooLargeError(ctx.maxBodyBytes);
        r.body = await BodySpool.read(req, { maxBytes: ctx.maxBodyBytes, dir: ctx.tmpDir });
        if (r.body.onDisk) ctx.stats.spooledToDisk++;
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          res.setHeader('connection', 'close');
          return reply(
            ctx,
            trace,
            res,
            proxyAnswer(
              'PROXY_PAYLOAD_TOO_LARGE',
              `The request body exceeds ${err.maxBytes} bytes, more than any valid request of the interface can hold (8.4); it was not sent to the target.`,
            ),
          );
        }
        // The caller went away (or broke its body off) before the request was whole: nothing is sent.
        ctx.stats.abandoned++;
        return reply(
          ctx,
          trace,
          res,
          proxyAnswer(
            'PROXY_INVALID_REQUEST',
            `The request body could not be read: ${ctx.accounts.scrub(String((err as Error).message))}`,
          ),
        );
      }
    }
    outcome = await forward(ctx, trace, r, res);
  } finally {
    if (startsVideo) ctx.budget.settle(outcome);
    await r.body?.dispose();
  }
}

/** The attempts of one request; returns what became of it when it starts a video. */
async function forward(ctx: ProxyContext, trace: Trace, r: Request, res: ServerResponse): Promise<StartOutcome> {
  const deadline = trace.startedAt + ctx.maxWaitMs;
  const headers = forwardHeaders(r, ctx);
  let kept: Kept | undefined;
  let retries = 0;
  let held = false;
  for (let attempt = 1; ; attempt++) {
    // 1. Wait until the account's limits allow it (the pacer also holds a start while the account is full).
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
            if (!held) {
              held = true;
              ctx.stats.heldForConcurrency++;
              trace.notes.push('held for a running slot');
            }
            return statusRead(ctx, caller, id, signal);
          },
        });
      } catch (err) {
        trace.waitedMs += Date.now() - waitStart;
        if (r.gone.aborted) return abandon(ctx, trace);
        if (ctx.closing.aborted) {
          reply(
            ctx,
            trace,
            res,
            proxyAnswer('PROXY_CLOSING', 'The pacing proxy is shutting down; the request was not sent to the target.'),
          );
          return 'refused';
        }
        if (!(err instanceof PacerWaitError) && !isTimeout(err)) throw err;
        // The ceiling: the target's last answer as it was, or (nothing sent yet) the proxy's own.
        if (kept) return passKept(ctx, trace, res, kept);
        const full = r.startsVideo && ctx.pacer.runningCount(caller.account) >= MAX_RUNNING;
        const waitMs = err instanceof PacerWaitError ? err.waitMs : undefined;
        reply(
          ctx,
          trace,
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
    }
    const blockedMs = Date.now() - waitStart;
    trace.waitedMs += blockedMs;
    if (r.gone.aborted) {
      ticket?.settle();
      return abandon(ctx, trace);
    }

    // 2. Send.
    ctx.stats.upstream.sent++;
    const sent = await ctx.upstream.send({
      method: r.method,
      path: r.path,
      headers,
      body: r.body,
      fresh: r.startsVideo,
      timeoutMs: ctx.timeoutMs,
    });
    let head: { bytes: Buffer; complete: boolean } | undefined;
    let failure: { error: Error; reached: boolean; timedOut: boolean } | undefined;
    if (sent.kind === 'failed') failure = sent;
    else {
      const status = sent.res.statusCode ?? 0;
      // Only bodies that can change what happens next are read first: an error, a start's id, a status view.
      const needBody = status >= 400 || r.startsVideo || r.videoId !== undefined;
      try {
        head = needBody ? await readUpTo(sent.res, BODY_BYTES) : { bytes: Buffer.alloc(0), complete: false };
      } catch (error) {
        failure = { error: error as Error, reached: true, timedOut: false };
      }
    }

    if (failure) {
      ticket?.settle();
      ctx.stats.upstream.failed++;
      const reason = ctx.accounts.scrub(failure.error.message);
      // A request that never reached the target can go again whatever its method.
      const wait = backoffMs(ctx, retries);
      if ((r.idempotent || !failure.reached) && retries < RETRY_POLICY.maxRetries && Date.now() + wait <= deadline) {
        retries++;
        ctx.stats.resent.network++;
        trace.notes.push(`sent again after: ${reason}`);
        const stopped = await pause(ctx, trace, r, res, wait);
        if (stopped) return stopped;
        continue;
      }
      const maybeCreated = !r.idempotent && failure.reached;
      if (maybeCreated) ctx.stats.notResent++;
      const hint = /certificate|self.signed|unable to verify/i.test(reason)
        ? ' (an HTTPS target with a private CA: pass --ca FILE or set NODE_EXTRA_CA_CERTS)'
        : '';
      reply(
        ctx,
        trace,
        res,
        proxyAnswer(
          failure.timedOut ? 'PROXY_TARGET_TIMEOUT' : 'PROXY_TARGET_UNREACHABLE',
          `${failure.timedOut ? 'The target did not answer' : `The target ${ctx.target.origin} could not be reached`}: ${reason}${hint}.` +
            (maybeCreated ? ' The request may have reached it, so it was not sent again.' : ''),
          { headers: maybeCreated ? { [NOT_RESENT_HEADER]: 'the request may have reached the target' } : {} },
        ),
      );
      return maybeCreated ? 'maybe' : 'refused';
    }

    // 3. The answer: tell the pacer, then send again or pass it through.
    if (sent.kind !== 'answer' || !head) throw new Error('unreachable: an attempt without an answer was handled above');
    const up = sent.res;
    const status = up.statusCode ?? 0;
    count(ctx.stats.upstream.answered, status);
    const json = head.complete ? jsonOf(head.bytes) : undefined;
    const error_code = typeof json?.error_code === 'string' ? json.error_code : undefined;
    const outcome: Outcome = { status, headers: up.headers, error_code };
    if (r.startsVideo && typeof json?.video_id === 'string') outcome.video_id = json.video_id;
    if (!r.startsVideo && typeof json?.status === 'string') outcome.videoStatus = json.status;
    ticket?.settle(outcome);

    const next = nextStep(ctx, { status, error_code, headers: up.headers, r, retries, deadline });
    const exchange = (next: Exchange['proxy']['next'], comment?: string): Exchange => ({
      startedAt: waitStart,
      blockedMs,
      sentAt: sent.sentAt,
      bodySentAt: sent.bodySentAt,
      headersAt: sent.headersAt,
      endAt: Date.now(),
      method: r.method,
      url: ctx.target.origin + r.path,
      requestHeaders: headers,
      requestBody: requestBodyOf(r.body, headers),
      status,
      statusText: up.statusMessage ?? '',
      httpVersion: up.httpVersion,
      responseRawHeaders: up.rawHeaders,
      responseBody: { bytes: head.bytes, size: head.bytes.length, complete: head.complete },
      comment,
      proxy: { key: r.caller?.fingerprint, attempt, next },
    });
    if (next.resend) {
      const entry = record(
        ctx,
        exchange(
          'sent again',
          `answered ${status}${error_code ? ` ${error_code}` : ''}: the proxy waited and sent the request again`,
        ),
      );
      if (!head.complete) up.destroy();
      else
        kept = { status, statusMessage: up.statusMessage ?? '', rawHeaders: up.rawHeaders, bytes: head.bytes, entry };
      ctx.stats.resent[next.reason]++;
      trace.notes.push(`${status} waited out`);
      if (next.reason === 'serverError') retries++;
      const stopped = next.sleepMs > 0 ? await pause(ctx, trace, r, res, next.sleepMs) : undefined;
      if (stopped) return stopped;
      continue;
    }
    if (next.notResent) {
      ctx.stats.notResent++;
      trace.notes.push('not sent again: it may have created a video');
    }
    await passThrough(
      ctx,
      trace,
      res,
      up,
      head,
      next.notResent ? { [NOT_RESENT_HEADER]: 'the first attempt may have created the video' } : {},
      exchange,
    );
    if (status >= 200 && status <= 299) return 'accepted';
    return status >= 500 && status !== 503 ? 'maybe' : 'refused';
  }
}

type Step =
  | { resend: false; notResent?: boolean }
  | { resend: true; reason: 'rateLimit' | 'unavailable' | 'serverError'; sleepMs: number };

/**
 * Whether the target's answer is sent again, and after how long a sleep of the proxy's own (the pacer
 * waits the rest: the reset of a 429 it has just learned, a start's 503). Interface 7.1 through the
 * rules' classifier: 429 (not INSUFFICIENT_CREDIT) until the rate limit resets, 503 its Retry-After or
 * 30–60 s, another 5xx with backoff, GET only. Past the ceiling the answer goes to the caller as it is.
 */
function nextStep(
  ctx: ProxyContext,
  a: {
    status: number;
    error_code?: string;
    headers: IncomingHttpHeaders;
    r: Request;
    retries: number;
    deadline: number;
  },
): Step {
  const { r } = a;
  if (a.status < 400) return { resend: false };
  const cls = classifyError(a.status, a.error_code);
  if (!cls.retryable) return { resend: false };
  const now = Date.now();
  const retryAfter = parseRetryAfter(headerValue(a.headers, 'retry-after'), now);
  if (cls.wait === 'rate-limit') {
    const reset = retryAfter ?? parseRateLimitHeaders(a.headers).resetMs;
    if (now + (reset ?? 0) > a.deadline) return { resend: false };
    // With a key the pacer has learned the reset from this answer; without one the proxy sleeps it.
    return { resend: true, reason: 'rateLimit', sleepMs: r.caller ? 0 : (reset ?? ctx.pacer.intervalOf(r.rateClass)) };
  }
  if (cls.wait === 'server-load') {
    const [low, high] = RETRY_POLICY.serviceUnavailableDelayMs;
    const wait = retryAfter ?? (low + Math.random() * (high - low)) / ctx.timeScale;
    if (now + wait > a.deadline) return { resend: false };
    // A start's 503 is the concurrency limit: the pacer now holds the account's starts that long.
    return { resend: true, reason: 'unavailable', sleepMs: r.startsVideo && r.caller ? 0 : wait };
  }
  if (!r.idempotent) return { resend: false, notResent: true };
  const wait = retryAfter ?? backoffMs(ctx, a.retries);
  if (a.retries >= RETRY_POLICY.maxRetries || now + wait > a.deadline) return { resend: false };
  return { resend: true, reason: 'serverError', sleepMs: wait };
}

/** Streams the target's answer to the caller: what was read already, then the rest (kept for the HAR up to its cap). */
async function passThrough(
  ctx: ProxyContext,
  trace: Trace,
  res: ServerResponse,
  up: IncomingMessage,
  head: { bytes: Buffer; complete: boolean },
  extra: Record<string, string>,
  exchange: (next: Exchange['proxy']['next']) => Exchange,
): Promise<void> {
  const status = up.statusCode ?? 502;
  res.writeHead(status, up.statusMessage, responseHeaders(up.rawHeaders, extra));
  const chunks = [head.bytes];
  let size = head.bytes.length;
  let whole = true;
  let error: Error | undefined | null;
  if (head.complete) res.end(head.bytes);
  else {
    if (head.bytes.length) res.write(head.bytes);
    const tee = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (ctx.har && whole) {
          if (size <= HAR_TEXT_BYTES) chunks.push(chunk);
          else whole = false;
        }
        done(null, chunk);
      },
    });
    error = await new Promise<Error | null | undefined>((resolve) => pipeline(up, tee, res, resolve));
  }
  const x = exchange('passed to the caller');
  x.endAt = Date.now();
  x.responseBody = { bytes: whole ? Buffer.concat(chunks) : Buffer.alloc(0), size, complete: whole && !error };
  record(ctx, x);
  if (error) trace.notes.push(`answer cut off: ${ctx.accounts.scrub(error.message)}`);
  count(ctx.stats.answered, status);
  logLine(ctx, trace, status);
}

/** The target's last retryable answer, given unchanged once the ceiling is reached. */
function passKept(ctx: ProxyContext, trace: Trace, res: ServerResponse, kept: Kept): StartOutcome {
  res.writeHead(kept.status, kept.statusMessage, responseHeaders(kept.rawHeaders, {}));
  res.end(kept.bytes);
  if (kept.entry) {
    kept.entry._videogenProxy.next = 'passed to the caller';
    kept.entry.comment = `answered ${kept.status}; the next wait would pass the proxy's --max-wait, so this answer went to the caller unchanged`;
  }
  trace.notes.push(`passed through after --max-wait ${seconds(ctx.maxWaitMs)} s`);
  count(ctx.stats.answered, kept.status);
  logLine(ctx, trace, kept.status);
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
    ctx.stats.statusReads++;
    ctx.stats.upstream.sent++;
    const sent = await ctx.upstream.send({ method: 'GET', path, headers, timeoutMs: ctx.timeoutMs });
    if (sent.kind === 'failed') {
      ctx.stats.upstream.failed++;
      return;
    }
    const up = sent.res;
    const head = await readUpTo(up, BODY_BYTES);
    const json = head.complete ? jsonOf(head.bytes) : undefined;
    count(ctx.stats.upstream.answered, up.statusCode ?? 0);
    outcome = {
      status: up.statusCode,
      headers: up.headers,
      error_code: json?.error_code,
      videoStatus: typeof json?.status === 'string' ? json.status : undefined,
    };
    record(ctx, {
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
    ctx.log(
      `proxy: status read of a running video for a held start → ${up.statusCode}${outcome.videoStatus ? ` ${outcome.videoStatus}` : ''} ${caller.fingerprint}`,
    );
  } catch {
    // Best effort: the held start looks again at the polling pace.
  } finally {
    ticket.settle(outcome);
  }
}

// ---- helpers ---------------------------------------------------------------------------------------

/** The path to forward, or the proxy's answer to a request target it does not serve. */
function requestPath(ctx: ProxyContext, raw: string): string | ProxyAnswer {
  let path = raw;
  if (/^https?:\/\//i.test(raw)) {
    // Absolute form: the tool uses the proxy as an HTTP proxy. Fine for the target's own origin.
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return proxyAnswer('PROXY_INVALID_REQUEST', 'The request target is not a valid URL.');
    }
    if (url.origin !== ctx.target.origin) {
      return proxyAnswer(
        'PROXY_INVALID_REQUEST',
        `This pacing proxy forwards only to ${ctx.target.origin}: set the tool's base URL to the proxy's address instead of using it as an HTTP proxy for ${url.origin}.`,
      );
    }
    path = url.pathname + url.search;
  }
  if (!path.startsWith('/'))
    return proxyAnswer(
      'PROXY_INVALID_REQUEST',
      'The request target must be a path (origin form) or a URL of the target.',
    );
  // Node refuses such a path on the way out; answer it here with the reason instead.
  if (/[^\x21-\x7e]/.test(path))
    return proxyAnswer('PROXY_INVALID_REQUEST', 'The request path holds characters that must be percent-encoded.');
  return path;
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function videoIdOf(pathname: string): string | undefined {
  const m = /\/videos\/([^/]+)\//.exec(pathname + '/');
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** The caller's headers for the target: end-to-end ones only; host, length and encoding set by the proxy. */
function forwardHeaders(r: Request, ctx: ProxyContext): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of endToEnd(r.rawHeaders, SET_BY_PROXY)) {
    const prev = out[name];
    out[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [String(prev)]), value];
  }
  out.host = ctx.target.host;
  // Uncompressed answers: the proxy reads error codes and ids, and the HAR keeps readable text.
  out['accept-encoding'] = 'identity';
  if (r.body) out['content-length'] = r.body.size;
  return out;
}

/** The caller's raw headers (casing and repeats kept), less those that are not end-to-end. */
function endToEnd(rawHeaders: string[], also: string[] = []): Array<[string, string]> {
  const names = new Set([...HOP_BY_HOP, ...also]);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'connection')
      for (const n of rawHeaders[i + 1].split(',')) names.add(n.trim().toLowerCase());
  }
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (!names.has(rawHeaders[i].toLowerCase())) out.push([rawHeaders[i], rawHeaders[i + 1]]);
  return out;
}

function responseHeaders(rawHeaders: string[], extra: Record<string, string>): string[] {
  const flat = endToEnd(rawHeaders).flat();
  for (const [k, v] of Object.entries(extra)) flat.push(k, v);
  return flat;
}

function requestBodyOf(body: BodySpool | undefined, headers: OutgoingHttpHeaders): Exchange['requestBody'] {
  if (!body) return undefined;
  const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const mimeType = Array.isArray(type) ? type.join(', ') : String(type ?? '');
  const bytes = body.bytes();
  return { size: body.size, mimeType, ...(bytes && isTextual(mimeType) && { text: bytes.toString('utf8') }) };
}

/** Reads at most about `cap` bytes; `complete` when the body ended within them. The rest stays in the stream. */
function readUpTo(stream: IncomingMessage, cap: number): Promise<{ bytes: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (fn: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      fn();
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= cap) {
        stream.pause();
        done(() => resolve({ bytes: Buffer.concat(chunks), complete: false }));
      }
    };
    const onEnd = () => done(() => resolve({ bytes: Buffer.concat(chunks), complete: true }));
    const onError = (err: Error) => done(() => reject(err));
    const onClose = () =>
      done(() => reject(new Error('the target closed the connection before its answer was complete')));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function jsonOf(bytes: Buffer): Record<string, any> | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Exponential backoff with jitter (0.5–1 ×), in the target's time. */
function backoffMs(ctx: ProxyContext, retries: number): number {
  return ((0.5 + Math.random() / 2) * Math.min(BACKOFF_MS.cap, BACKOFF_MS.base * 2 ** retries)) / ctx.timeScale;
}

/**
 * The proxy's own wait before a re-send (503, backoff). Undefined when it ran out; else the request
 * is over: the caller left (nothing more is sent), or the proxy is closing (answered so).
 */
async function pause(
  ctx: ProxyContext,
  trace: Trace,
  r: Request,
  res: ServerResponse,
  ms: number,
): Promise<StartOutcome | undefined> {
  const started = Date.now();
  try {
    await sleep(ms, undefined, { signal: AbortSignal.any([r.gone, ctx.closing]) });
    return undefined;
  } catch {
    if (r.gone.aborted) return abandon(ctx, trace);
    reply(
      ctx,
      trace,
      res,
      proxyAnswer('PROXY_CLOSING', 'The pacing proxy is shutting down; the request was not sent again.'),
    );
    return 'refused';
  } finally {
    trace.waitedMs += Date.now() - started;
  }
}

const isTimeout = (err: unknown) => (err as Error)?.name === 'TimeoutError';
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${seconds(ms)} s`);

function abandon(ctx: ProxyContext, trace: Trace): StartOutcome {
  ctx.stats.abandoned++;
  trace.notes.push('the caller left before it was sent: not sent');
  logLine(ctx, trace, 0);
  return 'refused';
}

function record(ctx: ProxyContext, x: Exchange): ReturnType<typeof harEntry> | undefined {
  if (!ctx.har) return undefined;
  const entry = harEntry(x, (s) => ctx.accounts.scrub(s));
  ctx.har.add(entry);
  return entry;
}

/** The proxy's own answer to the caller. */
function reply(ctx: ProxyContext, trace: Trace, res: ServerResponse, a: ProxyAnswer): void {
  sendAnswer(res, a);
  count(ctx.stats.answered, a.status);
  count(ctx.stats.ownAnswers, a.error_code);
  trace.notes.push(`answered by the proxy: ${a.error_code}`);
  logLine(ctx, trace, a.status);
}

function logLine(ctx: ProxyContext, t: Trace, status: number): void {
  const waited = t.waitedMs >= 1 ? `, held ${duration(t.waitedMs)}` : '';
  const notes = t.notes.length ? `; ${t.notes.join('; ')}` : '';
  ctx.log(
    ctx.accounts.scrub(
      `proxy: ${t.method} ${t.path} → ${status || '-'} in ${duration(Date.now() - t.startedAt)}${waited}${notes}${t.caller ? ` ${t.caller.fingerprint}` : ''}`,
    ),
  );
}
