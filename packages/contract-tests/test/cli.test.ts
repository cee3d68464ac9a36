// End to end: the CLI launches vitest with the suite, the reporters and a target it starts itself.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/launch.ts';
import { envForTarget } from '../src/target.ts';
import { startBreakingProxy } from './breaking-proxy.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; junit: string; summary: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-cli-'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VIDEO_API_') && !k.startsWith('CONTRACT_') && !k.startsWith('VITEST')));
  const child = spawn(process.execPath, ['bin/contract.mjs', ...args], {
    cwd: root,
    env: { ...clean, ...env, CONTRACT_JUNIT_FILE: join(dir, 'junit.xml'), CONTRACT_SUMMARY_FILE: join(dir, 'summary.txt'), NO_COLOR: '1' },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      const read = (f: string) => {
        try {
          return readFileSync(join(dir, f), 'utf8');
        } catch {
          return '';
        }
      };
      resolve({ code: code ?? -1, out, junit: read('junit.xml'), summary: read('summary.txt') });
    }),
  );
}

describe('bin/contract.mjs', () => {
  it('runs the full profile against the sandbox it starts: all pass, JUnit written, no key printed', async () => {
    const r = await cli([], {});
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(r.summary).toMatch(/Total: \d+ passed, 0 failed, 0 skipped/);
    expect((r.junit.match(/<testcase /g) ?? []).length).toBeGreaterThan(90);
    expect(r.junit).not.toContain('<failure');
    expect(r.out + r.junit + r.summary).not.toMatch(/sandbox-key-/);
  });

  it('runs against the Prism mock it starts: passes, stateful checks skipped with their reasons', async () => {
    const r = await cli(['--prism'], {});
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(r.summary).toMatch(/Total: \d+ passed, 0 failed, \d+ skipped/);
    expect(r.summary).toMatch(/skip {2}not_found_unknown_id {2}— target prism is a stateless mock/);
    expect(r.junit).toMatch(/<property name="skip-reason" value="target prism is a stateless mock/);
  });

  it('exits non-zero against a broken target and names the failing check in the JUnit XML', async () => {
    const sandbox = await startSandboxTarget(100);
    const proxy = await startBreakingProxy(sandbox.handle.origin, {
      response: (res, req) => (req.url.startsWith('/v1/video-settings/') && res.status === 200 ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' } } : undefined),
    });
    try {
      const env = envForTarget({ ...sandbox.config, baseUrl: proxy.baseUrl });
      const r = await cli(['suite/10-paging', 'suite/70-conformance'], env);
      expect(r.code).toBe(1);
      expect(r.junit).toMatch(/<testcase classname="suite\/70-conformance.contract.ts" name="listVideoSettings &gt; content_type_conformance"[^>]*>\s*<failure/);
      expect(r.summary).toMatch(/FAIL {2}content_type_conformance/);
      expect(r.out + r.junit + r.summary).not.toMatch(/sandbox-key-/);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });
});
