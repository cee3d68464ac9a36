import type { components } from './generated/openapi.js';
import { POLLING } from '@videogen/openapi/rules';
import type { Clock } from './clock.js';
import { TimeoutError, UnexpectedResponseError, VideoExpiredError, VideoFailedError } from './errors.js';

type Video = components['schemas']['Video'];
export interface WaitOptions {
  /** Between two status reads (default 10 s, x-polling). */
  intervalMs?: number;
  /** Gives up with a TimeoutError after this (default 600 s, x-polling). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (video: Video, info: { elapsedMs: number }) => void;
}

/** Polls a video until it is completed (resolves), failed or expired (rejects), or the timeout. */
export async function waitForVideo(
  get: (id: string, o: { signal?: AbortSignal }) => Promise<Video>,
  clock: Clock,
  id: string,
  { intervalMs = POLLING.intervalMs, timeoutMs = POLLING.timeoutMs, signal, onProgress }: WaitOptions = {},
): Promise<Video> {
  const start = clock.now();
  for (;;) {
    const video = await get(id, { signal });
    const elapsedMs = clock.now() - start;
    onProgress?.(video, { elapsedMs });
    const { status } = video;
    if (status == 'completed') return video;
    // Interface 4.7: stop on failed; DECISIONS 3: expired is terminal too.
    if (status == 'failed' || status == 'expired') throw new (status == 'failed' ? VideoFailedError : VideoExpiredError)(`Video ${id} ${status}`, { video });
    // A status the interface does not list (2.1) is not guessed to mean anything.
    if (status != 'running') throw new UnexpectedResponseError(`Video ${id}: unknown status ${JSON.stringify(status)} (expected running, completed, failed or expired)`, { video });
    if (elapsedMs >= timeoutMs) throw new TimeoutError(`Video ${id} still running after ${elapsedMs} ms`, { video, retryable: true });
    await clock.sleep(Math.min(intervalMs, timeoutMs - elapsedMs), signal);
  }
}
