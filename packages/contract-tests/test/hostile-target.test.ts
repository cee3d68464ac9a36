// @module-tag full/processes
// @module-tag node-versions
// End to end: the built bin (dist/cli.js) as a child process against a target
// whose answers never end, or inflate to 1 GiB. Before, one attempt had 60 s for headers and body
// together and each request was tried 4 times (0 of 120 checks judged after 240 s against a drip), and a
// gzip bomb was inflated whole (2.2 GB, then "Cannot create a string longer than 0x1fffffe8
// characters"). The child reports its own peak RSS (fixtures/report-rss.cjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { envForTarget } from '../src/cli/target.ts';
import { startBreakingProxy } from './breaking-proxy.ts';
import { gzipBomb } from './breaks.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Far above what a run needs (about 100-150 MB), far below what inflating the bomb took. */
const RSS_BOUND_KB = 500 * 1024;

function contract(args: string[], env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'contract-hostile-'));
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VIDEO_API_') && !k.startsWith('CONTRACT_') && !k.startsWith('VITEST'),
    ),
  );
  const rss = join(dir, 'rss');
  return new Promise<{ code: number; out: string; err: string; summary: string; maxRssKb: number }>((resolve) =>
    execFile(
      process.execPath,
      ['--require', join(root, 'test/fixtures/report-rss.cjs'), join(root, 'dist/cli.js'), ...args],
      {
        cwd: dir,
        env: { ...clean, ...env, REPORT_RSS_FILE: rss, NO_COLOR: '1' },
        timeout: 110_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        resolve({
          code: typeof err?.code === 'number' ? err.code : err ? -1 : 0,
          out: stdout,
          err: stderr,
          summary: existsSync(join(dir, 'test-results/summary.txt'))
            ? readFileSync(join(dir, 'test-results/summary.txt'), 'utf8')
            : '',
          maxRssKb: Number(readFileSync(rss, 'utf8')),
        }),
    ),
  );
}

// Each test has its own target and its own child process, which mostly wait: side by side.
describe.concurrent('videogen-contract against a hostile transport', () => {
  /** A target whose settings page (the preflight's probe) is an empty page, and every other answer drips. */
  async function drippingTarget(alsoProbe = false) {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!alsoProbe && req.url?.startsWith('/v1/video-settings/'))
        return void res.end(
          JSON.stringify({ results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 }),
        );
      res.write('{"results": [');
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }

  it('answers that drip (headers, then a byte a second): each check fails naming the stall, and the run ends', async () => {
    const target = await drippingTarget();
    try {
      const r = await contract(['listVideos', '--body-timeout', '0.5', '--time-scale', '100'], {
        VIDEO_API_BASE_URL: target.baseUrl,
        VIDEO_API_KEY: 'sk-hostile-drip-key-0001',
      });
      expect(r.code, r.out.slice(-2000)).toBe(1);
      expect(r.summary).toMatch(/Total: 0 passed, [1-9]\d* failed/);
      expect(r.summary).toMatch(/stalled: less than 1024 bytes in 0\.5 s/);
      expect(r.out + r.summary).not.toContain('sk-hostile-drip-key-0001');
      expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
    } finally {
      target.close();
    }
  });

  it('a target whose every answer drips is stopped by the preflight, in seconds, exit 2', async () => {
    const target = await drippingTarget(true);
    try {
      const r = await contract([], { VIDEO_API_BASE_URL: target.baseUrl, VIDEO_API_KEY: 'sk-hostile-drip-key-0001' });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: no answer within 10 s/);
    } finally {
      target.close();
    }
  });

  it('a gzip bomb (1 MB inflating to 1 GiB) as a 404: the check fails naming the limit, in bounded memory', async () => {
    const bomb = await gzipBomb();
    const sandbox = await startSandboxTarget(100);
    const proxy = await startBreakingProxy(sandbox.handle.origin, {
      response: (res, req) =>
        res.status === 404 && req.url.startsWith('/v1/videos/')
          ? (out) =>
              out
                .writeHead(404, {
                  'content-type': 'application/json',
                  'content-encoding': 'gzip',
                  'content-length': String(bomb.length),
                })
                .end(bomb)
          : undefined,
    });
    try {
      const env = envForTarget({ ...sandbox.config, baseUrl: proxy.baseUrl });
      const r = await contract(['getVideo.not_found_unknown_id', '--profile', 'read-only'], env);
      expect(r.code, r.out.slice(-2000)).toBe(1);
      expect(r.summary).toMatch(/FAIL {2}not_found_unknown_id/);
      expect(r.summary).toMatch(/exceeds the limit of 16777216 bytes/);
      expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });

  it('a target whose every answer is a gzip bomb is stopped by the preflight, naming the limit, in bounded memory', async () => {
    const bomb = await gzipBomb();
    const server = http.createServer((req, res) => {
      req.resume();
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        })
        .end(bomb);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const r = await contract([], { VIDEO_API_BASE_URL: baseUrl, VIDEO_API_KEY: 'sk-hostile-bomb-key-0001' });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/answered, but the answer's body exceeds the limit of 16777216 bytes/);
      expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
