// @module-tag full/processes
// @module-tag node-versions
import { spawn } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoSecret, CLI, cliEnv, isMp4, run } from './helpers.js';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
let deck: string;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Run the CLI inside a pseudo-terminal with util-linux `script`, so stdout and stderr are TTYs. */
function runInPty(
  args: string[],
  env: Record<string, string>,
  size = true,
): Promise<{ code: number | null; output: string }> {
  // A pty made by `script` without a terminal around it is 0×0: size it as a person's terminal would be.
  const command = `${size ? 'stty cols 120 rows 40; ' : ''}${[process.execPath, CLI, ...args].map(shellQuote).join(' ')}`;
  return new Promise((resolve, reject) => {
    // -q quiet, -f flush each write, -e pass on the child's exit code, -c the command; no log file.
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 480_000); // a hang guard, not a measure
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 100 });
  dir = mkdtempSync(join(tmpdir(), 'videogen-cli-tty-'));
  // 30 MB (sparse): enough chunks for the upload bar to redraw several times.
  deck = join(dir, 'deck.pdf');
  const fd = openSync(deck, 'w');
  ftruncateSync(fd, 30_000_000);
  closeSync(fd);
});
afterAll(async () => {
  await sandbox?.close();
});

const args = (out: string) => [
  'generate',
  '--setting',
  FIXTURES.acme.settings.pdf,
  '--pdf',
  deck,
  '--download',
  out,
  '--interval',
  '0.05',
  '--timeout',
  '300',
];

describe('progress display', () => {
  it('in a terminal: redrawn upload bar, spinner with elapsed time and status, download bar', async () => {
    const out = join(dir, 'tty.mp4');
    const env = cliEnv({ key: SANDBOX_KEYS.acme, baseUrl: sandbox.baseUrl });
    const r = await runInPty(args(out), env);
    assertNoSecret({ stdout: r.output, stderr: '' }, SANDBOX_KEYS.acme);
    expect(r.code, r.output).toBe(0);
    expect(isMp4(readFileSync(out))).toBe(true);
    // Frames redraw in place: cursor moves / carriage returns, not one line per update.
    expect(r.output).toMatch(/\r|\x1b\[\d*G/);
    expect(r.output).toMatch(/Uploading .*deck\.pdf .*\d+% \| [\d.]+ [kMG]?B\/30\.0 MB \| [\d.]+ [kMG]?B\/s/);
    expect(r.output).toContain('100%');
    expect(r.output).toMatch(/Waiting for video [0-9a-f-]+: (starting|running) · [\d.]+s elapsed/);
    expect(r.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(r.output).toMatch(/Downloading .*tty\.mp4 .*100%/);
    expect(r.output).toMatch(/completed in [\d.]+s/);
  });

  it('in a terminal that reports no size: plain lines rather than a broken redraw', async () => {
    const out = join(dir, 'unsized.mp4');
    const r = await runInPty(args(out), cliEnv({ key: SANDBOX_KEYS.acme, baseUrl: sandbox.baseUrl }), false);
    expect(r.code, r.output).toBe(0);
    expect(r.output).not.toMatch(/\x1b\[\d*G/);
    expect(r.output).toMatch(/^Uploading .*deck\.pdf: 100%/m);
  });

  it('not in a terminal: plain lines on stderr, results alone on stdout', async () => {
    const out = join(dir, 'plain.mp4');
    const r = await run(args(out), { key: SANDBOX_KEYS.acme, baseUrl: sandbox.baseUrl });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/\r|\x1b\[/);
    expect(r.stderr).toMatch(
      /^Uploading .*deck\.pdf: \d+% \([\d.]+ [kMG]?B of 30\.0 MB, [\d.]+ [kMG]?B\/s(, [\d.]+s left)?\)$/m,
    );
    expect(r.stderr).toMatch(/^Uploading .*deck\.pdf: 100% \(30\.0 MB in [\d.]+s\)$/m);
    expect(r.stderr).toMatch(/^Waiting for video [0-9a-f-]+: running \([\d.]+s elapsed\)$/m);
    expect(r.stderr).toMatch(/^Downloading .*plain\.mp4: 100%/m);
    expect(r.stdout).toMatch(/^video_id\s+[0-9a-f-]{36}\nstatus\s+completed\n/);
    expect(r.stdout).not.toMatch(/Uploading|Waiting|Downloading/);
  });
});
