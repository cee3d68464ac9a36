// @module-tag full/processes
// @module-tag node-versions
// `videogen` (the built bin, a real child process) against servers this test
// starts: a drip (headers, then a byte a second, forever), a gzip bomb (1 MB inflating to 1 GiB), a
// declared Content-Length of 10 GB. Before, a drip held `status`, `wait`, `list` forever, and the bomb or
// the huge body was read whole (2.2 GB and a crash; 3 GB and no end). The child reports its own peak RSS
// (fixtures/report-rss.cjs: process.resourceUsage().maxRSS at exit).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipBomb } from '../../../scripts/hostile/gzip-bomb.mjs';
import { assertNoSecret, CLI, cliEnv, errorLine } from './helpers.js';

const KEY = 'sk-hostile-cli-key-0001';
const ID = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';
const REPORT = fileURLToPath(new URL('./fixtures/report-rss.cjs', import.meta.url));
/** Far above what a command needs (about 60-90 MB), far below what reading these bodies whole took. */
const RSS_BOUND_KB = 400 * 1024;

// The tests run side by side (each a child process waiting on its own servers): the servers close at the end.
const closers: Array<() => void> = [];
afterAll(() => {
  for (const close of closers.splice(0)) close();
});

/** A server answering every request with `answer`. */
async function serve(answer: (res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const drip = (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"video_id": ');
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
};

/** The bin with its peak RSS reported; a hang guard only (a command here takes seconds). */
function videogen(args: string[], baseUrl: string) {
  const rss = join(mkdtempSync(join(tmpdir(), 'videogen-rss-')), 'rss');
  return new Promise<{ code: number | null; stdout: string; stderr: string; maxRssKb: number }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', REPORT, CLI, ...args], {
      env: { ...cliEnv({ key: KEY, baseUrl }), REPORT_RSS_FILE: rss },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr, maxRssKb: Number(readFileSync(rss, 'utf8')) };
      assertNoSecret(result, KEY);
      resolve(result);
    });
  });
}

describe.concurrent('an answer body that never ends', () => {
  it('status: the stall ends the command with exit 1, naming the deadline and its flag', async () => {
    const base = await serve(drip);
    const r = await videogen(['status', ID, '--body-timeout', '0.5'], base);
    expect(r.code).toBe(1);
    expect(errorLine(r.stderr)).toMatch(
      /stopped sending its answer \(the body stalled\): .*the response body stalled: less than 1 KiB in 500 ms.*raise --body-timeout SECONDS/,
    );
  });

  it('wait and list too; --json names the code (BODY_TIMEOUT), not a polling timeout', async () => {
    const base = await serve(drip);
    const w = await videogen(['wait', ID, '--body-timeout', '0.5', '--json'], base);
    expect(w.code).toBe(1);
    expect(JSON.parse(w.stdout)).toMatchObject({ error: { code: 'BODY_TIMEOUT', exit_code: 1 } });
    const l = await videogen(['list', '--body-deadline', '1', '--body-timeout', '5'], base);
    expect(l.code).toBe(1);
    expect(errorLine(l.stderr)).toMatch(/did not finish sending its answer in time: .*raise --body-deadline SECONDS/);
  });
});

describe.concurrent('an answer body too large: refused at the limit, in bounded memory', () => {
  let bomb: Buffer;
  beforeAll(async () => {
    bomb = await gzipBomb();
  });

  it('list against a 1 MB gzip body inflating to 1 GiB: exit 1, the limit named', async () => {
    const base = await serve((res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        })
        .end(bomb),
    );
    const r = await videogen(['list'], base);
    expect(r.code).toBe(1);
    expect(errorLine(r.stderr)).toMatch(
      /larger than the client accepts, so it was not read: .*exceeds the limit of 16777216 bytes/,
    );
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  });

  it('status against a declared Content-Length of 10 GB: exit 1 before a byte is read', async () => {
    const base = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1000 ** 3) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      pump();
    });
    const r = await videogen(['status', ID, '--json'], base);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'RESPONSE_TOO_LARGE', exit_code: 1 } });
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  });
});

describe.concurrent('a download: a host that stalls, a video over --max-size', () => {
  /** The API answers the status view of ID, completed, its download_url on a storage host answering `storage`. */
  async function api(storage: (res: http.ServerResponse) => void) {
    const host = await serve(storage);
    const origin = new URL(host).origin;
    return serve((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          video_id: ID,
          status: 'completed',
          download_url: `${origin}/bucket/v.mp4?X-Sig=s`,
          copyright: [],
        }),
      ),
    );
  }
  /** An MP4's first bytes (an ftyp box), then `chunk` bytes every `everyMs` for as long as the connection lasts. */
  const video = (headers: Record<string, string>, everyMs: number, chunk: number) => (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'video/mp4', ...headers });
    const ftyp = Buffer.alloc(32);
    ftyp.writeUInt32BE(32, 0);
    ftyp.write('ftyp', 4, 'latin1');
    res.write(ftyp);
    const timer = setInterval(() => res.write(Buffer.alloc(chunk)), everyMs);
    res.on('close', () => clearInterval(timer));
  };

  it('a host that drips: exit 1 after one fresh address, naming the stall and --body-timeout; no file left', async () => {
    const base = await api(video({}, 1000, 1));
    const dir = mkdtempSync(join(tmpdir(), 'videogen-dl-'));
    const r = await videogen(['download', ID, join(dir, 'v.mp4'), '--body-timeout', '0.5', '--json'], base);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'DOWNLOAD_TIMEOUT', exit_code: 1 } });
    expect(errorLine(r.stderr)).toMatch(
      /the download host stalled: less than 1 KiB in 500 ms .*raise --body-timeout SECONDS/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a video over --max-size (no Content-Length): exit 1 at the limit, nothing kept, in bounded memory', async () => {
    const base = await api(video({}, 1, 64 * 1024));
    const dir = mkdtempSync(join(tmpdir(), 'videogen-dl-'));
    const r = await videogen(['download', ID, join(dir, 'v.mp4'), '--max-size', '8MB'], base);
    expect(r.code).toBe(1);
    expect(errorLine(r.stderr)).toMatch(
      /the video exceeds 8000000 bytes \(--max-size\); nothing was kept.*raise --max-size/,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  });

  it('a declared Content-Length of 10 GB over the default 2 GiB: exit 1 before anything is written; --max-size raises it', async () => {
    const base = await api(video({ 'content-length': String(10 * 1000 ** 3) }, 1000, 1));
    const dir = mkdtempSync(join(tmpdir(), 'videogen-dl-'));
    const r = await videogen(['download', ID, join(dir, 'v.mp4')], base);
    expect(r.code).toBe(1);
    expect(errorLine(r.stderr)).toMatch(
      /declares 10000000000 bytes \(Content-Length\), over the limit of 2147483648 bytes/,
    );
    expect(readdirSync(dir)).toEqual([]);
    const raised = await videogen(
      ['download', ID, join(dir, 'v.mp4'), '--max-size', '20GB', '--body-timeout', '0.5'],
      base,
    );
    expect(errorLine(raised.stderr)).toMatch(/stalled/);
  });
});
