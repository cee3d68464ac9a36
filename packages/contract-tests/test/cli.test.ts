// @module-tag full/processes
// @module-tag node-versions
// End to end: the built bin (dist/cli.js), as `npx videogen-contract` runs it: a plain Node process, no
// vitest, with the target it starts itself or one it is given.
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { envForTarget } from '../src/cli/target.ts';
import { cli } from './bin.ts';
import { startBreakingProxy } from './breaking-proxy.ts';

// Each test has its own target and its own child process, which mostly wait: side by side.
describe.concurrent('videogen-contract (dist/cli.js)', () => {
  it('runs the full profile against the sandbox it starts: all pass, 10 credits, JUnit written, no key printed', async () => {
    const r = await cli([]);
    expect(r.code, r.out.slice(-3000) + r.err.slice(-2000)).toBe(0);
    expect(r.summary).toMatch(
      /Total: \d+ passed, 0 failed, 0 skipped, 0 differing from a decision of ours, of \d+ checks/,
    );
    // The hand-written scenarios' 5 credits, the boundary phase's 3 valid requests and one random one per POST.
    expect(r.summary).toMatch(/^Credits spent: 10;/m);
    expect(r.summary).toMatch(
      /^Boundary phase: \d+ classes of input over 6 operations \(\d+ class-requests.*\), 0 failing$/m,
    );
    // Each upload limit at and one byte past it, a limit every plan shares (an image's) sent once.
    expect(r.summary).toMatch(/^ {2}pass {2}boundary_upload_sizes {2}— 8 requests, 8 classes of input$/m);
    expect(r.out).toContain(r.summary.trim().split('\n').at(-1));
    expect((r.junit.match(/<testcase /g) ?? []).length).toBeGreaterThan(100);
    expect(r.junit).not.toContain('<failure');
    // Progress, one line per check, on stderr.
    expect(r.err).toMatch(/\[\s*1\/\d+\] passed +listVideoSettings › paging_first_page/);
    expect(r.out + r.err + r.junit + r.summary).not.toMatch(/sandbox-key-/);
  });

  it('runs against the Prism mock it starts: passes, stateful checks skipped with their reasons', {
    tags: ['full/tools'],
  }, async () => {
    const r = await cli(['--prism']);
    expect(r.code, r.out.slice(-3000) + r.err.slice(-2000)).toBe(0);
    expect(r.summary).toMatch(/Total: \d+ passed, 0 failed, \d+ skipped/);
    expect(r.summary).toMatch(/skip {2}not_found_unknown_id {2}— target prism is a stateless mock/);
    expect(r.junit).toMatch(/<property name="skip-reason" value="target prism is a stateless mock/);
  });

  it('exits 1 against a broken target, names the failing check in the JUnit XML; --only judges only what it names', async () => {
    const sandbox = await startSandboxTarget(100);
    const proxy = await startBreakingProxy(sandbox.handle.origin, {
      response: (res, req) =>
        req.url.startsWith('/v1/video-settings/') && res.status === 200
          ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' } }
          : undefined,
    });
    try {
      const env = envForTarget({ ...sandbox.config, baseUrl: proxy.baseUrl });
      const r = await cli(['--only', 'listVideoSettings', 'listVideos.paging_first_page'], env);
      expect(r.code).toBe(1);
      expect(r.junit).toMatch(
        /<testcase classname="listVideoSettings" name="content_type_conformance" time="[\d.]+">\s*<failure message="[^"]*content_type_conformance/,
      );
      expect(r.summary).toMatch(/FAIL {2}content_type_conformance/);
      expect(r.summary).toMatch(
        /Total: \d+ passed, [1-9]\d* failed, 0 skipped, 0 differing from a decision of ours, of 19 checks/,
      );
      expect(r.out + r.err + r.junit + r.summary).not.toMatch(/sandbox-key-/);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });

  it('reports a difference from our decisions as drift, in the JUnit XML as its own testsuite: exit 0 unless strict', async () => {
    const sandbox = await startSandboxTarget(100);
    // 404 for a page past the end (as Django REST Framework answers): decision #30, not the interface.
    const proxy = await startBreakingProxy(sandbox.handle.origin, {
      response: (res, req) =>
        /[?&]page=([2-9]|\d\d)/.test(req.url) && req.url.startsWith('/v1/video-settings/')
          ? {
              status: 404,
              headers: { 'content-type': 'application/json' },
              text: JSON.stringify({ error_code: 'NOT_FOUND', error: 'Invalid page.' }),
            }
          : undefined,
    });
    try {
      const env = envForTarget({ ...sandbox.config, baseUrl: proxy.baseUrl, kind: 'external', strict: false });
      // Read-only: no rate-limit burst, whose sandbox here (behind a proxy, in this process) the CLI cannot
      // hold still (TargetConfig.holdTime); a loaded machine would spread it past the 100 ms window.
      const lenient = await cli(['listVideoSettings', '--profile', 'read-only'], env);
      expect(lenient.code, lenient.out.slice(-2000)).toBe(0);
      expect(lenient.summary).toMatch(/drift {2}paging_past_the_end/);
      expect(lenient.drift).toMatch(/## Decision #30/);
      expect(lenient.junit).toMatch(
        /<testsuite name="decision mismatches \(our choices, not interface failures\)"[^>]*failures="0"/,
      );
      const strict = await cli(['listVideoSettings', '--profile', 'read-only', '--strict'], env);
      expect(strict.code).toBe(1);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });

  it('--plan prints every profile with requests, credits and floors; nothing is sent', async () => {
    const r = await cli(['--plan']);
    expect(r.code).toBe(0);
    for (const p of ['read-only', 'no-credit', 'full'])
      expect(r.out).toMatch(new RegExp(`^${p}: \\d+ checks run, \\d+ skipped`, 'm'));
    expect(r.out).toMatch(/credits: 10; at most 11/);
    expect(r.out).toMatch(
      /^ {2}boundary phase \(deterministic, before the random requests, within --max-time 120 s\): at most \d+ class-A and \d+ class-B requests, [\d.]+ s at this target's pace$/m,
    );
    expect(r.out).toMatch(/^ {4}with its value tier \(\d+ requests/m);
    expect(r.out).toMatch(/^ {2}generated requests spend at most 5 of the 10 credits above/m);
    // The sandbox a run starts runs 100× faster: the floor is said at its pace, and at real time.
    expect(r.out).toMatch(
      /floor wall time: [\d.]+ s at this target's pace \(\d+ s at the interface's real-time limits\)/,
    );
    expect(r.out).toMatch(/random phase \(--examples 10\): at most \d+ class-A and \d+ class-B of the above/);
  });

  it('--help, --version, a usage error (exit 2), and the proxy subcommand when this build has none', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const o of [
      '--base-url',
      '--profile',
      '--plan',
      '--seed',
      '--seed-fixtures',
      '--examples',
      '--max-time',
      '--no-boundary',
      '--keyless',
      '--html',
      '--budget',
      '--replay',
      '--har',
      '--junit',
      '--drift',
      '--summary',
      '--failures',
      '--fixtures',
      '--only',
      '--strict',
      '--every-combination',
      'proxy',
    ])
      expect(help.out).toContain(o);
    expect((await cli(['--version'])).out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const bad = await cli(['--profile', 'everything']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--profile \/ CONTRACT_PROFILE must be read-only, no-credit, full, not everything/);
    const unknown = await cli(['--frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/frobnicate/);
  });
});
