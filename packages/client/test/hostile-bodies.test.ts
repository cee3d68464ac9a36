// Issue 28, holes 1 and 2: an answer's body is bounded in time and in size. Against servers this test
// starts over loopback: a drip (headers, then a byte a second, forever), a body that moves just enough,
// a gzip bomb (1 MB that inflates to 1 GiB), a declared Content-Length of 10 GB, an endless chunked body.
// Before, `timeoutMs` covered only the headers: a drip held a call forever, and a bomb or a huge body
// was read whole into memory (2.2 GB and a crash, or 3 GB and no end). The memory cases run the built
// client alone in a child process, which reports its own peak RSS.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, DownloadError, ResponseTooLargeError, TimeoutError } from '../src/index.js';
import {
  drip,
  faultServer,
  flood,
  gzipBomb,
  gzipped,
  json,
  mp4Bytes,
  type Seen,
  type Step,
  video,
  VIDEO_ID,
} from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
async function serve(steps: Step[] | ((seen: Seen, i: number) => Step)) {
  const srv = await faultServer(steps);
  closers.push(srv.close);
  return srv;
}
const MiB = 1024 * 1024;
const SETTING = '00000000-0000-4000-8000-000000000000';

describe('a body that never ends: a typed timeout that says which deadline passed', () => {
  it('a drip (a byte a second) is a stall: TimeoutError body-idle, the GET sent again, then given up', async () => {
    const srv = await serve([drip(1000)]);
    const client = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      pacing: false,
      bodyTimeoutMs: 1500,
      maxRetries: 1,
    });
    const e = await client.videos.get(VIDEO_ID).catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ kind: 'timeout', deadline: 'body-idle', retryable: true });
    expect(e.message).toMatch(/\/videos\/.*: the response body stalled: less than 1 KiB in 1500 ms \(bodyTimeoutMs\)/);
    expect(srv.seen).toHaveLength(2);
  });

  it('a body that moves just enough (2 KiB every 300 ms, forever) meets bodyDeadlineMs: body-total', async () => {
    const srv = await serve([drip(300, 2048)]);
    const client = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      pacing: false,
      bodyDeadlineMs: 2000,
      maxRetries: 0,
    });
    const e = await client.settings.list().catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ deadline: 'body-total' });
    expect(e.message).toMatch(/the response body was not complete within 2000 ms of its headers \(bodyDeadlineMs\)/);
  });

  it('per call: RequestOptions override the client’s; client.api meets the client’s own', async () => {
    const srv = await serve([drip(1000)]);
    const client = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      pacing: false,
      maxRetries: 0,
      bodyTimeoutMs: 1300,
    });
    const e = await client.videos.get(VIDEO_ID, { bodyTimeoutMs: 1100 }).catch((x) => x);
    expect(e).toMatchObject({ name: 'TimeoutError', deadline: 'body-idle' });
    expect(e.message).toMatch(/less than 1 KiB in 1100 ms/);
    const api = await client.api
      .GET('/videos/{video_id}/', { params: { path: { video_id: VIDEO_ID } } })
      .catch((x) => x);
    expect(api).toBeInstanceOf(TimeoutError);
    expect(api.message).toMatch(/less than 1 KiB in 1300 ms/);
  });

  it('a create whose answer stalls may have made the video: looked for, never sent again', async () => {
    let posts = 0;
    const srv = await serve((s) => {
      if (s.method === 'POST') return (posts++, drip(1000));
      return json(200, { results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 });
    });
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false, bodyTimeoutMs: 1200 });
    const e = await client.videos
      .generate({ video_setting_id: SETTING, text: 'a drip' }, { setting: { request_fields: ['text'] } })
      .catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ deadline: 'body-idle', notResent: true, retryable: false });
    expect(posts).toBe(1);
    // The look: the account's list, read once it was clear the answer was lost.
    expect(srv.seen.filter((s) => s.method === 'GET').length).toBeGreaterThanOrEqual(1);
  });
});

describe('a body too large: refused at its limit, in bounded memory (the built client, alone in a child process)', () => {
  const child = fileURLToPath(new URL('./fixtures/hostile-call.mjs', import.meta.url));
  /** Runs one call in the child; resolves with what it printed. */
  const call = (baseUrl: string, name: string, options: object = {}) =>
    new Promise<{ ok?: boolean; error?: Record<string, any>; maxRssKb: number }>((resolve, reject) =>
      execFile(
        process.execPath,
        [child, baseUrl, name, VIDEO_ID, JSON.stringify({ maxRetries: 0, ...options })],
        { timeout: 100_000 },
        (err, stdout, stderr) => {
          if (err) return reject(new Error(`child: ${err.message}\n${stderr}`));
          resolve(JSON.parse(stdout));
        },
      ),
    );
  /** Far above what the client needs here (about 60-90 MB), far below what reading these bodies whole took (2-3 GB). */
  const RSS_BOUND_KB = 400 * 1024;
  let bomb: Buffer;
  beforeAll(async () => {
    bomb = await gzipBomb(1024 * MiB);
  });

  it('a 1 MB gzip body that inflates to 1 GiB: ResponseTooLargeError at 16 MiB decoded', async () => {
    expect(bomb.length).toBeLessThan(2 * MiB);
    const srv = await serve([gzipped(bomb)]);
    const r = await call(srv.baseUrl, 'list');
    expect(r.error).toMatchObject({
      name: 'ResponseTooLargeError',
      kind: 'response_too_large',
      limit: 16 * MiB,
      retryable: false,
    });
    expect(r.error!.message).toMatch(
      /GET .*\/videos\/\?page=\[redacted\]: the response body exceeds the limit of 16777216 bytes \(maxBodyBytes\), decoded/,
    );
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  });

  it('a declared Content-Length of 10 GB: refused before a byte is read', async () => {
    const srv = await serve([flood({ 'content-type': 'application/json', 'content-length': String(10 * 1000 ** 3) })]);
    const r = await call(srv.baseUrl, 'get');
    expect(r.error).toMatchObject({ name: 'ResponseTooLargeError', limit: 16 * MiB });
    expect(r.error!.message).toMatch(/declares 10000000000 bytes, over the limit of 16777216 bytes/);
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  });

  it('an endless chunked body (no Content-Length), through client.api too: stopped at maxBodyBytes', async () => {
    const srv = await serve([flood({ 'content-type': 'application/json' })]);
    const r = await call(srv.baseUrl, 'api', { maxBodyBytes: 4 * MiB });
    expect(r.error).toMatchObject({ name: 'ResponseTooLargeError', limit: 4 * MiB });
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  });

  it('in process: the typed error, and a GET not sent again (the same answer would come back)', async () => {
    const srv = await serve([flood({ 'content-type': 'application/json' })]);
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, pacing: false, maxBodyBytes: MiB });
    const e = await client.videos.get(VIDEO_ID).catch((x) => x);
    expect(e).toBeInstanceOf(ResponseTooLargeError);
    expect(srv.seen).toHaveLength(1);
  });
});

