// A target's stated pace (RateLimit-Policy), as the client's polling and the suite's preflight read it.
import { describe, expect, it } from 'vitest';
import { MAX_LEARNED_TIME_SCALE, statedTimeScale } from '../src/index.js';

describe('statedTimeScale', () => {
  it("reads a target's stated pace: the interface's quota over a shorter window, or its even spacing; at most 1000×", () => {
    expect(statedTimeScale({ 'ratelimit-policy': '5;w=0.1' })).toBe(100);
    expect(statedTimeScale({ 'ratelimit-policy': '1;w=0.02' })).toBe(100);
    expect(statedTimeScale({ 'ratelimit-policy': '2;w=0.1' }, 'A')).toBe(100);
    expect(statedTimeScale({ 'ratelimit-policy': '10;w=10' })).toBeUndefined(); // other limits, not a faster clock
    expect(statedTimeScale({ 'ratelimit-policy': '5;w=10' })).toBeUndefined(); // the interface's own pace
    expect(statedTimeScale({ 'ratelimit-policy': '5;w=0.00001' })).toBe(MAX_LEARNED_TIME_SCALE);
  });
});
