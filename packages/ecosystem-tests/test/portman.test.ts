// @module-tag full/tools
// Portman's default contract tests run by newman against a real sandbox with its strictest limiter (even
// spacing, DECISIONS #28). newman sends back to back, so `--delay-request` spaces the requests by the
// longest interval the limits impose (class A: one per 5 s), on the sandbox's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { listOperations } from '@videogen/openapi';
import { RATE_LIMITS } from '@videogen/openapi/rules';
import { startSandbox, SANDBOX_KEYS, type RunningSandbox } from '@videogen/sandbox';
import { versionOf } from '../scripts/tools.mjs';
import { portmanCollection, runNewman, type NewmanRun } from './newman.js';

const TIME_SCALE = 10;
/** Portman's default contract tests: status 2xx, content type, JSON body, schema. */
const ASSERTIONS_PER_OPERATION = 4;
const spacingMs = Math.max(...Object.values(RATE_LIMITS).map((c) => c.windowMs / c.requests)) / TIME_SCALE;

let sandbox: RunningSandbox;
let collection: string;
let result: NewmanRun;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: TIME_SCALE, validateResponses: true, rateLimiter: 'even' });
  collection = await portmanCollection(sandbox.baseUrl);
  result = await runNewman(collection, { apiKey: SANDBOX_KEYS.acme, delayRequestMs: spacingMs });
});
afterAll(async () => {
  if (collection) rmSync(join(collection, '..'), { recursive: true, force: true });
  await sandbox?.close();
});

describe(`Portman ${versionOf('portman')} + newman ${versionOf('newman')}`, () => {
  it('sends one request per operation of the document, each answered 200', () => {
    expect(result.responses).toHaveLength(listOperations().length);
    expect(result.responses.filter((r) => r.code !== 200)).toEqual([]);
  });

  it('passes every default contract assertion', () => {
    expect(result.failures).toEqual([]);
    expect(result.assertions).toEqual({ total: ASSERTIONS_PER_OPERATION * listOperations().length, failed: 0 });
    expect(result.code).toBe(0);
  });

  it('meets no 429 with --delay-request, and the sandbox saw only valid answers', () => {
    expect(sandbox.stats()['429'] ?? 0).toBe(0);
    expect(sandbox.violations).toEqual([]);
  });
});
