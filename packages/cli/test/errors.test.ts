// @module-tag full/processes
import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, MAGIC, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLine, run, type RunOptions } from './helpers.js';

// --timeout only ends a hang: a generation takes 0.3 s here, a loaded machine many times more.
const FAST = ['--interval', '0.05', '--timeout', '300'];
const MISSING = '00000000-0000-4000-8000-000000000000';
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let slow: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
const as = (key: string, base = sandbox.baseUrl): RunOptions => ({ key, baseUrl: base });
const acme = () => as(SANDBOX_KEYS.acme);

/** A sparse file: a large size without writing the bytes. */
function sparse(name: string, bytes: number): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}

beforeAll(async () => {
  [sandbox, slow] = await Promise.all([
    startSandbox({ port: 0, timeScale: 100, validateResponses: true }),
    // Real time: a generation takes 30 s, so a short --timeout always expires first.
    startSandbox({ port: 0, timeScale: 1 }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'videogen-cli-err-'));
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), slow?.close()]);
});

/** Each error is exactly one line on stderr, starting with "videogen: ". */
function oneLine(stderr: string): string {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('videogen: '));
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('documented errors and exit codes', () => {
  it('bad key → 3, and neither key is printed', async () => {
    const key = 'sk-not-a-real-key-0123456789';
    const r = await run(['list'], { key, baseUrl: sandbox.baseUrl });
    expect(r.code).toBe(3);
    expect(oneLine(r.stderr)).toMatch(/Authentication failed \(401 UNAUTHORIZED\): set VIDEO_API_KEY/);
    const j = await run(['status', FIXTURES.acme.videos.convertible, '--json'], { key, baseUrl: sandbox.baseUrl });
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { exit_code: 3, status: 401, code: 'UNAUTHORIZED' } });
  });

  it('missing key → 3 with how to set it', async () => {
    const r = await run(['settings'], { baseUrl: sandbox.baseUrl });
    expect(r.code).toBe(3);
    expect(oneLine(r.stderr)).toContain('VIDEO_API_KEY is not set');
  });

  it('file too large for the plan → 2, naming the file and the limit', async () => {
    const big = sparse('narration.mp3', 50_000_001);
    const r = await run(
      ['generate', '--setting', FIXTURES.globex.settings.audio, '--audio', big],
      as(SANDBOX_KEYS.globex),
    );
    expect(r.code).toBe(2);
    const line = oneLine(r.stderr);
    expect(line).toContain(big);
    expect(line).toMatch(/personal plan allows at most 50 MB/);
    expect(line).toContain('--audio');
  });

  it('too large even for Business (--plan business) → 2, naming the 180 MB limit', async () => {
    const big = sparse('huge.pdf', 180_000_001);
    const r = await run(
      ['--plan', 'business', 'generate', '--setting', FIXTURES.acme.settings.pdf, '--pdf', big],
      acme(),
    );
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/huge\.pdf is 180(\.0)? MB.*business plan allows at most 180 MB/);
  });

  it('a setting used with other fields → 2, saying which flags it expects', async () => {
    const r = await run(['generate', '--setting', FIXTURES.acme.settings.pdf, '--text', 'hello'], acme());
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/"Slides from a PDF"\) expects --pdf, but you gave --text/);
  });

  it('invalid input combinations and usage errors → 2, one line', async () => {
    const a = join(dir, 'a.mp3');
    writeFileSync(a, 'x');
    const combo = await run(['generate', '--setting', FIXTURES.acme.settings.audio, '--audio', a, '--pdf', a], acme());
    expect(combo.code).toBe(2);
    expect(oneLine(combo.stderr)).toMatch(/cannot be combined/);
    const noSetting = await run(['generate', '--text', 'x'], acme());
    expect(noSetting.code).toBe(2);
    expect(oneLine(noSetting.stderr)).toMatch(/--setting/);
    const missing = await run(
      ['generate', '--setting', FIXTURES.acme.settings.pdf, '--pdf', join(dir, 'nope.pdf')],
      acme(),
    );
    expect(missing.code).toBe(2);
    expect(oneLine(missing.stderr)).toMatch(/nope\.pdf: no such file/);
    const interval = await run(['wait', MISSING, '--interval', 'soon'], acme());
    expect(interval.code).toBe(2);
    const unknown = await run(['frobnicate'], acme());
    expect(unknown.code).toBe(2);
  });

  it('--json, before or after the command, gets a bad option value of the command as JSON too', async () => {
    // The global options are parsed before the command's own (cli.ts keeps them in the invocation).
    for (const args of [
      ['--json', 'wait', MISSING, '--interval', 'soon'],
      ['wait', MISSING, '--interval', 'soon', '--json'],
    ]) {
      const r = await run(args, acme());
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'INVALID_INPUT', exit_code: 2 } });
      expect(oneLine(r.stderr)).toMatch(/--interval must be a positive number of seconds/);
    }
    // And an argument that only looks like the option is not one: the error stays on stderr alone.
    const literal = await run(['download', MISSING, '--', '--json'], acme());
    expect(literal.code).toBe(4);
    expect(literal.stdout).toBe('');
  });

  it('failed video ([sandbox:fail]) → 6', async () => {
    const r = await run(
      ['generate', '--setting', FIXTURES.acme.settings.text, '--text', `Fail ${MAGIC.fail}`, '--wait', ...FAST],
      acme(),
    );
    expect(r.code).toBe(6);
    expect(oneLine(r.stderr)).toMatch(/failed/);
    const seeded = await run(['wait', FIXTURES.acme.videos.expired, ...FAST], acme());
    expect(seeded.code).toBe(6);
    expect(oneLine(seeded.stderr)).toMatch(/expired/);
  });

  it('timeout → 7', async () => {
    const r = await run(
      [
        'generate',
        '--setting',
        FIXTURES.acme.settings.text,
        '--text',
        'Slow one',
        '--wait',
        '--interval',
        '0.2',
        '--timeout',
        '0.5',
      ],
      as(SANDBOX_KEYS.acme, slow.baseUrl),
    );
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toMatch(/Timed out after 0.5 s waiting for video [0-9a-f-]+: .*--timeout/);
  });

  it('download of a video that is still running → 2, saying to wait', async () => {
    // Another account than the timeout test's: each may run only 2 videos at once.
    const slowGlobex = as(SANDBOX_KEYS.globex, slow.baseUrl);
    const g = await run(
      ['generate', '--setting', FIXTURES.globex.settings.text, '--text', 'Still going', '--json'],
      slowGlobex,
    );
    const { video_id } = JSON.parse(g.stdout);
    const r = await run(['download', video_id, join(dir, 'early.mp4')], slowGlobex);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toContain(`Video ${video_id} is still running`);
    expect(oneLine(r.stderr)).toContain('--wait');
  });

  it("not found → 4 (unknown id, and another account's video)", async () => {
    const r = await run(['status', MISSING], acme());
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toContain(`Video ${MISSING} was not found`);
    const other = await run(['download', FIXTURES.globex.videos.convertible, join(dir, 'x.mp4')], acme());
    expect(other.code).toBe(4);
  });

  it('a base URL without /v1 → 2, with the fix (the diagnosis the contract suite\'s preflight gives), never "check the id"', async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    const r = await run(['settings'], { key: SANDBOX_KEYS.acme, baseUrl: origin });
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(
      new RegExp(
        `^videogen: ${origin} is not the API \\(GET /video-settings/ answered 404 .*\\): is /v1 missing\\? ${origin}/v1 answers as the API: use VIDEO_API_BASE_URL=${origin}/v1$`,
      ),
    );
    const flag = await run(['--base-url', origin, 'list', '--json'], { key: SANDBOX_KEYS.acme });
    expect(flag.code).toBe(2);
    expect(JSON.parse(flag.stdout)).toMatchObject({ error: { code: 'NOT_THE_API', exit_code: 2 } });
    expect(oneLine(flag.stderr)).toMatch(new RegExp(`use --base-url ${origin}/v1$`));
  });

  it('a refused connection: each wait of a second or more said before it, then exit 1 with the shared diagnosis', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const r = await run(['list'], { key: SANDBOX_KEYS.acme, baseUrl: `http://127.0.0.1:${port}/v1` });
    expect(r.code).toBe(1);
    // At the default level, no VIDEO_API_LOG: what it waits for, before it waits.
    expect(r.stderr).toMatch(
      /^Waiting [\d.]+ s before GET \/v1\/videos\/: retry \d of 3 after no answer \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/m,
    );
    expect(oneLine(r.stderr)).toBe(
      `videogen: Cannot reach http://127.0.0.1:${port}/v1: connection refused (nothing listens on 127.0.0.1:${port}): start the service or fix VIDEO_API_BASE_URL.`,
    );
  });

  it("the README's setting id with another account's key → 2, saying that setting ids are per account", async () => {
    const r = await run(
      ['generate', '--setting', FIXTURES.acme.settings.text, '--text', 'hi'],
      as(SANDBOX_KEYS.globex),
    );
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(
      /is not one of this account's settings: setting ids are per account .*: list yours with "videogen settings"\.$/,
    );
  });

  it('out of credit → 5', async () => {
    const r = await run(
      ['generate', '--setting', FIXTURES.umbrella.settings.text, '--text', 'hi'],
      as(SANDBOX_KEYS.umbrella),
    );
    expect(r.code).toBe(5);
    expect(oneLine(r.stderr)).toMatch(/credit/i);
  });

  it('a server error → 1', async () => {
    const r = await run(['convert', FIXTURES.acme.videos.unknownError, '--language', 'en'], acme());
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toMatch(/UNKNOWN_ERROR/);
  });
});

