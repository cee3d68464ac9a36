import type { components } from '@videogen/openapi/types';
import { POLLING } from '@videogen/openapi/rules';
import type { APIPromise, WithResponse } from './api-promise.js';
import type { Clock } from './clock.js';
import { TimeoutError, UnexpectedResponseError, VideoExpiredError, VideoFailedError } from './errors.js';
import type { RequestOptions } from './transport.js';

type Video = components['schemas']['Video'];
export interface WaitOptions extends RequestOptions {
  /**
   * Between two status reads (default 10 s, x-polling; against a target whose RateLimit-Policy states it
   * runs N times faster than real time, a sandbox started with --time-scale N, 10 s / N).
   */
  intervalMs?: number;
  /**
   * The whole wait: gives up with a TimeoutError after this (default 600 s, x-polling). Here, and only
   * here, `timeoutMs` bounds the call rather than each request: a wait is many requests.
   */
  timeoutMs?: number;
  onProgress?: (video: Video, info: { elapsedMs: number }) => void;
}

/** Polls a video until it is completed (resolves), failed or expired (rejects), or the timeout. */
export async function waitForVideo(
  get: (id: string, o: RequestOptions) => APIPromise<Video>,
  clock: Clock,
  id: string,
  { intervalMs, timeoutMs = POLLING.timeoutMs, onProgress, ...o }: WaitOptions = {},
  /** The interval when none is given: the interface's, or the target's own pace (client.ts). */
  defaultIntervalMs: () => number = () => POLLING.intervalMs,
): Promise<WithResponse<Video>> {
  const start = clock.now();
  for (;;) {
    const { data: video, response } = await get(id, o).withResponse();
    const elapsedMs = clock.now() - start;
    onProgress?.(video, { elapsedMs });
    const { status } = video;
    if (status === 'completed') return { data: video, response };
    // Interface 4.7: stop on failed; DECISIONS 3: expired is terminal too.
    if (status === 'failed' || status === 'expired')
      throw new (status === 'failed' ? VideoFailedError : VideoExpiredError)(`Video ${id} ${status}`, { video });
    // A status the interface does not list (2.1) is not guessed to mean anything.
    if (status !== 'running')
      throw new UnexpectedResponseError(
        `Video ${id}: unknown status ${JSON.stringify(status)} (expected running, completed, failed or expired)`,
        { video },
      );
    if (elapsedMs >= timeoutMs)
      throw new TimeoutError(`Video ${id} still running after ${elapsedMs} ms`, {
        video,
        retryable: true,
        deadline: 'polling',
      });
    await clock.sleep(Math.min(intervalMs ?? defaultIntervalMs(), timeoutMs - elapsedMs), o.signal);
  }
}