describe('a download: a stall, a deadline, a ceiling the caller can raise (hole 1 and 2 on the download host)', () => {
  /** An API whose video is completed, its download_url on a storage host playing `storage`. */
  async function setup(storage: Step[], options: Parameters<typeof createClient>[0] = {}) {
    const host = await serve(storage);
    const api = await serve(() =>
      json(200, video('completed', { download_url: `${host.origin}/bucket/v.mp4?X-Sig=s` })),
    );
    const client = createClient({ apiKey: 'k', baseUrl: api.baseUrl, pacing: false, ...options });
    return { host, client, dir: mkdtempSync('/tmp/vg-hostile-dl-') };
  }
  /** A real MP4's first bytes, then `chunk` bytes every `everyMs`, forever. */
  const dripVideo =
    (everyMs: number, chunk = 1): Step =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(mp4Bytes(32));
      const timer = setInterval(() => res.write(Buffer.alloc(chunk)), everyMs);
      res.on('close', () => clearInterval(timer));
    };

  it('a host that drips: DownloadError BODY_TIMEOUT after one fresh address, no file left', async () => {
    const { host, client, dir } = await setup([dripVideo(1000)], { bodyTimeoutMs: 1200 });
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
    expect(e).toBeInstanceOf(DownloadError);
    expect(e).toMatchObject({ error_code: 'BODY_TIMEOUT', retryable: true });
    expect(e.message).toMatch(
      /the download host stalled: less than 1 KiB in 1200 ms \(bodyTimeoutMs\) after \d+ of \? bytes/,
    );
    expect(host.seen).toHaveLength(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a host that moves (8 KiB every 100 ms, forever): no stall, and the download’s own bodyDeadlineMs ends it', async () => {
    const { client, dir } = await setup([dripVideo(100, 8192)]);
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`, { bodyDeadlineMs: 1500 }).catch((x) => x);
    expect(e).toMatchObject({ name: 'DownloadError', error_code: 'BODY_TIMEOUT' });
    expect(e.message).toMatch(/did not finish within 1500 ms \(bodyDeadlineMs\)/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a declared Content-Length over maxBytes: TOO_LARGE before anything is written, not read afresh', async () => {
    const { host, client, dir } = await setup([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(10 * 1000 ** 3) });
        res.write(mp4Bytes(64));
      },
    ]);
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
    expect(e).toMatchObject({ name: 'DownloadError', error_code: 'TOO_LARGE', limit: 2 * 1024 ** 3, retryable: false });
    expect(e.message).toMatch(/declares 10000000000 bytes \(Content-Length\), over the limit of 2147483648 bytes/);
    expect(host.seen).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
    // The caller can raise it: the same host, a ceiling above its length, and the download goes on (stopped here by a deadline).
    const raised = await client
      .download(VIDEO_ID, `${dir}/v.mp4`, { maxBytes: 20 * 1000 ** 3, bodyTimeoutMs: 500 })
      .catch((x) => x);
    expect(raised).toMatchObject({ error_code: 'BODY_TIMEOUT' });
  });

  it('no Content-Length, or one that says nothing of the decoded size (gzip): counted as it arrives, stopped at maxBytes', async () => {
    const bomb = await gzipBomb(256 * MiB, { head: mp4Bytes(32), fill: 0 });
    for (const step of [
      // A video's first bytes, then zeros as fast as they are taken, chunked (no Content-Length).
      flood({ 'content-type': 'video/mp4' }, Infinity, 0, mp4Bytes(32)),
      ((_req, res) =>
        res
          .writeHead(200, {
            'content-type': 'video/mp4',
            'content-encoding': 'gzip',
            'content-length': String(bomb.length),
          })
          .end(bomb)) as Step,
    ]) {
      const { client, dir } = await setup([step], { maxDownloadBytes: 16 * MiB });
      const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
      expect(e).toMatchObject({ name: 'DownloadError', error_code: 'TOO_LARGE', limit: 16 * MiB, retryable: false });
      expect(e.message).toMatch(/the video exceeds 16777216 bytes \(maxBytes\); nothing was kept/);
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
