// @module-tag full/packed
// @videogen/contract-tests installed from its tarball in a fresh project: `npx videogen-contract` against
// a sandbox installed from its own (`npx videogen-sandbox --port 0 --time-scale 60`), with the stated
// interface only: VIDEO_API_BASE_URL, VIDEO_API_KEY (and the other account's key), CONTRACT_PROFILE;
// exit 0 with checks passed. Its own file: the suite's bin is being rebuilt on another branch.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installedBin, run, show, startSandboxBin, type SandboxProcess } from './helpers.ts';

const { projects } = inject('release');
const dir = projects['@videogen/contract-tests']!;
let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandboxBin(projects['@videogen/sandbox']!, ['--time-scale', '60', '--quiet']);
});
afterAll(async () => {
  await sandbox?.stop();
});

/** The closing counts, "N passed, N failed" (the last such line: per-operation lines come before it). */
function totals(output: string) {
  const m = [...output.matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
  if (!m) throw new Error(`no "N passed, N failed" line in the suite's output:\n${output.slice(-4000)}`);
  return { passed: Number(m[1]), failed: Number(m[2]) };
}

/** The stated interface only: the target, both accounts' keys, the profile. */
const env = (profile: string) => ({
  VIDEO_API_BASE_URL: sandbox.baseUrl,
  VIDEO_API_KEY: 'sandbox-key-acme',
  VIDEO_API_OTHER_ACCOUNT_KEY: 'sandbox-key-globex',
  CONTRACT_PROFILE: profile,
});

// `npx videogen-contract` as documented for the first run; the others run the installed bin (npx's own
// start, about a second of CPU, checked once is enough).
describe.each([
  ['read-only', 'npx'],
  ['full', 'bin'],
])('videogen-contract, CONTRACT_PROFILE=%s (through %s)', (profile, via) => {
  it('exits 0 with checks passed and none failed', async () => {
    const r = await (via === 'npx'
      ? run('npx', ['videogen-contract'], { cwd: dir, env: env(profile) })
      : run(installedBin(dir, 'videogen-contract'), [], { cwd: dir, env: env(profile) }));
    expect(r.code, show(r)).toBe(0);
    const { passed, failed } = totals(r.stdout);
    expect(failed).toBe(0);
    expect(passed).toBeGreaterThan(profile === 'full' ? 60 : 20);
    expect(r.stdout + r.stderr).not.toContain('sandbox-key-acme');
  });
});

describe('videogen-contract --base-url URL', () => {
  it('takes the target from the flag as from VIDEO_API_BASE_URL (read-only profile, the default against a URL)', async () => {
    const r = await run(installedBin(dir, 'videogen-contract'), ['--base-url', sandbox.baseUrl], {
      cwd: dir,
      env: {
        VIDEO_API_BASE_URL: undefined,
        VIDEO_API_KEY: 'sandbox-key-acme',
        VIDEO_API_OTHER_ACCOUNT_KEY: 'sandbox-key-globex',
        CONTRACT_PROFILE: undefined,
      },
    });
    expect(r.code, show(r)).toBe(0);
    const { passed, failed } = totals(r.stdout);
    expect(failed).toBe(0);
    expect(passed).toBeGreaterThan(20);
  });
});
