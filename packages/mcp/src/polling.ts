// Waiting for a video within one tool call: status reads through the client (paced as class B), one per
// the interface's interval (4.7, POLLING) and never faster, until the video leaves `running` or the call's
// bounded wait is spent. Against a sandbox started with --time-scale the interval is the interface's in
// the sandbox's time: its RateLimit-Policy states the faster clock (the rules' timeScaleOf, read from the
// pacer's schedule, as the contract suite reads it); the real service states none and is polled every
// POLLING.intervalMs of real time.
import type { Video, VideoClient } from '@videogen/client';
import { POLLING, sleep, timeScaleOf } from '@videogen/openapi/rules';

/** The interval between two status reads now: 4.7's, in the service's time. */
export async function pollIntervalMs(client: VideoClient): Promise<number> {
  const schedule = await client.schedule().catch(() => undefined);
  const scale = timeScaleOf(schedule?.classes.B.learned) ?? 1;
  return POLLING.intervalMs / scale;
}

export interface WaitOutcome {
  video: Video;
  elapsedMs: number;
  /** Status reads made. */
  checks: number;
  /** Still running when the bounded wait was spent. */
  timedOut: boolean;
}

export interface WaitOptions {
  /** The longest this call waits (real ms); it answers with the video still running after it. */
  boundMs: number;
  signal?: AbortSignal;
  /** After each read of a running video, with the wait before the next one. */
  onRunning?: (video: Video, elapsedMs: number, nextInMs: number) => Promise<void> | void;
  now?: () => number;
}

export async function waitForVideo(client: VideoClient, id: string, o: WaitOptions): Promise<WaitOutcome> {
  const now = o.now ?? Date.now;
  const started = now();
  for (let checks = 1; ; checks++) {
    const video = await client.videos.get(id, { signal: o.signal });
    const elapsedMs = now() - started;
    if (video.status !== 'running') return { video, elapsedMs, checks, timedOut: false };
    const nextInMs = await pollIntervalMs(client);
    // Never sleep past the bound: answer now, with what to call next.
    if (elapsedMs + nextInMs > o.boundMs) return { video, elapsedMs, checks, timedOut: true };
    await o.onRunning?.(video, elapsedMs, nextInMs);
    await sleep(nextInMs, o.signal);
  }
}
