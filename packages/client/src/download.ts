// Downloads: the status is read from the API, the video from `download_url`, which is another host
// (object storage, say). That host is not the API: its answers never go through the API's error rules.
import type { components } from '@videogen/openapi/types';
import type { WithResponse } from './api-promise.js';
import type { APIPromise } from './api-promise.js';
import { BodyTimeoutError, declaredTooLarge, joinChunks, ResponseTooLargeError } from '@videogen/openapi/rules';
import { DownloadError, VideoExpiredError, VideoFailedError, VideoNotReadyError } from './errors.js';
import type { RequestOptions, Send } from './transport.js';
import { builtin, noFileSystem } from './runtime.js';
import { notVideoType, SIGNATURE_BYTES, videoContainer } from './video-signature.js';

type Video = components['schemas']['Video'];
export interface DownloadOptions extends RequestOptions {
  onProgress?: (p: { loaded: number; total?: number }) => void;
  /**
   * The largest video written (default: the client's `maxDownloadBytes`, 2 GiB): a larger declared
   * Content-Length is refused before anything is written, and the bytes are counted as they arrive.
   */
  maxBytes?: number;
}

/** How much of a refusal's body the error keeps (an object store's XML error is a few hundred bytes). */
const BODY_BYTES = 512;

/**
 * Streams a completed video to `path` (a temporary file, renamed when complete). The download host
 * gets no API key and no per-call headers. When it refuses (an expired URL answers 403), drops the
 * connection or stalls, the status is read again for a fresh URL, once; then a DownloadError. The body
 * is held to the transport's stall window, the call's `bodyDeadlineMs` (none unless given) and
 * `maxBytes` (a declared Content-Length over it is refused before anything is written; the bytes are
 * counted as they arrive, whatever the host declares): error_code BODY_TIMEOUT or TOO_LARGE.
 */
