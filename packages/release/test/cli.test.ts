// @module-tag full/packed
// @videogen/cli installed from its tarball in a fresh project, against a sandbox installed from its own:
// `npx videogen --version`, then `videogen settings` and `videogen generate … --wait --download` as the README
// shows them, run from node_modules/.bin as npm scripts run them (npx's own start checked once is enough).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentVersion } from '../lib/versions.mjs';
import { installedBin, run, show, startSandboxBin, type SandboxProcess } from './helpers.ts';

const { projects } = inject('release');
const dir = projects['@videogen/cli']!;
const TEXT_SETTING = '5e77a000-0000-4000-8000-000000000001'; // the sandbox's documented fixture (acme, text)
let sandbox: SandboxProcess;
let env: Record<string, string>;
/** `videogen` as installed; `npx videogen` itself is run once, by the --version test. */
const videogen = () => installedBin(dir, 'videogen');

beforeAll(async () => {
  sandbox = await startSandboxBin(projects['@videogen/sandbox']!, ['--time-scale', '60', '--quiet']);
  env = { VIDEO_API_BASE_URL: sandbox.baseUrl, VIDEO_API_KEY: 'sandbox-key-acme' };
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('videogen (npx videogen, then the installed bin)', () => {
  it('npx videogen --version is the installed version', async () => {
    const r = await run('npx', ['videogen', '--version'], { cwd: dir });
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout.trim()).toBe(documentVersion());
  });

  it("settings lists the account's settings with the inputs each takes", async () => {
    const r = await run(videogen(), ['settings'], { cwd: dir, env });
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`${TEXT_SETTING}\\s+--text\\s`));
    expect(
      r.stdout
        .trim()
        .split('\n')
        .filter((l) => /^[0-9a-f]{8}-/.test(l)),
    ).toHaveLength(7);
    expect(r.stdout + r.stderr).not.toContain('sandbox-key-acme');
  });

  it('generate --wait --download writes the MP4', async () => {
    const r = await run(
      videogen(),
      [
        'generate',
        '--setting',
        TEXT_SETTING,
        '--text',
        'Explain tides',
        '--interval',
        '1',
        '--wait',
        '--download',
        'tides.mp4',
      ],
      { cwd: dir, env },
    );
    expect(r.code, show(r)).toBe(0);
    const bytes = readFileSync(join(dir, 'tides.mp4'));
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(r.stdout).toMatch(/completed/);
  });

  it('fails with a one-line message and the documented exit code for an unknown video', async () => {
    const r = await run(videogen(), ['status', '00000000-0000-4000-8000-000000000000'], { cwd: dir, env });
    expect(r.code, show(r)).toBe(4);
    expect(r.stderr).toMatch(/^videogen: /m);
  });

  it('relay --failed reads a relay state the installed @videogen/relay keeps (none yet: nothing dead-lettered)', async () => {
    const r = await run(videogen(), ['relay', '--failed', '--state', join(dir, 'relay-state.json')], {
      cwd: dir,
      env,
    });
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout).toMatch(/^No dead-lettered event/);
  });
});
