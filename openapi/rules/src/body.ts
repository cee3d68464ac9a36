// How long and how large the body of an answer may be, and the one watch that holds a body to it. The
// client's transport (API answers and downloads), the contract suite's engine and the pacing proxy's
// reads of the target all use it, so that "stalled" and "too large" mean the same everywhere.
//
// The interface says nothing of either: these are the toolkit's choices (openapi/DECISIONS.md, "Transport
// limits"), stated here and nowhere else. A body timeout and a size limit are failures of the answer,
// not answers: retryDecision (retry.ts) decides what follows them, as it does for a lost connection.
//
// Why a progress floor rather than undici's plain idle timer: a server that sends one byte a second is
// never idle, and holds an idle-timed reader forever. A body that brings less than `progressBytes` in
// `idleMs` of waiting is stalled (curl's --speed-limit/--speed-time); a real video on a slow link moves
// far faster than 1 KiB in 30 s. Only time spent waiting for the source counts: a slow consumer (a disk)
// is not the server's fault.

/** The toolkit's transport limits (DECISIONS.md, "Transport limits"). */
export const BODY_LIMITS = {
  /** Waiting this long for `progressBytes` more (or the end) is a stall, for every body. */
  idleMs: 30_000,
  /** What counts as progress: 1 KiB. */
  progressBytes: 1024,
  /** An API answer's whole body, once its headers came (a page of 50 items is a few KB, 5 MB at most in the sandbox). */
  totalMs: 60_000,
  /** An API answer's body, decoded (after gzip/br/deflate): 16 MiB. */
  maxBytes: 16_777_216,
  /** A downloaded video's default ceiling: 2 GiB, over an hour of 1080p at 4 Mbit/s. */
  maxDownloadBytes: 2_147_483_648,
} as const;
// (Literal numbers, not products: a bundler drops an unused object of literals, not one of arithmetic.)

export interface BodyLimitOptions {
  /** Stall window (see BODY_LIMITS.idleMs); 0 or Infinity: none. */
  idleMs?: number;
  /** The whole body's deadline from now; 0 or Infinity: none. */
  totalMs?: number;
  /** Decoded bytes allowed; Infinity: none. */
  maxBytes?: number;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The body stalled (`idle`) or missed its deadline (`total`). `code` is undici's for the same failure. */
export class BodyTimeoutError extends Error {
  override readonly name = 'BodyTimeoutError';
  readonly code = 'UND_ERR_BODY_TIMEOUT';
  constructor(
    readonly deadline: 'idle' | 'total',
    readonly ms: number,
    /** Bytes that had arrived. */
    readonly received: number,
  ) {
    super(
      deadline === 'idle'
        ? `the answer's body stalled: less than ${BODY_LIMITS.progressBytes} bytes in ${seconds(ms)} s, after ${received} bytes`
        : `the answer's body was not complete within ${seconds(ms)} s of its headers (${received} bytes arrived)`,
    );
  }
}

/** The body is larger than allowed (decoded), or declares so (`declared`: its Content-Length). `code` is undici's. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  readonly code = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
  constructor(
    readonly maxBytes: number,
    readonly declared?: number,
  ) {
    super(
      declared === undefined
        ? `the answer's body exceeds the limit of ${maxBytes} bytes`
        : `the answer declares ${declared} bytes (Content-Length), over the limit of ${maxBytes} bytes`,
    );
  }
}

/**
 * The Content-Length of an answer when it is over `maxBytes` and states the body's real size (no
 * Content-Encoding: a compressed length says nothing of the decoded size). Checked before a byte is read.
 */
export function declaredTooLarge(
  headers: { get(name: string): string | null },
  maxBytes: number,
): ResponseTooLargeError | undefined {
  if (!Number.isFinite(maxBytes)) return undefined;
  const encoding = headers.get('content-encoding');
  if (encoding && !/^\s*identity\s*$/i.test(encoding)) return undefined;
  const declared = Number(headers.get('content-length') ?? '');
  return headers.get('content-length') !== null && declared > maxBytes
    ? new ResponseTooLargeError(maxBytes, declared)
    : undefined;
}

/** A time limit given, or 0 for none (0, a negative number, Infinity or nothing). */
const given = (ms: number | undefined) => (ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : 0);

/**
 * The watch over one body: the adapter of a stream tells it when it waits for the source (`waiting`),
 * when it stops waiting (`resting`), and what arrived (`add`); the watch calls `fail` once, with a
 * BodyTimeoutError or a ResponseTooLargeError. The total deadline runs from construction.
 *
 * One timer, looked at when it fires rather than moved at every chunk (a read costs a clock reading, not
 * a timer: the client's per-call benchmark counts it): the stall budget is spent only while waiting, and
 * given back whole at each `progressBytes` that arrive.
 */
export class BodyWatch {
  received = 0;
  /** Waiting time left before the next progress is due, not counting the current wait. */
  #budget: number;
  #sinceProgress = 0;
  /** When the current wait began (undefined: resting). */
  #waitingSince: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires. */
  #due = Infinity;
  #over = false;
  readonly #deadline: number;
  readonly #idleMs: number;
  readonly #totalMs: number;
  readonly #maxBytes: number;
  readonly #fail: (error: Error) => void;

