// Rate limits (class A 2/10 s, class B 5/10 s, with the sliding style these tests burst against, per account), the concurrency limit (503) and
// the quota headers, with a hand-driven clock.
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, form, manualClock, sandbox } from './helpers.js';

const A = FIXTURES.acme;

describe('class B: 5 per 10 s per account', async () => {
  const clock = manualClock();
  const sb = await sandbox({ now: clock.now, rateLimiter: 'sliding' });
  it('allows 5, answers 429 with Retry-After and quota headers, frees as the window slides', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.acme }));
      clock.advance(1000);
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect(answers[0].headers.get('ratelimit-limit')).toBe('5');
    expect(answers[0].headers.get('ratelimit-policy')).toBe('5;w=10');
    expect(answers[4].headers.get('ratelimit-reset')).toBe('6'); // first hit at t=0 frees at t=10 s; now t=4 s
    // t = 5 s: the second key of acme shares the account's window.
    const limited = await call(sb, 'GET', `/videos/${A.videos.convertible}/`, { key: SANDBOX_KEYS.acme2 });
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(limited.headers.get('retry-after')).toBe('5');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-limit')).toBe('5');
    // other accounts are not affected
    expect((await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex })).status).toBe(200);
    clock.advance(4999);
    expectError(await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.acme }), 429, 'RATE_LIMIT_EXCEEDED');
    clock.advance(1);
    expect((await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.acme })).status).toBe(200);
    expectError(await call(sb, 'GET', '/video-settings/', { key: SANDBOX_KEYS.acme }), 429, 'RATE_LIMIT_EXCEEDED');
  });
  it('counts class A separately from class B', async () => {
    // class B of acme is exhausted above; class A still answers
    const a = await call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, {
      key: SANDBOX_KEYS.acme,
      json: { language: 'en' },
    });
    expect(a.status).toBe(200);
    expect(a.headers.get('ratelimit-limit')).toBe('2');
    expect(a.headers.get('ratelimit-policy')).toBe('2;w=10');
  });
});

describe('class A: 2 per 10 s, concurrency 2, under a time scale', async () => {
  const clock = manualClock();
  const sb = await sandbox({ now: clock.now, timeScale: 4, rateLimiter: 'sliding' });
  it('allows 2 per 2.5 s (10 s / 4) with decimal headers', async () => {
    const gen = () =>
      call(sb, 'POST', '/videos/generate/', {
        key: SANDBOX_KEYS.acme,
        form: form({ video_setting_id: A.settings.text, text: 'a' }),
      });
    expect((await gen()).status).toBe(200);
    clock.advance(500);
    const second = await gen();
    expect(second.status).toBe(200);
    expect(second.headers.get('ratelimit-policy')).toBe('2;w=2.5');
    expect(second.headers.get('ratelimit-reset')).toBe('2');
    clock.advance(250);
    const third = await gen();
    expectError(third, 429, 'RATE_LIMIT_EXCEEDED');
    expect(third.headers.get('retry-after')).toBe('1.75');
    // the window frees at 2.5 s, but both generations (7.5 s each) are still running → 503
    clock.advance(1750);
    const busy = await gen();
    expectError(busy, 503, 'SIMULTANEOUS_GENERATE_LIMIT');
    expect(busy.headers.get('retry-after')).toBe('5');
    // a request refused with 503 still counted against class A: wait for the window
    clock.advance(500);
    const conv = await call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, {
      key: SANDBOX_KEYS.acme2,
      json: { aspect_ratio: '1:1' },
    });
    expectError(conv, 503, 'SIMULTANEOUS_GENERATE_LIMIT');
    expect(conv.headers.get('retry-after')).toBe('4.5');
    // the first generation finishes at 7.5 s
    clock.advance(4500);
    expect(
      (
        await call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, {
          key: SANDBOX_KEYS.acme2,
          json: { aspect_ratio: '1:1' },
        })
      ).status,
    ).toBe(200);
  });
  it('another account has its own concurrency', async () => {
    const a = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.globex,
      form: form({ video_setting_id: FIXTURES.globex.settings.text, text: 'g' }),
    });
    expect(a.status).toBe(200);
  });
});

describe('credits', async () => {
  const clock = manualClock();
  const sb = await sandbox({
    now: clock.now,
    rateLimits: false,
    generationSeconds: 0,
    accounts: [{ name: 'small', plan: 'business', credits: 2, keys: ['key-small'] }],
  });
  it('spends 1 credit per generation or conversion, then answers 429 INSUFFICIENT_CREDIT', async () => {
    const settings = (await call(sb, 'GET', '/video-settings/', { key: 'key-small' })).body.results;
    const text = settings.find((s: any) => s.request_fields.join() === 'text').video_setting_id;
    const first = await call(sb, 'POST', '/videos/generate/', {
      key: 'key-small',
      form: form({ video_setting_id: text, text: '1' }),
    });
    expect(first.status).toBe(200);
    const conv = await call(sb, 'POST', `/videos/${first.body.video_id}/conversions/`, {
      key: 'key-small',
      json: { language: 'fr' },
    });
    expect(conv.status).toBe(200);
    expectError(
      await call(sb, 'POST', '/videos/generate/', {
        key: 'key-small',
        form: form({ video_setting_id: text, text: '2' }),
      }),
      429,
      'INSUFFICIENT_CREDIT',
    );
    expectError(
      await call(sb, 'POST', `/videos/${first.body.video_id}/conversions/`, {
        key: 'key-small',
        json: { language: 'de' },
      }),
      429,
      'INSUFFICIENT_CREDIT',
    );
  });
});

describe('rateLimits: false', async () => {
  const sb = await sandbox({ rateLimits: false });
  it('never answers 429 for rate limits', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.acme })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