export async function download(
  get: (id: string, o: RequestOptions) => APIPromise<Video>,
  send: Send,
  id: string,
  path: string,
  { onProgress, signal, timeoutMs, bodyTimeoutMs, bodyDeadlineMs, maxBytes = Infinity, ...o }: DownloadOptions = {},
): Promise<WithResponse<{ path: string; bytes: number }>> {
  const fs = builtin<typeof import('node:fs')>('node:fs');
  const stream = builtin<typeof import('node:stream/promises')>('node:stream/promises');
  if (!fs?.createWriteStream || !stream?.pipeline)
    throw new TypeError(`download(…, path): ${noFileSystem('writing a file')} (or read video.download_url with fetch)`);
  const {
    createWriteStream,
    promises: { rename, rm },
  } = fs;
  const { pipeline } = stream;
  for (let fresh = false; ; fresh = true) {
    const video = await get(id, { signal, timeoutMs, bodyTimeoutMs, ...o });
    const { status } = video;
    if (status !== 'completed')
      throw new (
        status === 'failed' ? VideoFailedError : status === 'expired' ? VideoExpiredError : VideoNotReadyError
      )(`Video ${id} is ${status}`, { video, retryable: status === 'running' });
    const host = hostOf(video.download_url);
    const failed = (
      message: string,
      init: {
        status?: number;
        body?: string;
        cause?: unknown;
        headers?: Headers;
        error_code?: string;
        limit?: number;
        retryable?: boolean;
      } = {},
    ) =>
      new DownloadError(`Download of video ${id} from ${host} failed: ${message}`, {
        ...init,
        host,
        retryable: init.retryable ?? (init.status === undefined || init.status >= 500),
      });
    /** A failure of the body: its deadline (BODY_TIMEOUT), its size (TOO_LARGE, never read afresh), or a drop. */
    const bodyFailed = (cause: unknown, loaded: number, total: number | undefined) => {
      const at = `after ${loaded} of ${total ?? '?'} bytes`;
      const init = { status: res.status, cause, headers: res.headers };
      if (cause instanceof BodyTimeoutError)
        return failed(
          cause.deadline === 'idle'
            ? `the download host stalled: less than 1 KiB in ${cause.ms} ms (bodyTimeoutMs) ${at}`
            : `the download did not finish within ${cause.ms} ms (bodyDeadlineMs), ${at}`,
          { ...init, error_code: 'BODY_TIMEOUT', retryable: true },
        );
      if (cause instanceof ResponseTooLargeError)
        return failed(`the video exceeds ${cause.maxBytes} bytes (maxBytes); nothing was kept`, {
          ...init,
          error_code: 'TOO_LARGE',
          limit: cause.maxBytes,
          retryable: false,
        });
      return failed(`the connection dropped ${at}`, init);
    };
    // No pacing (not the API), no retry on its answers: the one retry is the fresh URL below.
    let res: Response;
    try {
      ({ response: res } = await send(
        { method: 'GET', url: video.download_url, headers: {} },
        {
          pace: false,
          maxRetries: 0,
          signal,
          timeoutMs,
          bodyTimeoutMs,
          bodyDeadlineMs,
          stream: { maxBytes },
          traceContext: o.traceContext,
        },
      ));
    } catch (cause) {
      signal?.throwIfAborted();
      if (!fresh) continue;
      throw failed(`no answer (${(cause as Error).message})`, { cause });
    }
    if (!res.ok || !res.body) {
      const body = await firstBytes(res);
      if (!fresh) continue;
      throw failed(`${res.status}${body ? `: ${body.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`, {
        status: res.status,
        body,
        headers: res.headers,
      });
    }
    // Not a video, by its type or by its first bytes: an error, and no file is opened. Not read afresh: a
    // new address of the same host answers the same thing.
    const notVideo = (what: string, body?: string) =>
      failed(`it answered ${what}, not a video${body ? `: ${body.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`, {
        status: res.status,
        body,
        headers: res.headers,
        error_code: 'NOT_A_VIDEO',
      });
    const type = notVideoType(res.headers.get('content-type'));
    if (type) throw notVideo(`${res.status} ${type}`, await firstBytes(res));
    // Larger than allowed by its own word: refused before anything is written, not read afresh.
    const declared = declaredTooLarge(res.headers, maxBytes);
    if (declared) {
      await res.body.cancel().catch(() => {});
      throw failed(
        `it declares ${declared.declared} bytes (Content-Length), over the limit of ${maxBytes} bytes (maxBytes); nothing was written`,
        { status: res.status, headers: res.headers, error_code: 'TOO_LARGE', limit: maxBytes, retryable: false },
      );
    }
    let head: Awaited<ReturnType<typeof readHead>>;
    try {
      head = await readHead(res.body, signal);
    } catch (cause) {
      signal?.throwIfAborted();
      if (!fresh && !(cause instanceof ResponseTooLargeError)) continue;
      throw bodyFailed(cause, 0, Number(res.headers.get('content-length')) || undefined);
    }
    if (!videoContainer(head.bytes)) {
      head.cancel();
      throw notVideo(
        'a body whose first bytes are no video container (no MP4 or WebM signature)',
        new TextDecoder().decode(head.bytes) || '(empty)',
      );
    }
    const total = Number(res.headers.get('content-length')) || undefined;
    // The length is the encoded body's when the host compresses it: only a plain body is held to it.
    const exact = total !== undefined && /^(identity)?$/i.test(res.headers.get('content-encoding') ?? '');
    const tmp = `${path}.${Date.now()}-${Math.random().toString(36).slice(2)}.part`;
    let loaded = 0;
    const file = createWriteStream(tmp);
    try {
      await pipeline(
        head.stream,
        async function* (src: AsyncIterable<Uint8Array>) {
          for await (const c of src) {
            loaded += c.byteLength;
            onProgress?.({ loaded, total });
            yield c;
          }
        },
        file,
        { signal },
      );
      // As an object store's client checks: a body shorter than its Content-Length is not the video.
      if (exact && loaded !== total) throw new Error(`the body ended after ${loaded} of ${total} bytes`);
      await rename(tmp, path);
    } catch (cause) {
      head.cancel(); // (the body may not have been read at all: a file that could not be opened)
      // A body that fails before the file is open leaves the open pending: removed only once the stream
      // has closed, or the open would create the file after its removal.
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await rm(tmp, { force: true });
      signal?.throwIfAborted();
      if ((cause as NodeJS.ErrnoException)?.syscall) throw cause; // the local file system's error (a full disk, a bad path)
      if (!fresh && !(cause instanceof ResponseTooLargeError)) continue;
      throw bodyFailed(cause, loaded, total);
    }
    return { data: { path, bytes: loaded }, response: res };
  }
}

/** The host of a download URL: never its path or query (a presigned URL is a temporary credential). */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '(not a URL)';
  }
};

/**
 * The first bytes of a body (enough to tell its container), and the whole body as a stream from its
 * start. Until the stream ends or `cancel` is called, an abort of `signal` cancels the body: a read
 * waiting on a host that sends nothing more ends at once (the fetch's own signal covers only the wait
 * for the headers). An abort while the first bytes are read rejects with the signal's reason.
 */
async function readHead(body: ReadableStream<Uint8Array>, signal?: AbortSignal) {
  const reader = body.getReader();
  const onAbort = () => reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  const cancel = () => {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => {});
  };
  const chunks: Uint8Array[] = [];
  try {
    await readInto(chunks, reader, SIGNATURE_BYTES);
    signal?.throwIfAborted();
  } catch (e) {
    cancel();
    throw e;
  }
  const bytes = joinChunks(chunks);
  async function* stream() {
    try {
      yield* chunks;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      cancel(); // an abort or a failed write stops the download host's body too
    }
  }
  return { bytes, stream: stream(), cancel };
}

/** The first bytes of a refusal, as text (read no further: the body could be large). */
async function firstBytes(res: Response): Promise<string | undefined> {
  if (!res.body) return undefined;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  try {
    await readInto(chunks, reader, BODY_BYTES);
  } catch {
    // A dropped connection mid-body: what arrived is enough.
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(joinChunks(chunks).subarray(0, BODY_BYTES)) || undefined;
}

/** Reads into `chunks` until they hold `count` bytes or the body ends; a failure leaves what arrived there. */
async function readInto(chunks: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, count: number) {
  for (let n = 0; n < count; ) {
    const { value, done } = await reader.read();
    if (done) return;
    chunks.push(value);
    n += value.byteLength;
  }
}
