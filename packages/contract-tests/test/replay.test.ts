// Failure bundles and --replay: a failure met behind a breaking proxy is written as a bundle, and
// replaying it reproduces the failure against the same break and not against the sound sandbox.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { main } from '../src/cli/main.ts';
import { settingsFrom } from '../src/cli/target.ts';
import { readBundle, replay } from '../src/commands/replay.ts';
import { runContract } from '../src/commands/run.ts';
import type { FailureBundle } from '../src/report/failures.ts';
import type { TargetConfig } from '../src/shapes.ts';
import { startBreakingProxy, type Break } from './breaking-proxy.ts';
import { SELF_TEST_TIME_SCALE } from './harness.ts';

// The 404 error body loses its envelope (a break of 7.1, interface).
const brokenEnvelope: Break = {
  response: (res) => (res.status === 404 ? { ...res, text: JSON.stringify({ message: 'not found' }) } : undefined),
};

async function behindBreak<T>(fn: (config: TargetConfig) => Promise<T>): Promise<T> {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
  const proxy = await startBreakingProxy(sandbox.handle.origin, brokenEnvelope);
  try {
    return await fn({ ...sandbox.config, baseUrl: proxy.baseUrl });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'contract-failures-'));
const failuresDir = join(dir, 'failures');
const quiet = { out: () => undefined, err: () => undefined };
let key = '';

beforeAll(async () => {
  await behindBreak(async (config) => {
    key = config.apiKey!;
    const s = settingsFrom(
      {
        junit: join(dir, 'junit.xml'),
        summary: join(dir, 'summary.txt'),
        drift: join(dir, 'drift.md'),
        failures: failuresDir,
        only: ['getVideo'],
      },
      {},
    );
    const r = await runContract(config, s, quiet);
    expect(r.exitCode).toBe(1);
  });
}, 60_000);

describe('failure bundles', () => {
  it('each failed check leaves a bundle: its exchanges, curl lines with $VIDEO_API_KEY, what was expected, no key', () => {
    const files = readdirSync(failuresDir).sort();
    expect(files).toEqual(
      expect.arrayContaining(['getVideo.not_found_unknown_id.json', 'getVideo.error_envelope.json']),
    );
    for (const f of files) {
      const text = readFileSync(join(failuresDir, f), 'utf8');
      expect(text).not.toContain(key);
      const b: FailureBundle = JSON.parse(text);
      expect(b.exchanges.length, f).toBeGreaterThan(0);
      for (const e of b.exchanges) {
        expect(e.curl).toMatch(/^curl -sS -X (GET|POST) /);
        if (e.auth === 'key of main') expect(e.curl).toContain('"Authorization: Bearer $VIDEO_API_KEY"');
      }
    }
    const b = readBundle(join(failuresDir, 'getVideo.not_found_unknown_id.json'));
    expect(b.expected).toMatch(/envelope/);
    expect(b.exchanges.map((e) => e.response.status)).toContain(404);
  });
});

describe('--replay', () => {
  it('reproduces the failure against the broken target, and not against the sound sandbox', async () => {
    const bundle = readBundle(join(failuresDir, 'getVideo.not_found_unknown_id.json'));
    const broken = await behindBreak((config) => replay(bundle, config));
    expect(broken.reproduced).toBe(true);
    expect(broken.exchanges.flatMap((e) => e.now.problems).join('\n')).toMatch(/envelope/);

    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
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
    const code = await main(
      ['--replay', join(failuresDir, 'getVideo.error_envelope.json'), '--target', 'sandbox'],
      { out: (s) => (out += s), err: (s) => (out += s) },
      {},
    );
    expect(out).toMatch(/not reproduced/);
    expect(out).toMatch(/then 404, now 404 NOT_FOUND/);
    expect(code).toBe(0);
    expect(out).not.toContain(key);
  });
});