  constructor(limits: BodyLimitOptions, fail: (error: Error) => void) {
    this.#idleMs = given(limits.idleMs);
    this.#totalMs = given(limits.totalMs);
    this.#budget = this.#idleMs;
    this.#deadline = this.#totalMs ? Date.now() + this.#totalMs : Infinity;
    this.#maxBytes = limits.maxBytes ?? Infinity;
    this.#fail = fail;
    if (this.#totalMs) this.#arm(this.#totalMs);
  }

  /** A read of the source is pending: the stall clock runs. */
  waiting(): void {
    if (this.#over || !this.#idleMs || this.#waitingSince !== undefined) return;
    const now = Date.now();
    this.#waitingSince = now;
    // The timer must fire no later than the budget can last (it may be set for the later total deadline).
    if (this.#due > now + this.#budget) this.#arm(this.#budget);
  }

  /** No read is pending (the consumer is busy): the stall clock stops. */
  resting(): void {
    if (this.#waitingSince === undefined) return;
    this.#budget -= Date.now() - this.#waitingSince;
    this.#waitingSince = undefined;
  }

  /** `n` bytes arrived; false when they pass the size limit (the watch has failed). */
  add(n: number): boolean {
    if (this.#over) return false;
    this.resting();
    this.received += n;
    if (this.received > this.#maxBytes) {
      this.#stop(new ResponseTooLargeError(this.#maxBytes));
      return false;
    }
    this.#sinceProgress += n;
    if (this.#sinceProgress >= BODY_LIMITS.progressBytes) {
      this.#sinceProgress = 0;
      this.#budget = this.#idleMs;
    }
    return true;
  }

  /** The body ended (or was given up): no timer is left. */
  end(): void {
    this.#over = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = Infinity;
  }

  get failed(): boolean {
    return this.#over;
  }

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    const wait = Math.max(0, ms);
    this.#due = Date.now() + wait;
    this.#timer = setTimeout(() => this.#look(), wait);
  }

  /** The timer fired: a deadline passed, or (it was set for an earlier state) set it for what is left. */
  #look(): void {
    this.#timer = undefined;
    this.#due = Infinity;
    if (this.#over) return;
    const now = Date.now();
    if (now >= this.#deadline) {
      this.#stop(new BodyTimeoutError('total', this.#totalMs, this.received));
      return;
    }
    const since = this.#waitingSince;
    const waiting = since !== undefined;
    const left = this.#budget - (since !== undefined ? now - since : 0);
    if (waiting && left <= 0) {
      this.#stop(new BodyTimeoutError('idle', this.#idleMs, this.received));
      return;
    }
    const next = Math.min(waiting ? left : Infinity, this.#deadline - now);
    if (Number.isFinite(next)) this.#arm(next);
  }

  #stop(error: Error): void {
    if (this.#over) return;
    this.end();
    this.#fail(error);
  }
}

/**
 * `body` held to `limits`: a stream that errors with a BodyTimeoutError or a ResponseTooLargeError (and
 * cancels the source) when one is passed, or with the signal's reason when `signal` aborts. It reads the
 * source only when its own reader asks (no read-ahead), so a slow consumer never looks like a stall.
 */
export function limitBody(
  body: ReadableStream<Uint8Array>,
  limits: BodyLimitOptions & { signal?: AbortSignal },
): ReadableStream<Uint8Array> {
  const { signal } = limits;
  const reader = body.getReader();
  let controller: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const finish = () => {
    closed = true;
    watch.end();
    signal?.removeEventListener('abort', onAbort);
  };
  const stop = (error: unknown) => {
    if (closed) return;
    finish();
    reader.cancel(error).catch(() => {});
    try {
      controller.error(error);
    } catch {
      // Already errored or closed.
    }
  };
  const onAbort = () => stop(signal?.reason);
  const watch = new BodyWatch(limits, stop);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (signal?.aborted) stop(signal.reason);
        else signal?.addEventListener('abort', onAbort, { once: true });
      },
      async pull(c) {
        if (closed) return;
        watch.waiting();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          return stop(error);
        }
        if (closed) return;
        if (chunk.done) {
          finish();
          c.close();
          return;
        }
        if (watch.add(chunk.value.byteLength)) c.enqueue(chunk.value);
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A whole body read within `limits` (its declared length checked first), as bytes. Rejects with
 * a BodyTimeoutError, a ResponseTooLargeError, the signal's reason, or the source's own error. It reads
 * the source itself, under the watch (no second stream: the client's per-call benchmark counts it).
 */
export async function readBody(
  res: { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null },
  limits: BodyLimitOptions & { signal?: AbortSignal },
): Promise<Uint8Array<ArrayBuffer>> {
  if (!res.body) return new Uint8Array(0);
  const declared = declaredTooLarge(res.headers, limits.maxBytes ?? Infinity);
  if (declared) {
    res.body.cancel(declared).catch(() => {});
    throw declared;
  }
  const { signal } = limits;
  const reader = res.body.getReader();
  let failure: unknown;
  const stop = (error: unknown) => {
    failure ??= error;
    reader.cancel(error).catch(() => {});
  };
  const onAbort = () => stop(signal?.reason);
  const watch = new BodyWatch(limits, stop);
  if (signal?.aborted) stop(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      watch.waiting();
      const chunk = await reader.read();
      if (failure !== undefined) throw failure;
      if (chunk.done) break;
      if (!watch.add(chunk.value.byteLength)) throw failure;
      chunks.push(chunk.value);
      size += chunk.value.byteLength;
    }
  } catch (error) {
    stop(error);
    throw failure;
  } finally {
    watch.end();
    signal?.removeEventListener('abort', onAbort);
  }
  return joinChunks(chunks, size);
}

/** The chunks of a body as one array of bytes (a lone chunk that is its whole buffer is not copied). */
export function joinChunks(
  chunks: Uint8Array[],
  size = chunks.reduce((n, c) => n + c.byteLength, 0),
): Uint8Array<ArrayBuffer> {
  const [only] = chunks;
  if (chunks.length === 1 && only && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength)
    return only as Uint8Array<ArrayBuffer>;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) bytes.set(c, at), (at += c.byteLength);
  return bytes;
}
