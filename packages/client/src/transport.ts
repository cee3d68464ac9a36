// The transport: every request of the client (API calls, uploads, downloads, and `client.api`'s)
// goes through `send`, which paces it, sends it with a per-attempt timeout, logs it, and applies the
// retry rules of the interface (7.1). Read it top-down: `send` is the loop; each attempt is
// `sendOnce`; after each, the rules' one `retryDecision` says whether to send again, after how long,
// and whether a create must be looked for instead (at most once for every POST).
import {
  ANNOUNCED_WAIT_MS,
  BACKOFF,
  BODY_LIMITS,
  BodyTimeoutError,
  limitBody,
  noAnswerOf,
  isIdempotent,
  readBody,
  redactUrl,
  ResponseTooLargeError as BodyTooLarge,
  RETRY_POLICY,
  retryDecision,
  type AttemptResult,
  type NoAnswer,
  type RetryDecision,
  type WaitNotice,
} from '@videogen/openapi/rules';
import type { Clock } from './clock.js';
import { NetworkError, ResponseTooLargeError, TimeoutError } from './errors.js';
import { exchangeRecord, type Log } from './logger.js';
import { type Pacer, route } from './pacer.js';
import { type Context, endHttpSpan, startHttpSpan } from './tracing.js';

/** Options every method takes as its last argument (the same names everywhere). */
export interface RequestOptions {
  /** Cancels the call, including any wait before a retry; it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Per attempt, until the response headers arrive (default: the client's `timeoutMs`, 60 s). */
  timeoutMs?: number;
  /**
   * Per attempt, once the headers came: the body must bring 1 KiB more (or end) within this long of
   * waiting for it, else a TimeoutError with `deadline: 'body-idle'` (default: the client's
   * `bodyTimeoutMs`, 30 s). A byte a second is a stall; a slow link that moves is not.
   */
  bodyTimeoutMs?: number;
  /**
   * Per attempt: the whole body within this long of its headers, else a TimeoutError with `deadline:
   * 'body-total'` (default: the client's `bodyDeadlineMs`, 60 s, for API answers; none for a download).
   */
  bodyDeadlineMs?: number;
  /** Retries of this call (default: the client's `maxRetries`, 3); 0 sends it once. */
  maxRetries?: number;
  /** Extra request headers for this call (they replace the client's of the same name). */
  headers?: Record<string, string>;
  /**
   * The OpenTelemetry context this call's spans are children of (default: the active context). For
   * runtimes without a context manager, or to attach a call to a trace by hand.
   */
  traceContext?: Context;
}

export interface RetryOptions {
  /** Retries of a 5xx, a 429 or a network error of a GET (default 3, x-retry-policy). */
  maxRetries: number;
  /** First backoff of a 5xx or a network error; doubles each time, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Wait on a 503 without Retry-After (default 30–60 s, x-retry-policy). */
  serviceUnavailableDelayMs: readonly [number, number];
  /**
   * Ceiling of any single wait (a Retry-After, a reset, the pacer's spacing); default 15 min. A longer
   * wait is not slept: the call fails with the server's error, which carries its Retry-After.
   */
  maxWaitMs: number;
}

export const retryOptions = (o: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: RETRY_POLICY.maxRetries,
  baseDelayMs: BACKOFF.baseMs,
  maxDelayMs: BACKOFF.maxMs,
  serviceUnavailableDelayMs: RETRY_POLICY.serviceUnavailableDelayMs,
  maxWaitMs: 15 * 60_000,
  ...o,
});

/** A request to send: plain data, so that each attempt builds its fetch call afresh and cheaply. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A small body (JSON) kept as is: sent again on a retry, shown in the traffic log. */
  body?: string | Uint8Array<ArrayBuffer>;
  /** A large body (an upload): `stream()` gives a fresh one per attempt; `once` when it cannot be read twice. */
  upload?: { stream: () => BodyInit; once: boolean };
  redirect?: RequestRedirect;
}

