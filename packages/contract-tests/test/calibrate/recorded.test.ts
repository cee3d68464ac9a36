// @module-tag full/matrix
// Calibration from recorded traffic (`calibrate --from FILE`): an application's traffic through the pacing
// proxy (its HAR, multipart fields now recorded), read offline into a twin, and added to a read-only live
// calibration, where it observes at no cost what that profile cannot (a generation's status and time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createClient } from '@videogen/client';
import { readTwin, type Twin } from '@videogen/openapi/twin';
import { startPacingProxy } from '../../src/proxy/index.ts';
import { GATEWAY, startIndependentServer, type IndependentServer } from '../fixtures/independent/servers.ts';
import { calibrate, workDir } from './targets.ts';

const T = 20;
const dir = workDir();
const har = join(dir, 'traffic.har');
let server: IndependentServer;

/** A clock T times faster than real time: the client's pacing and polling follow the server's time scale. */
const started = Date.now();
const clock = {
  now: () => started + (Date.now() - started) * T,
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms / T);
      signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    }),
};

beforeAll(async () => {
  server = await startIndependentServer(GATEWAY, { timeScale: T });
  const proxy = await startPacingProxy({ target: server.baseUrl, harFile: har, timeScale: T });
  try {
    // An application's day, in small: it lists, generates and waits, reads options, and makes mistakes.
    const client = createClient({ apiKey: server.keys.main, baseUrl: proxy.url, clock });
    const settings = await client.settings.list();
    const text = settings.results.find((s) => s.request_fields.join() === 'text');
    if (!text) throw new Error('the server lists no text setting');
    await client.generateAndWait({ video_setting_id: text.video_setting_id, text: 'A day of traffic: tides.' });
    await client.generateAndWait({ video_setting_id: text.video_setting_id, text: 'A day of traffic: winds.' });
    const listed = await client.videos.list();
    await client.videos.get(listed.results[0].video_id);
    const auth = { authorization: `Bearer ${server.keys.main}` };
    await (await fetch(`${proxy.url}/videos/?page=0`, { headers: auth })).arrayBuffer();
    await (await fetch(`${proxy.url}/videos/00000000-0000-4000-8000-000000000000/`, { headers: auth })).arrayBuffer();
  } finally {
    await proxy.close();
  }
});
afterAll(() => server?.close());

test('the HAR alone makes a twin: what the traffic showed, observed; the rest says it was not in it', async () => {
  const out = join(dir, 'from-har.twin.json');
  const r = await calibrate(['--from', har, '--out', out], {});
  expect(r.code, r.err).toBe(0);
  const twin: Twin = readTwin(out);
  const b = twin.behaviours;
  expect(twin.calibration).toMatchObject({
    profile: 'recorded',
    sources: ['traffic.har'],
    credits_spent: 0,
    requests: 0,
  });
  expect((twin.target as { base_url?: string }).base_url).toBe(server.baseUrl);
  expect(b['success.status.generateVideo']).toMatchObject({
    value: 202,
    provenance: { source: 'observed', samples: 2 },
  });
  expect(b['refusal.bad_page'].value).toEqual({ status: 400, error_code: 'BAD_QUERY_PARAMETER' });
  expect(b['refusal.unknown_id'].value).toEqual({ status: 404, error_code: 'VIDEO_NOT_FOUND' });
  expect(b['rate_limit.headers'].value).toMatchObject({ family: 'x-ratelimit', reset: 'epoch_seconds' });
  // The generations' form came through the proxy (multipart fields in the HAR), their polls timed them.
  expect(b['duration.generation.text'].provenance).toMatchObject({ source: 'observed', samples: 2 });
  expect(b['latency.getVideo'].provenance).toMatchObject({ source: 'observed' });
  expect(b['copyright.items'].provenance.source).toBe('observed');
  expect(b['refusal.empty_text'].provenance).toMatchObject({
    source: 'decision',
    note: expect.stringMatching(/^not observed: not in the recorded traffic/),
  });
  const text = readFileSync(out, 'utf8');
  expect(text).not.toContain(server.keys.main);
  expect(r.out).toMatch(/recorded traffic only/);
});

test('traffic added to a read-only calibration observes, at no cost, what the profile leaves out', async () => {
  const out = join(dir, 'refined.twin.json');
  const env = { VIDEO_API_BASE_URL: server.baseUrl, VIDEO_API_KEY: server.keys.main };
  const r = await calibrate(['--profile', 'read-only', '--time-scale', String(T), '--from', har, '--out', out], env);
  expect(r.code, r.err.slice(-2000)).toBe(0);
  const twin = readTwin(out);
  expect(twin.calibration).toMatchObject({ profile: 'read-only', sources: ['live', 'traffic.har'], credits_spent: 0 });
  // A read-only run generates nothing; the recorded generations give the status and the duration.
  expect(twin.behaviours['success.status.generateVideo']).toMatchObject({
    value: 202,
    provenance: { source: 'observed' },
  });
  expect(twin.behaviours['duration.generation.text'].provenance.source).toBe('observed');
  // And what neither shows stays as it was, saying why.
  expect(twin.behaviours['rate_limit.B.style'].provenance).toMatchObject({
    source: 'decision',
    note: expect.stringMatching(/^not observed: profile read-only: .* only in the no-credit profile/),
  });
});
