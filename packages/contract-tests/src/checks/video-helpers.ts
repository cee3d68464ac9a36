// Shared steps of the stateful checks: polling a video, downloading it, ids.
import { MAX_RUNNING, POLLING } from '@videogen/openapi/rules';
import { ensure, ensureStatus, type CheckContext } from './types.ts';
import type { Api } from '../http.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const TERMINAL = ['completed', 'failed', 'expired'];

/** Poll GET /videos/{id}/ as the spec's x-polling says (10 s, 600 s timeout), in target time. */
export async function pollUntilDone(ctx: CheckContext, id: string, api: Api = ctx.main): Promise<any> {
  const polling = ctx.run.contract.operations.find((o) => o.operationId === 'getVideo')?.operation['x-polling'] ?? {};
  const interval = polling.interval_seconds ?? POLLING.intervalMs / 1000;
  const timeout = polling.timeout_seconds ?? POLLING.timeoutMs / 1000;
  const deadline = Date.now() + (timeout * 1000) / ctx.run.timeScale;
  for (;;) {
    const ex = await api.get(`/videos/${id}/`);
    const body = ensureStatus(ex, 200, `polling video ${id}`);
    if (TERMINAL.includes(body.status)) return { ex, body };
    ensure(body.status === 'running', `status ${body.status} is not a documented state`, ex);
    ensure(Date.now() < deadline, `video ${id} still running after the client-side timeout of ${timeout} s (target time)`, ex);
    await ctx.run.sleep(interval);
  }
}

/** Fetch a download URL (presigned: no key) and check that it is a video. */
export async function ensureDownloads(url: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw new Error(`download_url ${url} could not be fetched: ${(err as Error).message}`);
  }
  ensure(res.ok, `download_url ${url} answered ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  // Only the first bytes matter: an MP4 starts with a box whose type at offset 4 is `ftyp`.
  const reader = res.body!.getReader();
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
  const ftyp = Buffer.from(head.subarray(4, 8)).toString('latin1') === 'ftyp';
  ensure(ftyp || /^video\//i.test(type), `download_url ${url} is not a video (content-type "${type}", no MP4 ftyp box)`);
}

/** The concurrency limit the spec states for generateVideo (x-concurrency-limit). */
export function maxRunning(ctx: CheckContext): number {
  const generate = ctx.run.contract.operations.find((o) => o.operationId === 'generateVideo')?.operation;
  return generate?.['x-concurrency-limit']?.max_running ?? MAX_RUNNING;
}

/**
 * Polls the status of `ids` (as x-polling says, in target time) until at most `most` of them are
 * running. Past the x-polling timeout it fails the check, or with `carryOn` returns, leaving the
 * judgement to what follows. Ids seen not running are remembered (run.finished) and not read again.
 */
export async function waitUntilRunningAtMost(ctx: CheckContext, ids: string[], most: number, { carryOn = false } = {}): Promise<void> {
  const { run } = ctx;
  const polling = run.contract.operations.find((o) => o.operationId === 'getVideo')?.operation['x-polling'] ?? {};
  const timeout = polling.timeout_seconds ?? POLLING.timeoutMs / 1000;
  const deadline = Date.now() + (timeout * 1000) / run.timeScale;
  for (;;) {
    let running = 0;
    for (const id of ids) {
      if (run.finished.has(id)) continue;
      const ex = await ctx.main.get(`/videos/${id}/`);
      if (ex.status === 200 && (ex.body as any)?.status === 'running') running++;
      else run.finished.add(id);
    }
    if (running <= most) return;
    if (carryOn && Date.now() >= deadline) return;
    ensure(Date.now() < deadline, `${running} videos still running after the client-side timeout of ${timeout} s (target time)`);
    await run.sleep(polling.interval_seconds ?? POLLING.intervalMs / 1000);
  }
}

/**
 * Wait until at most `max_running − free` of the videos this run created are running, so that the
 * next generation or conversion is not answered 503. Paced like every other read.
 */
export async function waitForSlot(ctx: CheckContext, free = 1): Promise<void> {
  if (!ctx.run.target.stateful) return;
  await waitUntilRunningAtMost(ctx, ctx.run.created, maxRunning(ctx) - free);
}