export interface SendOptions extends RequestOptions {
  /** Skip the pacer (the download host is not the API). */
  pace?: boolean;
  /**
   * Hand the body out as a stream (a download), held to the stall window, the call's `bodyDeadlineMs`
   * (none unless given) and `maxBytes`, and to the caller's signal. Default: the body is read whole
   * within the attempt, under the client's limits for API answers, so that a failure of the body is
   * decided like a lost answer (a GET goes again, a create is looked for).
   */
  stream?: { maxBytes: number };
  /**
   * At most once for a create (generate, conversion): called, instead of re-sending, when an attempt may
   * have created the video without saying so (its answer was lost, or a 5xx other than 503). It returns
   * the video found with the answer that showed it, `'absent'` when the service shows none, or
   * `'unknown'` when it cannot tell. Without it (a conversion, `client.api`) such a create is never re-sent.
   */
  lookup?: (firstSentAt: number) => Promise<Found | 'absent' | 'unknown'>;
}

/** A video an earlier attempt of a create made, and the service's answer that showed it (a list page). */
export interface Found {
  created: { video_id: string };
  response: Response;
}

/** A create answered by what the transport found instead of by a second attempt. */
export interface Recovered {
  /** The video the earlier attempt made: the create's data. */
  created: { video_id: string };
  /** What that attempt met: a 5xx status, or no answer (none in time, or a body that stalled or was too large). */
  after: { status: number } | { failure: Exclude<NoAnswer, 'refused'> };
}

/** What the transport did with a request: the service's last answer, and what it knows beyond it. */
export interface Sent {
  /** The last answer the service sent: the request's own, or the list page that showed a recovered video. */
  response: Response;
  /** The create was answered by the video its earlier attempt made (nothing was sent again). */
  recovered?: Recovered;
  /** An attempt may have created the video without saying so, and the create was not sent again. */
  notResent?: boolean;
}

export interface TransportConfig {
  /** A custom fetch, called as fetch(request, init) with a standard Request; default: the global fetch, called as fetch(url, init). */
  fetch?: (req: Request, init?: RequestInit) => Promise<Response>;
  /** Extra fetch init for every request: `dispatcher` (Node), `proxy` (Bun), `client` (Deno). */
  fetchOptions?: Record<string, unknown>;
  clock: Clock;
  retry: RetryOptions;
  timeoutMs: number;
  /** The limits of an API answer's body (BODY_LIMITS unless the client was given others). */
  body: BodyLimits;
  pacer?: Pacer;
  /** Looks at a video's status (the pacer uses it when it believes the account full). */
  check?: (id: string) => Promise<unknown>;
  log: Log;
  /** Told before every wait of a second or more (pacing, a retry), with what it waits for. */
  announce?: (notice: WaitNotice) => void;
}

/** How long and how large an answer's body may be (per client; the first two also per call). */
export interface BodyLimits {
  /** The stall window: 1 KiB (or the end) within this long of waiting. */
  idleMs: number;
  /** The whole body of an API answer, from its headers. */
  totalMs: number;
  /** An API answer's body, decoded. */
  maxBytes: number;
}

export const bodyLimits = (o: Partial<BodyLimits> = {}): BodyLimits => ({
  idleMs: o.idleMs ?? BODY_LIMITS.idleMs,
  totalMs: o.totalMs ?? BODY_LIMITS.totalMs,
  maxBytes: o.maxBytes ?? BODY_LIMITS.maxBytes,
});

export type Send = (out: Outgoing, o?: SendOptions) => Promise<Sent>;

/** The transport of one client: `send(out)` returns the last answer and what became of the request. */
export function createTransport(c: TransportConfig): Send {
  return (out, o = {}) => send(c, out, o);
}

/**
 * Sends a request until it gets an answer worth returning. It throws only when no answer came (as a
 * NetworkError or TimeoutError) and when the caller's signal aborts.
 */
