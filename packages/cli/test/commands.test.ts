// @module-tag full/processes
// @module-tag node-versions
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_NAMES } from '@videogen/client';
import { cliEnv, errorLine, isMp4, run, type RunOptions } from './helpers.js';

// --timeout only ends a hang: a generation takes 0.3 s here, a loaded machine many times more.
const FAST = ['--interval', '0.05', '--timeout', '300'];
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
const as = (key: string): RunOptions => ({ key, baseUrl: sandbox.baseUrl });
const acme = () => as(SANDBOX_KEYS.acme);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 100, validateResponses: true });
  dir = mkdtempSync(join(tmpdir(), 'videogen-cli-'));
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the installed bin', () => {
  it('is the committed launcher, and it runs the built CLI', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    // Outside dist/: npm links bins at install time, before any build (a fresh clone runs npm ci first).
    expect(pkg.bin.videogen.startsWith('dist/'), 'the bin must not be a build output').toBe(false);
    const launcher = fileURLToPath(new URL(`../${pkg.bin.videogen}`, import.meta.url));
    expect(readFileSync(launcher, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const r = spawnSync(process.execPath, [launcher, 'languages'], { encoding: 'utf8', env: cliEnv({}) });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ja\s+Japanese$/m);
  });
});

describe('languages', () => {
  it('lists the 34 codes with their names, without a key', async () => {
    const r = await run(['languages']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^CODE\s+LANGUAGE$/);
    expect(lines).toHaveLength(35);
    expect(r.stdout).toMatch(/^zh-Hans\s+Chinese \(Simplified\)$/m);
  });

  it('--json gives code and name for each of the 34', async () => {
    const r = await run(['languages', '--json']);
    const list = JSON.parse(r.stdout) as { code: string; name: string }[];
    expect(list).toHaveLength(34);
    expect(list[0]).toEqual({ code: 'ja', name: 'Japanese' });
    expect(Object.fromEntries(list.map((l) => [l.code, l.name]))).toEqual(LANGUAGE_NAMES);
  });
});

describe('reading', () => {
  it('settings: a table of ids with the flags each setting expects', async () => {
    const r = await run(['settings'], acme());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(FIXTURES.acme.settings.pdf);
    expect(r.stdout).toMatch(new RegExp(`${FIXTURES.acme.settings.textPdf}\\s+--text --pdf\\s+Report from a PDF`));
  });

  it('settings --json parses', async () => {
    const r = await run(['settings', '--json'], acme());
    const settings = JSON.parse(r.stdout);
    expect(settings).toHaveLength(7);
    expect(settings[0]).toMatchObject({ video_setting_id: FIXTURES.acme.settings.text, request_fields: ['text'] });
  });

  it('list and list --all --json', async () => {
    const r = await run(['list'], acme());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^VIDEO_ID\s+CREATED_AT\s+PROMPT/);
    expect(r.stdout).toContain(FIXTURES.acme.videos.convertible);
    const all = await run(['list', '--all', '--json'], acme());
    const videos = JSON.parse(all.stdout);
    expect(videos.map((v: { video_id: string }) => v.video_id)).toContain(FIXTURES.acme.videos.failed);
    const past = await run(['list', '--page', '2', '--json'], acme());
    expect(JSON.parse(past.stdout)).toEqual([]);
  });

  it('status of a completed video shows its download URL; --json parses', async () => {
    const r = await run(['status', FIXTURES.acme.videos.convertible], acme());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^status\s+completed$/m);
    expect(r.stdout).toMatch(/^download_url\s+http/m);
    const j = await run(['status', FIXTURES.acme.videos.failed, '--json'], acme());
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ video_id: FIXTURES.acme.videos.failed, status: 'failed' });
  });
});