describe('a download the download host refuses', () => {
  it('an expired URL (403 XML from another origin) → 1, naming the download host, never blaming the key', async () => {
    const { createServer } = await import('node:http');
    const listen = (s: import('node:http').Server) =>
      new Promise<number>((r) =>
        s.listen(0, '127.0.0.1', () => r((s.address() as import('node:net').AddressInfo).port)),
      );
    const storageSeen: string[] = [];
    const storage = createServer((req, res) => {
      storageSeen.push(req.url!);
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
    });
    const storagePort = await listen(storage);
    const id = FIXTURES.acme.videos.convertible;
    const api = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          video_id: id,
          status: 'completed',
          download_url: `http://127.0.0.1:${storagePort}/b/v.mp4?sig=1`,
          copyright: [],
        }),
      );
    });
    const apiPort = await listen(api);
    try {
      const key = 'sk-live-cli-download-0123456789';
      const r = await run(['download', id, join(dir, 'refused.mp4')], {
        key,
        baseUrl: `http://127.0.0.1:${apiPort}/v1`,
      });
      expect(r.code).toBe(1);
      const line = oneLine(r.stderr);
      expect(line).toMatch(
        new RegExp(`Download of video ${id} failed: the download host 127\\.0\\.0\\.1:${storagePort} answered 403`),
      );
      expect(line).not.toMatch(/VIDEO_API_KEY|Authentication|API key/i);
      expect(storageSeen).toHaveLength(2); // read fresh once
      const j = await run(['download', id, join(dir, 'refused.mp4'), '--json'], {
        key,
        baseUrl: `http://127.0.0.1:${apiPort}/v1`,
      });
      expect(j.code).toBe(1);
      expect(JSON.parse(j.stdout)).toMatchObject({ error: { exit_code: 1, status: 403, code: 'DOWNLOAD_FAILED' } });
    } finally {
      storage.close();
      api.close();
    }
  });
});

describe('--help', () => {
  const commands = ['settings', 'list', 'status', 'wait', 'download', 'generate', 'convert', 'languages'];
  it.each(commands)('%s --help documents its options and the exit codes', async (cmd) => {
    const r = await run([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: videogen ${cmd}`);
    expect(r.stdout).toContain('--json');
    expect(r.stdout).toContain('7  timed out');
  });

  it('videogen --help lists every command, the environment and the exit codes', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of commands) expect(r.stdout).toContain(cmd);
    expect(r.stdout).toContain('VIDEO_API_KEY');
    expect(r.stdout).toMatch(/Exit codes:\n\s+0\s+success/);
  });
});
