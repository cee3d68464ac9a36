// @module-tag full/tools
// newman through the pacing proxy (`videogen-contract proxy`, here its programmatic form) against the
// sandbox's strictest limiter (even spacing, DECISIONS #28), with no --delay-request: the proxy alone keeps
// Portman's default contract tests within the limits. The same run straight at the sandbox is the baseline
// that shows what the proxy saves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { listOperations } from '@videogen/openapi';
import { startSandbox, SANDBOX_KEYS, type RunningSandbox } from '@videogen/sandbox';
import { startPacingProxy, type PacingProxy } from '@videogen/contract-tests/proxy';
import { portmanCollection, runNewman, type NewmanRun } from './newman.js';

const TIME_SCALE = 1;
const sandboxes: RunningSandbox[] = [];
let collection: string;
let proxy: PacingProxy;
let direct: NewmanRun;
let paced: NewmanRun;
let directSandbox: RunningSandbox;
let pacedSandbox: RunningSandbox;

beforeAll(async () => {
  const start = () => startSandbox({ port: 0, timeScale: TIME_SCALE, validateResponses: true, rateLimiter: 'even' });
  [directSandbox, pacedSandbox] = await Promise.all([start(), start()]);
  sandboxes.push(directSandbox, pacedSandbox);
  // Real time: the interface's own limits (class B one per 2 s, class A one per 5 s with this limiter).
  proxy = await startPacingProxy({ target: pacedSandbox.baseUrl, port: 0 });
  // One collection for both runs: Portman writes the base URL into a collection variable, which newman's
  // --env-var overrides for the run through the proxy (the collection is the same request for request).
  collection = await portmanCollection(directSandbox.baseUrl);
  direct = await runNewman(collection, { apiKey: SANDBOX_KEYS.acme });
  paced = await runNewman(collection, { apiKey: SANDBOX_KEYS.acme, baseUrl: proxy.url });
});
afterAll(async () => {
  if (collection) rmSync(join(collection, '..'), { recursive: true, force: true });
  await proxy?.close();
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('newman through the pacing proxy, against the even limiter', () => {
  it('straight at the sandbox, newman back to back meets 429s (the baseline)', () => {
    expect(directSandbox.stats()['429'] ?? 0).toBeGreaterThan(0);
    expect(direct.responses.some((r) => r.code === 429)).toBe(true);
  });

  it('through the proxy: 0 × 429 at the sandbox and at newman, the proxy having held requests instead', () => {
    expect(pacedSandbox.stats()['429'] ?? 0).toBe(0);
    expect(paced.responses.map((r) => r.code)).not.toContain(429);
    expect(proxy.stats()).toMatchObject({ requests: listOperations().length, resent: { rateLimit: 0 } });
    expect(proxy.stats().waitedMs).toBeGreaterThan(0);
  });

  it("through the proxy: Portman's default contract tests all pass", () => {
    expect(paced.responses.filter((r) => r.code !== 200)).toEqual([]);
    expect(paced.failures).toEqual([]);
    expect(paced.assertions).toEqual({ total: 4 * listOperations().length, failed: 0 });
    expect(pacedSandbox.violations).toEqual([]);
  });
});
