// @module-tag full/packed
// @videogen/sandbox installed from its tarball in a fresh project: `npx videogen-sandbox` serves the
// API on a free port with the documented keys and fixtures.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installedBin, run, show, startSandboxBin, type SandboxProcess } from './helpers.ts';

const { projects } = inject('release');
const dir = projects['@videogen/sandbox']!;
let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandboxBin(dir, ['--time-scale', '60'], { via: 'npx' });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('npx videogen-sandbox --port 0 --time-scale 60', () => {
  it('prints where it listens, its time scale and the API keys', async () => {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    // The rest of the banner follows the base URL line.
    await expect.poll(() => sandbox.output(), { timeout: 60_000 }).toMatch(/sandbox-key-acme\s+acme\s+business/);
    expect(sandbox.output()).toMatch(/time scale 60/);
  });

  it('answers with the seeded settings for a documented key, and with the error envelope without one', async () => {
    const ok = await fetch(`${sandbox.baseUrl}/video-settings/`, {
      headers: { Authorization: 'Bearer sandbox-key-acme' },
    });
    expect(ok.status).toBe(200);
    const page = (await ok.json()) as { results: unknown[] };
    expect(page).toMatchObject({ page: 1, items_per_page: 50, has_next: false });
    expect(page.results).toHaveLength(7);
    const anonymous = await fetch(`${sandbox.baseUrl}/videos/`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error_code: expect.any(String), error: expect.any(String) });
  });

  it('documents its flags (--help)', async () => {
    // The installed bin itself: the server above was started through npx.
    const r = await run(installedBin(dir, 'videogen-sandbox'), ['--help'], { cwd: dir });
    expect(r.code, show(r)).toBe(0);
    for (const flag of ['--port', '--host', '--time-scale', '--data-dir']) expect(r.stdout).toContain(flag);
  });
});