async function send(c: TransportConfig, out: Outgoing, o: SendOptions): Promise<Sent> {
  const { clock, log } = c;
  const retry = o.maxRetries === undefined ? c.retry : { ...c.retry, maxRetries: o.maxRetries };
  const pacer = o.pace === false ? undefined : c.pacer;
  const { signal } = o;
  const timeoutMs = o.timeoutMs ?? c.timeoutMs;
  // A download's body is streamed to its file: only a deadline it was given bounds it as a whole.
  const body = {
    idleMs: o.bodyTimeoutMs ?? c.body.idleMs,
    totalMs: o.bodyDeadlineMs ?? (o.stream ? 0 : c.body.totalMs),
    maxBytes: o.stream ? o.stream.maxBytes : c.body.maxBytes,
  };
  const { cls: rateClass, counts: startsVideo, op } = route(out);
  // The operation's path template, for traces (a download address is not the API's: none).
  const template = op?.path;
  // A body that can be read once (a stream) is sent once.
  const maxRetries = out.upload?.once ? 0 : retry.maxRetries;
  // How log records and errors name the call: the URL redacted as every printed URL is (a presigned
  // download address's query is its credential; a base URL may hold a user or a token); a wait's
  // announcement, by its path.
  const call = `${out.method} ${redactUrl(out.url)}`;
  const held = `${out.method} ${new URL(out.url).pathname}`;
  let firstSentAt = 0;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const ticket =
      pacer &&
      (await pacer.acquire(out, { signal, check: c.check, log, announce: c.announce, parent: o.traceContext }));
    if (attempt === 0) firstSentAt = clock.now();
    const span = startHttpSpan({ method: out.method, url: out.url, template, resendCount: attempt }, o.traceContext);
    const { res, cause, failure: lost } = await sendOnce(c, out, { signal, timeoutMs, body, stream: !!o.stream });
    const noAnswerKind = res ? undefined : (lost ?? noAnswerOf(cause));
    endHttpSpan(span, res ? { status: res.status } : { failure: noAnswerKind });
    if (log.debug) await logExchange(log.debug, out, res, cause);
    if (pacer && ticket) await pacer.settle(out, ticket, res);
    if (!res) signal?.throwIfAborted();

    const result: AttemptResult = res
      ? { status: res.status, error_code: res.ok ? undefined : await errorCodeOf(res), headers: res.headers }
      : { failure: noAnswerKind ?? noAnswerOf(cause) };
    const d = retryDecision({
      method: out.method,
      result,
      attempt,
      maxRetries,
      rateClass,
      startsVideo,
      paced: !!pacer,
      maxWaitMs: retry.maxWaitMs,
      now: clock.now(),
      backoff: { baseMs: retry.baseDelayMs, maxMs: retry.maxDelayMs },
      serviceUnavailableDelayMs: retry.serviceUnavailableDelayMs,
    });
    const failure =
      'failure' in result ? noAnswer(d, result.failure, cause, { call, timeoutMs, ...body }, out.method) : undefined;
    const what = res ? `${call} → ${res.status}` : `${call}: ${failure?.message}`;

    if (d.lookFirst) {
      // At most once: the body of an error answer stays unread, for the caller if nothing is sent again.
      if (d.waitMs >= ANNOUNCED_WAIT_MS)
        c.announce?.({
          kind: 'retry',
          call: held,
          waitMs: d.waitMs,
          reason: `${res ? `its answer ${res.status}` : failure?.message}: then a look for the video it may have made (a create is never sent twice blindly)`,
        });
      if (d.waitMs > 0) await clock.sleep(d.waitMs, signal);
      const found = o.lookup ? await o.lookup(firstSentAt) : 'unknown';
      if (found !== 'absent' && found !== 'unknown') {
        await res?.body?.cancel();
        log.warn?.(
          { call, status: res?.status, video_id: found.created.video_id },
          `${what}; the video it made was found (${found.created.video_id}): not sent again`,
        );
        const after =
          'failure' in result ? { failure: result.failure as Exclude<NoAnswer, 'refused'> } : { status: result.status };
        return { response: found.response, recovered: { created: found.created, after } };
      }
      if (found === 'absent' && d.lookFirst === 'resend-if-absent') {
        await res?.body?.cancel();
        log.info?.(
          { call, status: res?.status, attempt: attempt + 1 },
          `${what}: no video was made; retry ${attempt + 1} of ${maxRetries}`,
        );
        continue;
      }
      log.warn?.({ call, status: res?.status }, `${what}: not re-sent (the first attempt may have created the video)`);
      // No answer at all: `failure` says why.
      if (!res) {
        log.error?.({ call, attempts: attempt + 1 }, what);
        throw failure;
      }
      return { response: res, notResent: true };
    }

    if (!d.retry) {
      if (d.beyondCeiling)
        log.warn?.(
          { call, status: res?.status, retryAfter: res?.headers.get('retry-after') },
          `${what}: the server asks for a wait beyond maxWaitMs (${retry.maxWaitMs} ms); not retried`,
        );
      else if (!res) log.error?.({ call, attempts: attempt + 1 }, what);
      else if (!res.ok && attempt > 0)
        log.error?.({ call, status: res.status, attempts: attempt + 1 }, `${what} after ${attempt + 1} attempts`);
      if (!res) throw failure;
      return { response: res };
    }

    // 429 and 503 are the account's limits: a warning; another 5xx or a lost answer is an ordinary retry.
    const level = d.reason === 'rate-limit' || d.reason === 'server-load' ? log.warn : log.info;
    const waitMs = Math.round(d.waitMs);
    // Paced, the wait is the pacer's (it learned the server's word from this answer): said as such, and
    // the pacer announces it, rather than "in 0 ms" followed by a wait of seconds.
    const when =
      d.waitFrom === 'pacer'
        ? `once the pacer allows${d.askedMs === undefined ? '' : ` (the server asked for ${Math.round(d.askedMs)} ms)`}`
        : `in ${waitMs} ms`;
    level?.(
      { call, ...(res && { status: res.status }), attempt: attempt + 1, waitMs, waitFrom: d.waitFrom },
      `${what}${res ? ':' : ';'} retry ${attempt + 1} of ${maxRetries} ${when}`,
    );
    await res?.body?.cancel();
    if (d.waitMs >= ANNOUNCED_WAIT_MS)
      c.announce?.({
        kind: 'retry',
        call: held,
        waitMs: d.waitMs,
        reason: `retry ${attempt + 1} of ${maxRetries} after ${res ? `${res.status}${d.waitFrom === 'retry-after' ? ' (its Retry-After)' : ''}` : `no answer (${innermost(cause)})`}`,
      });
    if (d.waitMs > 0) await clock.sleep(d.waitMs, signal);
  }
}

