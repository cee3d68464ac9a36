// @module-tag full/matrix
// A target that changes between two calibrations is caught by `calibrate --diff OLD NEW` (issue 33 item 6),
// as a changelog of behaviour; one that does not change gives no change (the nightly loop's alarm must
// not ring for the noise of two measurements). Read-only calibrations of an independent server, 50× faster.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { GATEWAY, startIndependentServer, type IndependentServer } from '../fixtures/independent/servers.ts';
import { calibrate, workDir } from './targets.ts';

const T = 50;
const dir = workDir();
const servers: IndependentServer[] = [];

/** A read-only calibration of a server started with these choices, into `name`.twin.json. */
async function calibrated(name: string, choices: typeof GATEWAY): Promise<string> {
  const server = await startIndependentServer(choices, { timeScale: T });
  servers.push(server);
  const file = join(dir, `${name}.twin.json`);
  const env = { VIDEO_API_BASE_URL: server.baseUrl, VIDEO_API_KEY: server.keys.main };
  const r = await calibrate(['--profile', 'read-only', '--time-scale', String(T), '--out', file, '--name', name], env);
  if (r.code !== 0) throw new Error(r.err.slice(-2000));
  return file;
}

let monday: string;
let tuesday: string;
let wednesday: string;
beforeAll(async () => {
  monday = await calibrated('staging@2026-11-02', GATEWAY);
  tuesday = await calibrated('staging@2026-11-03', GATEWAY);
  // Overnight the gateway was replaced: the draft's RateLimit-* headers, its own bad-page code, oldest first.
  wednesday = await calibrated('staging@2026-11-04', {
    ...GATEWAY,
    rateLimitHeaders: 'ratelimit',
    refusals: { ...GATEWAY.refusals, badPage: { status: 422, code: 'INVALID_PAGE' } },
    order: 'oldest_first',
    timestamps: { utc: 'Z', fractionDigits: 3 },
  });
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

test('two calibrations of an unchanged target: no change', async () => {
  const r = await calibrate(['--diff', monday, tuesday], {});
  expect(r.out).toMatch(/^Behaviour changes from staging@2026-11-02 .* to staging@2026-11-03 .*: none/);
  expect(r.code).toBe(0);
});

test('a target that changed: each change of behaviour in words, and exit 1', async () => {
  const r = await calibrate(['--diff', tuesday, wednesday], {});
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/: 4 changed/);
  expect(r.out).toContain('rate-limit headers: X-RateLimit-* (epoch reset) → RateLimit-*');
  expect(r.out).toContain('refusal of a bad page: 400 BAD_QUERY_PARAMETER → 422 INVALID_PAGE');
  expect(r.out).toContain('order of GET /videos/: newest_first → oldest_first');
  expect(r.out).toContain('timestamps: ….000000Z → ….000Z');
  const json = await calibrate(['--diff', tuesday, wednesday, '--json'], {});
  const d = JSON.parse(json.out) as { changes: Array<{ key: string; kind: string }> };
  expect(d.changes.filter((c) => c.kind === 'changed').map((c) => c.key)).toEqual([
    'refusal.bad_page',
    'paging.videos_order',
    'rate_limit.headers',
    'body.timestamps',
  ]);
  expect(readFileSync(wednesday, 'utf8')).toMatch(/"name": "staging@2026-11-04"/);
});
