// The one watch over an answer's body: a drip is a stall, a slow stream that
// moves is not, a slow consumer is not the server's fault, and a body past its size ends at the limit
// with its source cancelled. Time is vitest's fake clock: the deadlines are the ones of BODY_LIMITS.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BODY_LIMITS,
  BodyTimeoutError,
  declaredTooLarge,
  limitBody,
  readBody,
  ResponseTooLargeError,
} from '../src/index.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A source that sends `chunk` bytes every `everyMs`, `count` times (Infinity: forever), and says when it was cancelled. */
function source(chunk: number, everyMs: number, count = Infinity) {
  let sent = 0;
  const state = { cancelled: undefined as unknown, sent: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull: (c) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          if (state.cancelled !== undefined) return resolve();
          if (sent++ >= count) c.close();
          else c.enqueue(new Uint8Array(chunk).fill(7));
          state.sent = sent;
          resolve();
        }, everyMs),
      ),
    cancel: (reason) => void (state.cancelled = reason),
  });
  return { stream, state };
}

/** Reads `stream` to its end or its error, while the fake clock runs for at most `forMs`. */
async function drain(stream: ReadableStream<Uint8Array>, forMs: number) {
  const reader = stream.getReader();
  let bytes = 0;
  const done = (async () => {
    for (;;) {
      const r = await reader.read();
      if (r.done) return { bytes };
      bytes += r.value.byteLength;
    }
  })().catch((error: unknown) => ({ bytes, error }));
  let result: { bytes: number; error?: unknown } | undefined;
  void done.then((r) => (result = r));
  for (let t = 0; t < forMs && !result; t += 1000) await vi.advanceTimersByTimeAsync(1000);
  return result ?? { bytes, pending: true };
}

describe('limitBody: a stall', () => {
  it('a drip of one byte a second is a stall after idleMs, whatever it has sent', async () => {
    const { stream, state } = source(1, 1000);
    const r = await drain(limitBody(stream, { idleMs: BODY_LIMITS.idleMs }), 10 * 60_000);
    expect(r.error).toBeInstanceOf(BodyTimeoutError);
    expect(r.error).toMatchObject({ deadline: 'idle', ms: BODY_LIMITS.idleMs, code: 'UND_ERR_BODY_TIMEOUT' });
    expect(r.bytes).toBeLessThan(BODY_LIMITS.progressBytes);
    expect((r.error as Error).message).toMatch(/stalled: less than 1024 bytes in 30 s/);
    expect(state.cancelled).toBe(r.error);
  });
  it('a drip under both deadlines stalls at the stall window, not at the later total deadline', async () => {
    const { stream } = source(1, 1000);
    const r = await drain(limitBody(stream, { idleMs: 5000, totalMs: BODY_LIMITS.totalMs }), 10 * 60_000);
    expect(r.error).toMatchObject({ name: 'BodyTimeoutError', deadline: 'idle', ms: 5000 });
    expect(r.bytes).toBeLessThanOrEqual(6);
  });
  it('a slow stream that moves (2 KiB every 20 s) is no stall: it ends whole', async () => {
    const { stream } = source(2048, 20_000, 12);
    const r = await drain(limitBody(stream, { idleMs: BODY_LIMITS.idleMs }), 10 * 60_000);
    expect(r).toEqual({ bytes: 12 * 2048 });
  });
  it('a consumer that stops reading for minutes is not the server’s stall', async () => {
    const { stream } = source(10, 100, 3);
    const reader = limitBody(stream, { idleMs: BODY_LIMITS.idleMs }).getReader();
    const first = reader.read();
    await vi.advanceTimersByTimeAsync(100);
    expect((await first).value?.byteLength).toBe(10);
    // Nothing asked of the source for five minutes (a disk writing slowly, say).
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    const next = reader.read();
    await vi.advanceTimersByTimeAsync(100);
    expect((await next).value?.byteLength).toBe(10);
  });
  it('a total deadline ends a body that moves just enough (1 KiB every 29 s)', async () => {
    const { stream } = source(1024, 29_000);
    const r = await drain(limitBody(stream, { idleMs: BODY_LIMITS.idleMs, totalMs: BODY_LIMITS.totalMs }), 10 * 60_000);
    expect(r.error).toMatchObject({ name: 'BodyTimeoutError', deadline: 'total', ms: BODY_LIMITS.totalMs });
    expect((r.error as Error).message).toMatch(/not complete within 60 s of its headers \(2048 bytes arrived\)/);
  });
  it('an abort ends it with the signal’s reason and cancels the source', async () => {
    const { stream, state } = source(1, 1000);
    const ac = new AbortController();
    const reading = drain(limitBody(stream, { signal: ac.signal }), 10_000);
    await vi.advanceTimersByTimeAsync(2500);
    const reason = new Error('the caller left');
    ac.abort(reason);
    expect((await reading).error).toBe(reason);
    expect(state.cancelled).toBe(reason);
  });
});

