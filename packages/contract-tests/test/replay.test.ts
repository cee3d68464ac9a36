// Failure bundles and --replay: a failure met behind a breaking proxy is written as a bundle, and
// replaying it reproduces the failure against the same break and not against the sound sandbox.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/launch.ts';
import { Run } from '../src/run.ts';
import { allChecks } from '../src/checks/index.ts';
import { runAll } from '../src/runner.ts';
import { readBundle, replay } from '../src/replay.ts';
import { runCommand } from '../src/commands.ts';
import type { FailureBundle } from '../src/failures.ts';
import { startBreakingProxy, type Break } from './breaking-proxy.ts';

// The 404 error body loses its envelope (a break of 7.1, interface).
const brokenEnvelope: Break = { response: (res) => (res.status === 404 ? { ...res, text: JSON.stringify({ message: 'not found' }) } : undefined) };

async function behindBreak<T>(fn: (baseUrl: string, config: Awaited<ReturnType<typeof startSandboxTarget>>['config']) => Promise<T>): Promise<T> {
  const sandbox = await startSandboxTarget(100);
  const proxy = await startBreakingProxy(sandbox.handle.origin, brokenEnvelope);
  try {
    return await fn(proxy.baseUrl, { ...sandbox.config, baseUrl: proxy.baseUrl });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'contract-failures-'));
let key = '';

beforeAll(async () => {
  await behindBreak(async (_url, config) => {
    key = config.apiKey!;
    const run = new Run(config);
    run.failuresDir = dir;
    await runAll(run, allChecks().filter((c) => c.operation === 'getVideo'));
  });
}, 60_000);

describe('failure bundles', () => {
  it('each failed check leaves a bundle: its exchanges, curl lines with $VIDEO_API_KEY, what was expected, no key', () => {
    const files = readdirSync(dir).sort();
    expect(files).toEqual(expect.arrayContaining(['getVideo.not_found_unknown_id.json', 'getVideo.error_envelope.json']));
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text).not.toContain(key);
      const b: FailureBundle = JSON.parse(text);
      expect(b.exchanges.length, f).toBeGreaterThan(0);
      for (const e of b.exchanges) {
        expect(e.curl).toMatch(/^curl -sS -X (GET|POST) /);
        if (e.auth === 'key of main') expect(e.curl).toContain('"Authorization: Bearer $VIDEO_API_KEY"');
      }
    }
    const b = readBundle(join(dir, 'getVideo.not_found_unknown_id.json'));
    expect(b.expected).toMatch(/envelope/);
    expect(b.exchanges.map((e) => e.response.status)).toContain(404);
  });
});

describe('--replay', () => {
  it('reproduces the failure against the broken target, and not against the sound sandbox', async () => {
    const bundle = readBundle(join(dir, 'getVideo.not_found_unknown_id.json'));
    const broken = await behindBreak((_url, config) => replay(bundle, config));
    expect(broken.reproduced).toBe(true);
    expect(broken.exchanges.flatMap((e) => e.now.problems).join('\n')).toMatch(/envelope/);

    const sandbox = await startSandboxTarget(100);
    try {
      const sound = await replay(bundle, sandbox.config);
      expect(sound.reproduced).toBe(false);
      expect(sound.problems).toBe(0);
      expect(sound.exchanges.some((e) => e.now.status === 404 && e.now.errorCode)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  it('replays a conformance failure bundle (exchanges made by other checks) in one command: --target sandbox', async () => {
    let out = '';
    const code = await runCommand(['--replay', join(dir, 'getVideo.error_envelope.json'), '--target', 'sandbox'], (s) => (out += s));
    expect(out).toMatch(/not reproduced/);
    expect(out).toMatch(/then 404, now 404 NOT_FOUND/);
    expect(code).toBe(0);
    expect(out).not.toContain(key);
  });
});
