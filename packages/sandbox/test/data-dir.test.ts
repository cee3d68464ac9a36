// @module-tag full/processes
// --data-dir: one sandbox per directory (a second one refuses and names the first; a kill -9'd holder
// does not leave it stuck), every acknowledged video survives kill -9, and a state.json of the JSON era
// is imported. The sandboxes that get killed run the real CLI in their own process.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '../src/index.js';
import { call, form, WAIT_MS } from './helpers.js';
import { streamedUpload } from '../bench/streamed-upload.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
  dirs.push(d);
  return d;
};

beforeAll(() => {
  if (!existsSync(`${pkg}/dist/cli.js`)) execFileSync('npx', ['tsup'], { cwd: pkg, stdio: 'ignore' });
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The CLI in its own process on `dir`; resolves once it listens. */
async function cliSandbox(dir: string, timeScale = 100000): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(
    process.execPath,
    [
      'dist/cli.js',
      '--port',
      '0',
      '--data-dir',
      dir,
      '--time-scale',
      String(timeScale),
      '--no-rate-limits',
      '--no-validate',
      '--quiet',
    ],
    {
      cwd: pkg,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + WAIT_MS;
  while (!/base URL\s+\S+/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`sandbox CLI did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, baseUrl: /base URL\s+(\S+)/.exec(out)![1] };
}

const killed = (child: ChildProcess) =>
  new Promise((r) =>
    child.exitCode !== null || child.signalCode ? r(null) : (child.once('exit', r), child.kill('SIGKILL')),
  );
const textSetting = FIXTURES.acme.settings.text;

describe('one sandbox per data dir', () => {
  it('a second sandbox refuses to start and names the first (another process, then this one)', async () => {
    const dir = tempDir();
    const other = await cliSandbox(dir);
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(
      new RegExp(`in use by another sandbox \\(pid ${other.child.pid} `),
    );
    await killed(other.child);
    // kill -9 left its lock behind: stale, taken over
    const first = await startSandbox({ port: 0, dataDir: dir });
    try {
      await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(new RegExp(`pid ${process.pid} `));
    } finally {
      await first.close();
    }
    // released on close
    const again = await startSandbox({ port: 0, dataDir: dir });
    await again.close();
  });
});

describe('durability', () => {
  it('every create acknowledged before a kill -9 is there after the restart', async () => {
    const dir = tempDir();
    const { child, baseUrl } = await cliSandbox(dir);
    const acked: string[] = [];
    let stop = false;
    const loop = async () => {
      while (!stop) {
        try {
          const fd = new FormData();
          fd.append('video_setting_id', textSetting);
          fd.append('text', `kept ${acked.length}`);
          const res = await fetch(`${baseUrl}/videos/generate/`, {
            method: 'POST',
            headers: { authorization: `Bearer ${SANDBOX_KEYS.acme}` },
            body: fd,
          });
          const body = (await res.json()) as { video_id?: string };
          if (res.status === 200 && body.video_id) acked.push(body.video_id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    // Until 150 creations are acknowledged, or every writer has stopped (the server went away early:
    // then the count below fails the test instead of waiting for its timeout).
    let writersDone = false;
    void Promise.all(loops).then(() => (writersDone = true));
    while (acked.length < 150 && !writersDone) await new Promise((r) => setTimeout(r, 10));
    expect(acked.length).toBeGreaterThanOrEqual(150);
    await killed(child); // mid-stream: creates are in flight
    stop = true;
    await Promise.all(loops);

    const sb = await startSandbox({ port: 0, dataDir: dir, rateLimits: false });
    try {
      const missing: string[] = [];
      for (const id of acked)
        if ((await call(sb, 'GET', `/videos/${id}/`, { key: SANDBOX_KEYS.acme })).status !== 200) missing.push(id);
      expect({ acked: acked.length, missing }).toEqual({ acked: acked.length, missing: [] });
      expect((await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.acme })).body.total_count).toBeGreaterThanOrEqual(
        acked.length + 7,
      );
    } finally {
      await sb.close();
    }
  });

  it('imports a state.json of the JSON era once', async () => {
    const dir = tempDir();
    const id = '0b5e7e00-0000-4000-8000-000000000001';
    const video = {
      video_id: id,
      account: 'acme',
      created_at: Date.UTC(2026, 5, 1),
      prompt: 'from the JSON era',
      finishes_at: Date.UTC(2026, 5, 1, 0, 0, 30),
      outcome: 'completed',
      expires_at: null,
      language: 'en',
      aspect_ratio: '16:9',
      voices: 'all',
      has_video_data: true,
      real_avatar: false,
      copyright: [],
    };
    writeFileSync(
      join(dir, 'state.json'),
      JSON.stringify({ version: 1, signing_secret: 'f'.repeat(64), credits: { acme: 42 }, videos: [video] }),
    );
    const sb = await startSandbox({ port: 0, dataDir: dir, rateLimits: false });
    try {
      expect((await call(sb, 'GET', `/videos/${id}/`, { key: SANDBOX_KEYS.acme })).body.status).toBe('completed');
      expect(existsSync(join(dir, 'state.json.migrated'))).toBe(true);
      expect(existsSync(join(dir, 'state.json'))).toBe(false);
    } finally {
      await sb.close();
    }
  });
});

describe('the clock', () => {
  const DAYS_61 = 61 * 86400;
  const api = (baseUrl: string, method: string, path: string, key: string, body?: unknown) =>
    fetch(path.startsWith('/_sandbox') ? new URL(path, baseUrl).href : baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }));
  const generate = (baseUrl: string) => {
    const fd = new FormData();
    fd.append('video_setting_id', textSetting);
    fd.append('text', 'made in advanced time');
    return fetch(`${baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.acme}` },
      body: fd,
    }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }));
  };

  it('an advance acknowledged by /_sandbox/clock/advance survives kill -9 and a restart; a reset, too', async () => {
    const dir = tempDir();
    // Real time (scale 1): a generation takes 30 s, so only the advanced clock can finish it.
    const first = await cliSandbox(dir, 1);
    const advanced = await api(first.baseUrl, 'POST', '/_sandbox/clock/advance', SANDBOX_KEYS.acme, {
      seconds: DAYS_61,
    });
    expect(advanced.body.advanced_seconds).toBe(DAYS_61);
    const made = [await generate(first.baseUrl), await generate(first.baseUrl)];
    expect(made.map((m) => m.status)).toEqual([200, 200]);
    await api(first.baseUrl, 'POST', '/_sandbox/clock/advance', SANDBOX_KEYS.acme, { seconds: 60 });
    for (const m of made)
      expect((await api(first.baseUrl, 'GET', `/videos/${m.body.video_id}/`, SANDBOX_KEYS.acme)).body.status).toBe(
        'completed',
      );
    await killed(first.child);

    const second = await cliSandbox(dir, 1);
    const clock = await api(second.baseUrl, 'GET', '/_sandbox/clock', SANDBOX_KEYS.acme);
    expect(clock.body.advanced_seconds).toBeGreaterThanOrEqual(DAYS_61 + 60);
    // Before: both were running again (their end lay 61 days ahead of the wall clock) ...
    for (const m of made)
      expect((await api(second.baseUrl, 'GET', `/videos/${m.body.video_id}/`, SANDBOX_KEYS.acme)).body.status).toBe(
        'completed',
      );
    // ... and the next generation met the concurrency limit with a Retry-After of 61 days.
    const next = await generate(second.baseUrl);
    expect({ status: next.status, retryAfter: next.headers.get('retry-after') }).toEqual({
      status: 200,
      retryAfter: null,
    });
    // The advance was the account's own: another account's time did not move.
    expect((await api(second.baseUrl, 'GET', '/_sandbox/clock', SANDBOX_KEYS.globex)).body.advanced_seconds).toBe(0);
    // A reset takes the account's own advance back, and that is kept too.
    await api(second.baseUrl, 'POST', '/_sandbox/reset', SANDBOX_KEYS.acme);
    await killed(second.child);
    const third = await cliSandbox(dir, 1);
    try {
      expect((await api(third.baseUrl, 'GET', '/_sandbox/clock', SANDBOX_KEYS.acme)).body.advanced_seconds).toBe(0);
    } finally {
      await killed(third.child);
    }
  });

  it('the shared advance of sb.clock survives a close and a restart (createSandbox with a data dir)', async () => {
    const dir = tempDir();
    const first = await startSandbox({ port: 0, dataDir: dir, rateLimits: false });
    first.clock.advance(DAYS_61);
    const id = (await generate(first.baseUrl)).body.video_id;
    first.clock.advance(60);
    await first.close();
    const second = await startSandbox({ port: 0, dataDir: dir, rateLimits: false });
    try {
      expect(second.clock.read(SANDBOX_KEYS.acme).advanced_seconds).toBeGreaterThanOrEqual(DAYS_61 + 60);
      expect((await call(second, 'GET', `/videos/${id}/`, { key: SANDBOX_KEYS.acme })).body.status).toBe('completed');
    } finally {
      await second.close();
    }
  });

  it('without a data dir, a new sandbox starts from the wall clock', async () => {
    const first = await startSandbox({ port: 0 });
    first.clock.advance(DAYS_61);
    await first.close();
    const second = await startSandbox({ port: 0 });
    try {
      expect(second.clock.read(SANDBOX_KEYS.acme).advanced_seconds).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('text limit', () => {
  it('a text of 100,000 bytes is accepted, one byte more is 400', async () => {
    const sb = await startSandbox({ port: 0, rateLimits: false, validateResponses: true, timeScale: 100000 });
    try {
      const ok = await call(sb, 'POST', '/videos/generate/', {
        key: SANDBOX_KEYS.acme,
        form: form({ video_setting_id: textSetting, text: 'é'.repeat(50_000) }),
      });
      expect(ok.status).toBe(200);
      const long = await call(sb, 'POST', '/videos/generate/', {
        key: SANDBOX_KEYS.acme,
        form: form({ video_setting_id: textSetting, text: 'x'.repeat(100_001) }),
      });
      expect({ status: long.status, code: long.body.error_code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
      expect(long.body.error).toContain('100000');
      // 50 MB of text is refused while it streams: the answer comes long before the end, nothing is buffered whole
      const big = await streamedUpload({
        baseUrl: sb.baseUrl,
        key: SANDBOX_KEYS.acme,
        setting: textSetting,
        field: 'text',
        filename: null,
        total: 50_000_000,
        chunkBytes: 64 * 1024,
      });
      expect(big.status).toBe(400);
      expect(big.sentWhenAnswered).toBeLessThan(10_000_000);
      expect(sb.violations).toEqual([]);
    } finally {
      await sb.close();
    }
  });
});