describe('limitBody and readBody: a size limit, counted as the bytes arrive', () => {
  it('a body past maxBytes ends at the limit, its source cancelled, its rest never read', async () => {
    const MiB = 1024 * 1024;
    const { stream, state } = source(MiB, 10);
    const r = await drain(limitBody(stream, { maxBytes: 4 * MiB }), 60_000);
    expect(r.error).toBeInstanceOf(ResponseTooLargeError);
    expect(r.error).toMatchObject({ maxBytes: 4 * MiB, code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
    expect(r.bytes).toBe(4 * MiB);
    // (the source reads one chunk ahead of its reader)
    expect(state.sent).toBeLessThanOrEqual(6);
    expect(state.cancelled).toBe(r.error);
  });
  it('readBody: the whole body within the limits, as bytes', async () => {
    vi.useRealTimers();
    const text = JSON.stringify({ results: Array.from({ length: 50 }, (_, i) => ({ i })) });
    const res = new Response(text, { headers: { 'content-type': 'application/json' } });
    const bytes = await readBody(res, { ...BODY_LIMITS });
    expect(new TextDecoder().decode(bytes)).toBe(text);
  });
  it('a declared Content-Length over the limit is refused before a byte is read; a compressed one is counted instead', async () => {
    vi.useRealTimers();
    const big = { 'content-length': String(10 * 1000 ** 3) };
    expect(declaredTooLarge(new Headers(big), BODY_LIMITS.maxBytes)).toMatchObject({
      declared: 10 * 1000 ** 3,
      maxBytes: BODY_LIMITS.maxBytes,
    });
    expect(declaredTooLarge(new Headers({ ...big, 'content-encoding': 'gzip' }), BODY_LIMITS.maxBytes)).toBeUndefined();
    expect(declaredTooLarge(new Headers({ 'content-length': '100' }), BODY_LIMITS.maxBytes)).toBeUndefined();
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 });
    const error = await readBody({ headers: new Headers(big), body }, { maxBytes: BODY_LIMITS.maxBytes }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toMatch(/declares 10000000000 bytes \(Content-Length\), over the limit of 16777216 bytes/);
    expect(pulled).toBe(false);
  });

  it('readBody holds the source to the same rules: a drip stalls, a moving body meets the total deadline, an abort, a size', async () => {
    const read = async (stream: ReadableStream<Uint8Array>, limits: Parameters<typeof readBody>[1], forMs: number) => {
      let result: unknown;
      void readBody({ headers: new Headers(), body: stream }, limits).then(
        (bytes) => (result = bytes.byteLength),
        (error) => (result = error),
      );
      for (let t = 0; t < forMs && result === undefined; t += 1000) await vi.advanceTimersByTimeAsync(1000);
      return result;
    };
    expect(await read(source(1, 1000).stream, { idleMs: BODY_LIMITS.idleMs }, 600_000)).toMatchObject({
      name: 'BodyTimeoutError',
      deadline: 'idle',
    });
    expect(
      await read(source(1024, 29_000).stream, { idleMs: BODY_LIMITS.idleMs, totalMs: BODY_LIMITS.totalMs }, 600_000),
    ).toMatchObject({ deadline: 'total' });
    expect(await read(source(2048, 20_000, 12).stream, { idleMs: BODY_LIMITS.idleMs }, 600_000)).toBe(12 * 2048);
    expect(await read(source(1024 * 1024, 10).stream, { maxBytes: 3 * 1024 * 1024 }, 60_000)).toMatchObject({
      name: 'ResponseTooLargeError',
    });
    const ac = new AbortController();
    const reason = new Error('gone');
    setTimeout(() => ac.abort(reason), 1500);
    expect(await read(source(1, 1000).stream, { signal: ac.signal }, 10_000)).toBe(reason);
  });
});
