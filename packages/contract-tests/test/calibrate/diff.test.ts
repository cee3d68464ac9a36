// @module-tag full/matrix
// A target that changes between two calibrations is caught by `calibrate --diff OLD NEW` (issue 33 item 6),
// as a changelog of behaviour; one that does not change gives no change (the nightly loop's alarm must
// not ring for the noise of two measurements). Read-only calibrations of an independent server, 50× faster.
import { readFileSync, writeFileSync } from 'node:fs';
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
  // One at a time: two calibrations in one process would read each other's work as the target's latency.
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

/**
 * This shared machine's share of a round trip (real ms), as the nightly loop's job sets it: at 50× a
 * listing's 88 ms real at a load of 20 read as 4.4 s against 361 ms in the next calibration.
 */
const NOISE = ['--latency-noise', '60'];

test('two calibrations of an unchanged target: no change', async () => {
  const r = await calibrate(['--diff', monday, tuesday, ...NOISE], {});
  expect(r.out).toMatch(/^Behaviour changes from staging@2026-11-02 .* to staging@2026-11-03 .*: none/);
  expect(r.code).toBe(0);
});

test('a target that changed: each change of behaviour in words, and exit 1', async () => {
  const r = await calibrate(['--diff', tuesday, wednesday, ...NOISE], {});
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/: 4 changed/);
  expect(r.out).toContain('rate-limit headers: X-RateLimit-* (epoch reset) → RateLimit-*');
  expect(r.out).toContain('refusal of a bad page: 400 BAD_QUERY_PARAMETER → 422 INVALID_PAGE');
  expect(r.out).toContain('order of GET /videos/: newest_first → oldest_first');
  expect(r.out).toContain('timestamps: ….000000Z → ….000Z');
  const json = await calibrate(['--diff', tuesday, wednesday, '--json', ...NOISE], {});
  const d = JSON.parse(json.out) as { changes: Array<{ key: string; kind: string }> };
  expect(d.changes.filter((c) => c.kind === 'changed').map((c) => c.key)).toEqual([
    'refusal.bad_page',
    'paging.videos_order',
    'rate_limit.headers',
    'body.timestamps',
  ]);
  expect(readFileSync(wednesday, 'utf8')).toMatch(/"name": "staging@2026-11-04"/);
});

test('a latency is read within the noise floor given (--latency-noise, CONTRACT_LATENCY_NOISE), as compare reads it', async () => {
  // Tuesday's twin twice, its listing's latency 1 s and then 2 s of service time (50 samples each, no round
  // trip of their own written): a change at the default floor (3 ms real, 150 ms at 50×), none within 30 ms
  // real (1.5 s at 50×).
  const twin = JSON.parse(readFileSync(tuesday, 'utf8'));
  const withLatency = (name: string, ms: number) => {
    const t = structuredClone(twin);
    t.name = name;
    delete t.calibration.local_round_trip_ms;
    const b = t.behaviours['latency.listVideoSettings'];
    b.value = { family: 'constant', unit: 'ms', value: ms };
    b.provenance = { ...b.provenance, source: 'observed', samples: 50 };
    const file = join(dir, `${name}.twin.json`);
    writeFileSync(file, JSON.stringify(t));
    return file;
  };
  const before = withLatency('staging@2026-11-05', 1000);
  const after = withLatency('staging@2026-11-06', 2000);
  const plain = await calibrate(['--diff', before, after], {});
  expect(plain.code, plain.out).toBe(1);
  expect(plain.out).toMatch(/: 1 changed\n {2}latency of .*: 1000 ms → 2000 ms {2}\[.* or 150 ms;/);
  for (const [args, env] of [
    [['--latency-noise', '30'], {}],
    [[], { CONTRACT_LATENCY_NOISE: '30' }],
  ] as const) {
    const r = await calibrate(['--diff', before, after, ...args], env);
    expect(r.out, JSON.stringify(args)).toMatch(/^Behaviour changes from .*: none/);
    expect(r.code).toBe(0);
  }
  const bad = await calibrate(['--diff', before, after, '--latency-noise', 'loud'], {});
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/--latency-noise \/ CONTRACT_LATENCY_NOISE takes milliseconds ≥ 0, not loud/);
  // A calibration does not read it (a twin holds what was measured): said, not ignored.
  const misplaced = await calibrate(['--latency-noise', '30', '--profile', 'read-only'], {});
  expect(misplaced.code).toBe(2);
  expect(misplaced.err).toMatch(/--latency-noise is read by --diff/);
});
