import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRateLimitHeaders, parseRetryAfter } from '../src/index.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds, including the decimals of the scaled sandbox', () => {
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('0.25', now)).toBe(250);
  });
  it('reads an HTTP-date, and a date in the past means no wait', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Thu Jan  1 00:00:20 2026', now)).toBe(20_000);
  });
  it('caps a huge value', () => {
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('1' + '0'.repeat(400), now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
  });
  it('gives undefined for garbage rather than guessing', () => {
    for (const v of [
      undefined,
      null,
      '',
      '  ',
      '-1',
      'soon',
      '5s',
      '1e3',
      '0x10',
      'Thu, 99 Foo 2026 99:99:99 GMT',
      '2026-01-01T00:00:30Z',
    ]) {
      expect(parseRetryAfter(v as string, now), String(v)).toBeUndefined();
    }
  });
});

describe('parseRateLimitHeaders', () => {
  it('reads the sandbox form from fetch Headers', () => {
    const h = new Headers({
      'RateLimit-Policy': '5;w=0.1',
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '0.05',
    });
    expect(parseRateLimitHeaders(h)).toEqual({
      policies: [{ limit: 5, windowMs: 100 }],
      limit: 5,
      remaining: 0,
      resetMs: 50,
    });
  });
  it('reads the newer draft form and several policies, from a plain object with any case', () => {
    const info = parseRateLimitHeaders({
      'ratelimit-policy': '"burst";q=2;w=10, "day";q=1000;w=86400',
      RateLimit: '"burst";r=1;t=4',
    });
    expect(info).toEqual({
      policies: [
        { name: 'burst', limit: 2, windowMs: 10_000 },
        // A day is read as an hour (MAX_RETRY_AFTER_MS) with the quota that keeps the stated rate.
        { name: 'day', limit: 1000 / 24, windowMs: MAX_RETRY_AFTER_MS },
      ],
      limit: 2,
      remaining: 1,
      resetMs: 4000,
    });
  });
  it('caps a policy window as it caps Retry-After and RateLimit-Reset: one answer cannot announce a day', () => {
    const [policy] = parseRateLimitHeaders({ 'RateLimit-Policy': '1;w=100000' }).policies;
    expect(policy.windowMs).toBe(MAX_RETRY_AFTER_MS);
    // The stated rate is kept: one request per 100,000 s is 0.036 per hour.
    expect(policy.windowMs / policy.limit).toBeCloseTo(100_000_000);
  });
  it('accepts node:http array values', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': ['3'] }).remaining).toBe(3);
  });
  it('ignores garbage and absent headers', () => {
    expect(parseRateLimitHeaders(new Headers())).toEqual({ policies: [] });
    const info = parseRateLimitHeaders({
      'RateLimit-Policy': 'lots;w=soon, 5;w=0, ;;;',
      'RateLimit-Remaining': '-1',
      'RateLimit-Reset': 'later',
      'RateLimit-Limit': 'NaN',
    });
    expect(info).toEqual({ policies: [] });
  });
  it('caps a huge reset', () => {
    expect(parseRateLimitHeaders({ 'RateLimit-Reset': '99999999' }).resetMs).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('retryAfterMs (uncapped, for reporting)', () => {
  it('reads the same forms as parseRetryAfter, without the cap', async () => {
    const { retryAfterMs } = await import('../src/index.js');
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('7200', now)).toBe(7_200_000);
    expect(parseRetryAfter('7200', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