/**
 * The error of an attempt without an answer (or with a body that could not be read). Retryable when
 * sending it again is safe (a GET, or nothing was sent) and could help; `notResent` when it may have
 * reached the service and was not sent again. A timeout says which deadline passed.
 */
function noAnswer(
  d: RetryDecision,
  kind: NoAnswer,
  cause: unknown,
  limits: BodyLimits & { call: string; timeoutMs: number },
  method: string,
) {
  const notResent = d.mayHaveCreated && !isIdempotent(method);
  const init = { cause, retryable: !notResent, notResent };
  if (kind === 'timeout')
    return new TimeoutError(`${limits.call}: no response headers within ${limits.timeoutMs} ms (timeoutMs)`, {
      ...init,
      deadline: 'headers',
    });
  if (kind === 'body-timeout' && cause instanceof BodyTimeoutError)
    return cause.deadline === 'idle'
      ? new TimeoutError(
          `${limits.call}: the response body stalled: less than 1 KiB in ${cause.ms} ms (bodyTimeoutMs), after ${cause.received} bytes`,
          { ...init, deadline: 'body-idle' },
        )
      : new TimeoutError(
          `${limits.call}: the response body was not complete within ${cause.ms} ms of its headers (bodyDeadlineMs); ${cause.received} bytes arrived`,
          { ...init, deadline: 'body-total' },
        );
  if (kind === 'too-large' && cause instanceof BodyTooLarge)
    return new ResponseTooLargeError(
      `${limits.call}: the response body ${cause.declared === undefined ? 'exceeds' : `declares ${cause.declared} bytes, over`} the limit of ${cause.maxBytes} bytes (maxBodyBytes), decoded`,
      { ...init, retryable: false, limit: cause.maxBytes },
    );
  return new NetworkError(`Network error: ${(cause as Error)?.cause ?? (cause as Error)?.message ?? cause}`, init);
}

