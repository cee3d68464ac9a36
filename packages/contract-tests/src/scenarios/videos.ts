// Sending steps around videos: polling a video until it ends, reading the head of a download, waiting
// for a free running place. They send and record; they never judge (a non-200 answer ends the step
// and is left in the record for the checks).
import { MAX_RUNNING, POLLING, UUID_PATTERN, VIDEO_STATUSES } from '@videogen/openapi/rules';
import { successBody } from '../engine/bodies.ts';
import type { Api } from '../engine/http.ts';
import type { Run } from '../engine/run.ts';
import type { Exchange } from '../shapes.ts';

/** The states a video does not leave (x-polling stops on completed and failed; expired is terminal too, DECISIONS #3). */
export const TERMINAL: readonly string[] = VIDEO_STATUSES.filter((s) => s !== 'running');

export interface Polled {
  /** The last status read: terminal, not 200, or the one at the timeout. */
  last: Exchange<'getVideo'>;
  /** Still running at the client-side timeout of x-polling (target time). */
  timedOut: boolean;
}

/** Polls GET /videos/{id}/ every POLLING.intervalMs until the video ends (target time). */
export async function pollUntilDone(run: Run, id: string, api: Api = run.main): Promise<Polled> {
  const deadline = Date.now() + POLLING.timeoutMs / run.timeScale;
  for (;;) {
    const last = await api.call('getVideo', { path: { video_id: id } });
    const status = successBody(last)?.status;
    if (!ok(last) || typeof status !== 'string' || status !== 'running') {
      if (ok(last)) run.finished.add(id);
      return { last, timedOut: false };
    }
    if (Date.now() >= deadline) return { last, timedOut: true };
    await run.sleep(POLLING.intervalMs / 1000);
  }
}

/** The first bytes of a download and its content type (a presigned URL: no key, not an API operation). */
export interface Download {
  url: string;
  status?: number;
  contentType?: string;
  /** The first 12 bytes, hex. */
  head?: string;
  error?: string;
}

export async function downloadHead(url: string): Promise<Download> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    return { url, error: (err as Error).message };
  }
  const out: Download = { url, status: res.status, contentType: res.headers.get('content-type') ?? '' };
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    return out;
  }
  // Only the first bytes matter: an MP4 starts with a box whose type at offset 4 is `ftyp`.
  const reader = res.body.getReader();
  let head = new Uint8Array(0);
  while (head.length < 12) {
    const { value, done } = await reader.read();
    if (done) break;
    const next = new Uint8Array(head.length + value.length);
    next.set(head);
    next.set(value, head.length);
    head = next;
  }
  await reader.cancel().catch(() => undefined);
  out.head = Buffer.from(head.subarray(0, 12)).toString('hex');
  return out;
}

/** Whether a downloaded head is a video: an MP4 `ftyp` box, or a `video/*` content type. */
export function isVideo(d: Download): boolean {
  const ftyp = d.head !== undefined && Buffer.from(d.head, 'hex').subarray(4, 8).toString('latin1') === 'ftyp';
  return ftyp || /^video\//i.test(d.contentType ?? '');
}

/**
 * Polls the status of `ids` (every POLLING.intervalMs, target time) until at most `most` of them run, or
 * the polling timeout passes. Ids seen not running are remembered (run.finished) and not read again.
 * Returns how many still run.
 */
export async function waitUntilRunningAtMost(run: Run, ids: string[], most: number): Promise<number> {
  const deadline = Date.now() + POLLING.timeoutMs / run.timeScale;
  for (;;) {
    let running = 0;
    for (const id of ids) {
      if (run.finished.has(id)) continue;
      const ex = await run.main.call('getVideo', { path: { video_id: id } });
      if (ok(ex) && successBody(ex)?.status === 'running') running++;
      else if (ok(ex)) run.finished.add(id);
    }
    if (running <= most || Date.now() >= deadline) return running;
    await run.sleep(POLLING.intervalMs / 1000);
  }
}

/** Waits until a video may start without a 503: fewer than MAX_RUNNING of the run's videos running. */
export async function waitForSlot(run: Run): Promise<void> {
  if (run.target.stateful) await waitUntilRunningAtMost(run, run.created, MAX_RUNNING - 1);
}

/** A success (any 2xx: the success status is our decision #2, another one is judged in the checks, not here). */
export const ok = (ex: Exchange | undefined): boolean => ex !== undefined && ex.status >= 200 && ex.status < 300;

export const idOf = (ex: Exchange | undefined): string | undefined => {
  const id = (ex?.body as { video_id?: unknown } | undefined)?.video_id;
  return ex && ex.status >= 200 && ex.status < 300 && typeof id === 'string' ? id : undefined;
};

export const UUID = UUID_PATTERN;
