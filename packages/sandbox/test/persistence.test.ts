// --data-dir: videos and credits survive a restart, and so do the download URLs already handed out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FIXTURES, startSandbox } from '../src/index.js';
import { call, form, manualClock } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('restores videos, their states and the credit balances after a restart', async () => {
  const clock = manualClock();
  const accounts = [{ name: 'keeper', plan: 'business' as const, credits: 5, keys: ['key-keeper'] }];
  const first = await startSandbox({
    port: 0,
    dataDir: dir,
    now: clock.now,
    rateLimits: false,
    validateResponses: true,
    accounts,
  });
  const settings = (await call(first, 'GET', '/video-settings/', { key: 'key-keeper' })).body.results;
  const text = settings.find((s: any) => s.request_fields.join() === 'text').video_setting_id;
  const a = await call(first, 'POST', '/videos/generate/', {
    key: 'key-keeper',
    form: form({ video_setting_id: text, text: 'kept' }),
  });
  clock.advance(30_000);
  const b = await call(first, 'POST', `/videos/${a.body.video_id}/conversions/`, {
    key: 'key-keeper',
    json: { language: 'de' },
  });
  expect(b.status).toBe(200);
  const url = (await call(first, 'GET', `/videos/${a.body.video_id}/`, { key: 'key-keeper' })).body.download_url;
  expect(first.violations).toEqual([]);
  await first.close();

  const second = await startSandbox({
    port: 0,
    dataDir: dir,
    now: clock.now,
    rateLimits: false,
    validateResponses: true,
    accounts,
  });
  try {
    const list = (await call(second, 'GET', '/videos/', { key: 'key-keeper' })).body;
    expect(list.total_count).toBe(9);
    expect(list.results.slice(0, 2).map((v: any) => v.video_id)).toEqual([b.body.video_id, a.body.video_id]);
    expect((await call(second, 'GET', `/videos/${b.body.video_id}/`, { key: 'key-keeper' })).body.status).toBe(
      'running',
    );
    clock.advance(30_000);
    expect(
      (await call(second, 'GET', `/videos/${b.body.video_id}/conversions/`, { key: 'key-keeper' })).body
        .current_language,
    ).toBe('de');
    // the old URL pointed at the first port; the same path and query on the new server still verify
    const u = new URL(url);
    expect((await fetch(second.origin + u.pathname + u.search)).status).toBe(200);
    // seeded fixtures are still there and unchanged
    expect(
      (await call(second, 'GET', `/videos/${FIXTURES.acme.videos.failed}/`, { key: 'sandbox-key-acme' })).body.status,
    ).toBe('failed');
    // 5 credits, 2 spent before the restart: 3 left
    for (let i = 0; i < 3; i++) {
      clock.advance(30_000);
      expect(
        (
          await call(second, 'POST', '/videos/generate/', {
            key: 'key-keeper',
            form: form({ video_setting_id: text, text: `more ${i}` }),
          })
        ).status,
      ).toBe(200);
    }
    const broke = await call(second, 'POST', '/videos/generate/', {
      key: 'key-keeper',
      form: form({ video_setting_id: text, text: 'one too many' }),
    });
    expect(broke.body.error_code).toBe('INSUFFICIENT_CREDIT');
    expect(second.violations).toEqual([]);
  } finally {
    await second.close();
  }
});