/** What a failed attempt's error says at its root (`connect ECONNREFUSED 127.0.0.1:4010`, not fetch's "fetch failed"). */
function innermost(error: unknown): string {
  let e = error as { message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e?.cause && typeof e.cause === 'object' && depth < 4; depth++) e = e.cause as typeof e;
  return typeof e?.message === 'string' && e.message ? e.message : String(error);
}

/** Statuses whose Response has no body (fetch refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * One attempt, with the per-attempt timeout for the headers (the caller's abort still wins), then the
 * body: read whole under the API's limits (a failure of it is this attempt's: `failure` says which), or
 * (`stream`) handed out as a stream held to them. A plain timer and controller: cheaper per call than
 * AbortSignal.timeout + AbortSignal.any. The global fetch is called with the URL and a plain init (no
 * Request of our own: fetch builds one anyway).
 */
async function sendOnce(
  c: TransportConfig,
  out: Outgoing,
  o: { signal?: AbortSignal; timeoutMs: number; body: BodyLimits; stream: boolean },
): Promise<{ res?: Response; cause?: unknown; failure?: NoAnswer }> {
  const { signal, timeoutMs } = o;
  const ac = timeoutMs ? new AbortController() : undefined;
  const stop = () => ac?.abort(signal?.reason);
  const timer = ac && setTimeout(() => ac.abort(), timeoutMs);
  if (ac && signal) signal.addEventListener('abort', stop);
  let res: Response;
  try {
    const init: RequestInit & { duplex?: 'half' } = {
      method: out.method,
      headers: out.headers,
      signal: ac ? ac.signal : signal,
    };
    if (out.body !== undefined) init.body = out.body;
    if (out.upload) (init.body = out.upload.stream()), (init.duplex = 'half');
    if (out.redirect) init.redirect = out.redirect;
    if (c.fetchOptions) Object.assign(init, c.fetchOptions);
    res = c.fetch
      ? await c.fetch(new Request(out.url, { ...init, signal }), { ...c.fetchOptions, signal: init.signal })
      : await fetch(out.url, init);
  } catch (cause) {
    if (ac && signal) signal.removeEventListener('abort', stop);
    return { cause, failure: noAnswerOf(cause, !!ac?.signal.aborted && !signal?.aborted) };
  } finally {
    clearTimeout(timer);
  }
  // The headers came: their deadline is over; the body's begin. The caller's abort reaches the body
  // through the limits' signal (a stream outlives this function).
  if (ac && signal) signal.removeEventListener('abort', stop);
  if (!res.body) return { res };
  const limits = { idleMs: o.body.idleMs, totalMs: o.body.totalMs, maxBytes: o.body.maxBytes, signal };
  if (o.stream) return { res: withBody(res, limitBody(res.body, limits)) };
  try {
    const bytes = await readBody(res, limits);
    return { res: NULL_BODY.has(res.status) ? withBody(res, null) : served(res, bytes) };
  } catch (cause) {
    return { cause, failure: noAnswerOf(cause) };
  }
}

/**
 * The answer, its body read within the attempt, handed out as itself: its body methods serve the bytes
 * read, once, as fetch's do. (A copy, `new Response(bytes)`, costs a second stream per call: a quarter
 * of a call's CPU in the per-call benchmark, npm run bench.) It keeps its status, headers, URL and its
 * class (`instanceof Response`); `body` is a stream of the bytes, made when asked (asking uses the body
 * up); `clone()` is a real copy.
 */
