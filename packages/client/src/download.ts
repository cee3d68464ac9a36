import type { components } from './generated/openapi.js';
import { fromResponse, VideoExpiredError, VideoFailedError, VideoNotReadyError } from './errors.js';
import type { Send } from './retry.js';
import { builtin, noFileSystem } from './runtime.js';

export interface DownloadOptions {
  onProgress?: (p: { loaded: number; total?: number }) => void;
  signal?: AbortSignal;
}

/**
 * Streams a completed video to `path` (a temporary file, renamed when complete). The download host
 * gets no API key. An expired URL (403) is replaced once by reading the status again.
 */
export async function download(
  get: (id: string, o: { signal?: AbortSignal }) => Promise<components['schemas']['Video']>,
  send: Send,
  id: string,
  path: string,
  { onProgress, signal }: DownloadOptions = {},
) {
  const fs = builtin<typeof import('node:fs')>('node:fs');
  const stream = builtin<typeof import('node:stream/promises')>('node:stream/promises');
  if (!fs?.createWriteStream || !stream?.pipeline) throw new TypeError(`download(…, path): ${noFileSystem('writing a file')} (or read video.download_url with fetch)`);
  const { createWriteStream, promises: { rename, rm } } = fs;
  const { pipeline } = stream;
  for (let retried = false; ; retried = true) {
    const video = await get(id, { signal });
    const { status } = video;
    if (status != 'completed')
      throw new (status == 'failed' ? VideoFailedError : status == 'expired' ? VideoExpiredError : VideoNotReadyError)(`Video ${id} is ${status}`, { video, retryable: status == 'running' });
    const res = await send(new Request(video.download_url, { signal }), { pace: false });
    if (res.status == 403 && !retried) {
      await res.body?.cancel();
      continue;
    }
    if (!res.ok || !res.body) throw fromResponse(res.status, await res.text());
    const total = Number(res.headers.get('content-length')) || undefined;
    const tmp = `${path}.${Date.now()}-${Math.random().toString(36).slice(2)}.part`;
    let loaded = 0;
    try {
      await pipeline(
        res.body,
        async function* (src: AsyncIterable<Uint8Array>) {
          for await (const c of src) {
            loaded += c.byteLength;
            onProgress?.({ loaded, total });
            yield c;
          }
        },
        createWriteStream(tmp),
        { signal },
      );
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    return { path, bytes: loaded };
  }
}