describe('generate → wait → download', () => {
  it('generates from a text, waits and downloads a real MP4 (--json)', async () => {
    const out = join(dir, 'text.mp4');
    const r = await run(
      [
        'generate',
        '--setting',
        FIXTURES.acme.settings.text,
        '--text',
        'Explain tides',
        '--download',
        out,
        '--json',
        ...FAST,
      ],
      acme(),
    );
    expect(r.stderr).not.toMatch(/videogen: /);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ status: 'completed', path: out });
    expect(result.bytes).toBeGreaterThan(8);
    expect(isMp4(readFileSync(out))).toBe(true);
    // Progress went to stderr as plain lines (not a TTY): the wait (a line per status while running; on a
    // busy machine the first read may already see it completed) and the download.
    expect(r.stderr).toMatch(/Waiting for video [0-9a-f-]+: |Video [0-9a-f-]+ completed in /);
    expect(r.stderr).toMatch(/Downloading .*: 100%/);
  });

  it("generates from a PDF without waiting, then wait and download ID DIR/ as separate commands (DIR/ made when missing, as the README's ./videos/)", async () => {
    const pdf = join(dir, 'deck.pdf');
    writeFileSync(pdf, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200_000, 32)]));
    const g = await run(['generate', '--setting', FIXTURES.acme.settings.pdf, '--pdf', pdf], acme());
    expect(g.code).toBe(0);
    const id = /^video_id\s+(\S+)$/m.exec(g.stdout)?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(g.stdout).toMatch(/^status\s+running$/m);
    expect(g.stderr).toMatch(/Uploading .*deck\.pdf: 100%/);

    const w = await run(['wait', id!, ...FAST], acme());
    expect(w.code).toBe(0);
    expect(w.stdout).toMatch(/^status\s+completed$/m);

    const videos = join(dir, 'videos');
    const d = await run(['download', id!, `${videos}/`, '--json'], acme());
    expect(d.code, d.stderr).toBe(0);
    const saved = JSON.parse(d.stdout);
    expect(saved.path).toBe(join(videos, `${id}.mp4`));
    expect(isMp4(readFileSync(saved.path))).toBe(true);
  });

  it('a text with images', async () => {
    const img = join(dir, 'a.png');
    writeFileSync(img, Buffer.from('89504e470d0a1a0a', 'hex'));
    const r = await run(
      [
        'generate',
        '--setting',
        FIXTURES.acme.settings.textImages,
        '--text',
        'Draw',
        '--image',
        img,
        '--image',
        img,
        '--json',
      ],
      acme(),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'running' });
  });
});

describe('convert', () => {
  it('converts a video to another language and waits (--json)', async () => {
    const src = FIXTURES.acme.videos.convertible;
    const r = await run(
      ['convert', src, '--language', 'en', '--aspect-ratio', '9:16', '--wait', '--json', ...FAST],
      acme(),
    );
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ source_video_id: src, status: 'completed' });
    expect(result.video_id).not.toBe(src);
  });

  it('a language the video does not offer: names it and lists the available ones', async () => {
    const r = await run(['convert', FIXTURES.acme.videos.limitedVoices, '--language', 'fr'], acme());
    expect(r.code).toBe(2);
    const line = errorLine(r.stderr);
    expect(line).toContain('fr (French) is not available');
    expect(line).toContain('available: en (English), ko (Korean)');
  });

  it('an unknown language code lists the supported ones', async () => {
    const r = await run(['convert', FIXTURES.acme.videos.convertible, '--language', 'xx'], acme());
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toMatch(/--language xx is not a supported language code: use one of ja, en, zh-Hans/);
  });

  it('no change, and a video that cannot be converted', async () => {
    const same = await run(['convert', FIXTURES.acme.videos.convertible, '--language', 'ja'], acme());
    expect(same.code).toBe(2);
    expect(errorLine(same.stderr)).toContain('already in ja (Japanese) and 16:9');
    const avatar = await run(['convert', FIXTURES.acme.videos.realAvatar, '--aspect-ratio', '1:1'], acme());
    expect(avatar.code).toBe(2);
    expect(errorLine(avatar.stderr)).toMatch(/cannot be converted \(.*real avatar.*\): convert another video/);
  });

  it('conversion on the Free plan → limit exit code', async () => {
    const r = await run(['convert', FIXTURES.initech.videos.convertible, '--language', 'en'], as(SANDBOX_KEYS.initech));
    expect(r.code).toBe(5);
    expect(errorLine(r.stderr)).toMatch(/Free plan/);
  });
});