function served(res: Response, bytes: Uint8Array<ArrayBuffer>): Response {
  servedBodies.set(res, { bytes, used: false });
  return Object.setPrototypeOf(res, (servedProto ??= makeServedProto()));
}

interface ServedBody {
  bytes: Uint8Array<ArrayBuffer>;
  used: boolean;
  stream?: ReadableStream<Uint8Array>;
}
const servedBodies = /* @__PURE__ */ new WeakMap<Response, ServedBody>();
let servedProto: Response | undefined;
const utf8 = /* @__PURE__ */ new TextDecoder();

/** Response's prototype with its body methods reading the bytes served (made once, when first needed). */
function makeServedProto(): Response {
  const of = (r: Response): ServedBody => {
    const b = servedBodies.get(r);
    if (!b) throw new TypeError('not a served Response');
    return b;
  };
  const take = (r: Response): Promise<Uint8Array<ArrayBuffer>> => {
    const b = of(r);
    if (b.used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    b.used = true;
    return Promise.resolve(b.bytes);
  };
  const methods: ThisType<Response> & Record<string, unknown> = {
    arrayBuffer() {
      return take(this).then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    },
    bytes() {
      return take(this).then((b) => b.slice());
    },
    text() {
      return take(this).then((b) => utf8.decode(b));
    },
    json() {
      return take(this).then((b) => JSON.parse(utf8.decode(b)));
    },
    blob() {
      return take(this).then((b) => new Blob([b], { type: this.headers.get('content-type') ?? '' }));
    },
    formData() {
      return take(this).then((b) => withBody(this, b).formData());
    },
    clone() {
      const b = of(this);
      if (b.used) throw new TypeError('Response.clone: Body has already been consumed.');
      return withBody(this, b.bytes);
    },
  };
  const proto = Object.create(Response.prototype) as Response;
  for (const [name, value] of Object.entries(methods)) Object.defineProperty(proto, name, { value });
  Object.defineProperties(proto, {
    bodyUsed: {
      get(this: Response) {
        return of(this).used;
      },
    },
    body: {
      get(this: Response) {
        const b = of(this);
        if (!b.stream) {
          b.stream = withBody(this, b.bytes).body ?? undefined;
          b.used = true;
        }
        return b.stream ?? null;
      },
    },
  });
  return proto;
}

/** The answer with another body (read, or held to limits): same status, headers and URL. */
function withBody(res: Response, body: BodyInit | null): Response {
  const copy = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  Object.defineProperty(copy, 'url', { value: res.url });
  return copy;
}

async function logExchange(debug: NonNullable<Log['debug']>, out: Outgoing, res: Response | undefined, cause: unknown) {
  const url = redactUrl(out.url);
  const text = typeof out.body === 'string' ? out.body : out.body ? new TextDecoder().decode(out.body) : undefined;
  try {
    const { fields, msg } = await exchangeRecord({ ...out, url }, text, !!out.upload, res, cause);
    debug(fields, msg);
  } catch {
    // A log line lost is better than a call failed.
  }
}

/** An error answer's `error_code`, read from a copy (the caller still gets the body). */
const errorCodeOf = async (res: Response): Promise<string | undefined> => {
  const body = await res
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body?.error_code === 'string' ? body.error_code : undefined;
};

/** A Request (from client.api's openapi-fetch) as an Outgoing: its body read once, kept for retries. */
export async function fromRequest(req: Request): Promise<Outgoing> {
  const out: Outgoing = {
    method: req.method,
    url: req.url,
    headers: Object.fromEntries(req.headers),
    redirect: req.redirect,
  };
  const body = req.body;
  if (!body) return out;
  // A multipart stream from client.api is sent once; any other body (JSON) is small and kept.
  if (/multipart/i.test(req.headers.get('content-type') ?? '')) out.upload = { stream: () => body, once: true };
  else out.body = new Uint8Array(await req.arrayBuffer());
  return out;
}
