// running → completed / failed → expired, with a hand-driven clock and with a real time scale;
// signed, expiring download URLs that serve a real MP4.
import { describe, expect, it } from 'vitest';
import { FIXTURES, MAGIC, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, form, manualClock, sandbox, WAIT_MS } from './helpers.js';

const S = FIXTURES.acme.settings;
const key = SANDBOX_KEYS.acme;

describe('lifecycle (hand-driven clock)', async () => {
  const clock = manualClock();
  const sb = await sandbox({ rateLimits: false, now: clock.now });
  const gen = async (text: string) => {
    const a = await call(sb, 'POST', '/videos/generate/', { key, form: form({ video_setting_id: S.text, text }) });
    expect(a.status).toBe(200);
    return a.body.video_id as string;
  };
  const status = async (id: string) => (await call(sb, 'GET', `/videos/${id}/`, { key })).body;

  it('runs for the generation time, completes with copyright and a URL, expires after 24 h', async () => {
    const id = await gen('lifecycle');
    expect(await status(id)).toEqual({ video_id: id, status: 'running', download_url: '', copyright: [] });
    clock.advance(29_999);
    expect((await status(id)).status).toBe('running');
    clock.advance(1);
    const done = await status(id);
    expect(done.status).toBe('completed');
    expect(done.copyright.length).toBeGreaterThan(0);
    expect(done.download_url).toMatch(
      new RegExp(`^${sb.origin}/downloads/${id}\\.mp4\\?expires=\\d+&signature=[0-9a-f]{64}$`),
    );
    clock.advance(86_400_000 - 1);
    expect((await status(id)).status).toBe('completed');
    clock.advance(1);
    expect(await status(id)).toEqual({ video_id: id, status: 'expired', download_url: '', copyright: [] });
  });
  it('[sandbox:fail] ends failed', async () => {
    const id = await gen(`x ${MAGIC.fail}`);
    clock.advance(30_000);
    expect(await status(id)).toEqual({ video_id: id, status: 'failed', download_url: '', copyright: [] });
  });
  it('[sandbox:expire] expires one generation time after completing', async () => {
    const id = await gen(`x ${MAGIC.expire}`);
    clock.advance(30_000);
    expect((await status(id)).status).toBe('completed');
    clock.advance(30_000);
    expect((await status(id)).status).toBe('expired');
  });
  it('a magic token in a file name works for file-only modes', async () => {
    const a = await call(sb, 'POST', '/videos/generate/', {
      key,
      form: form({ video_setting_id: S.pdf }, [['pdf_file', `deck${MAGIC.fail}.pdf`]]),
    });
    clock.advance(30_000);
    expect((await status(a.body.video_id)).status).toBe('failed');
  });
  it('seeded videos never change state', async () => {
    clock.advance(10 * 86_400_000);
    const v = FIXTURES.acme.videos;
    expect((await status(v.convertible)).status).toBe('completed');
    expect((await status(v.failed)).status).toBe('failed');
    expect((await status(v.expired)).status).toBe('expired');
  });

  it('serves a real MP4 at the signed URL; tampered or expired URLs answer 403', async () => {
    const url = (await status(FIXTURES.acme.videos.convertible)).download_url as string;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const u = new URL(url);
    const sig = u.searchParams.get('signature')!;
    const tampered = [
      url.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)),
      url.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 1000}`),
      url.replace(FIXTURES.acme.videos.convertible, FIXTURES.acme.videos.limitedVoices),
      url.split('?')[0],
      url.replace(/signature=[0-9a-f]+/, 'signature=zz'),
    ];
    for (const t of tampered) expectError(await call(sb, 'GET', t), 403, 'FORBIDDEN');

    clock.advance(3_600_000);
    expectError(await call(sb, 'GET', url), 403, 'FORBIDDEN');
  });
  it('a download URL of a video that has since expired answers 403', async () => {
    const id = await gen(`x ${MAGIC.expire}`);
    clock.advance(30_000);
    const url = (await status(id)).download_url;
    expect((await fetch(url)).status).toBe(200);
    clock.advance(30_000);
    expectError(await call(sb, 'GET', url), 403, 'FORBIDDEN');
  });
});

describe('lifecycle (real time, --time-scale 100)', async () => {
  const sb = await sandbox({ rateLimits: false, timeScale: 100 });
  // Bounds that load cannot break: the generation cannot end before its scaled 0.3 s (counted from
  // before the request), and ends long before the unscaled 30 s (the time scale at work: a margin of 100x).
  const generationMs = 30_000;
  const linkMs = 3_600_000 / 100;
  it('completes a 30 s generation in 0.3 s and links live 36 s', async () => {
    const posted = Date.now();
    const a = await call(sb, 'POST', '/videos/generate/', {
      key,
      form: form({ video_setting_id: S.text, text: 'fast' }),
    });
    const id = a.body.video_id;
    let v: any;
    let asked: number;
    let answered: number;
    do {
      await new Promise((r) => setTimeout(r, 50));
      asked = Date.now();
      v = (await call(sb, 'GET', `/videos/${id}/`, { key })).body;
      answered = Date.now();
    } while (v.status === 'running' && answered - posted < WAIT_MS);
    expect(v.status).toBe('completed');
    expect(answered - posted).toBeGreaterThanOrEqual(generationMs / 100);
    expect(answered - posted).toBeLessThan(generationMs);
    // The link of the last answer lives 36 s from when it was issued, rounded down to a 60th of that.
    const expires = Number(new URL(v.download_url).searchParams.get('expires'));
    expect(expires).toBeGreaterThan(asked + linkMs - linkMs / 60);
    expect(expires).toBeLessThanOrEqual(answered + linkMs);
  });
});
