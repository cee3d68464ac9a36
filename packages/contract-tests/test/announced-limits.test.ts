// What one answer's RateLimit-Policy makes the suite believe of its target's pace (issue 35: every limit
// a server can announce has a ceiling in the rules): a time scale for the run and --plan, never beyond
// the rules' MAX_LEARNED_TIME_SCALE (the pacer's own ceiling), and no slower clock at all.
import { describe, expect, it } from 'vitest';
import { MAX_LEARNED_TIME_SCALE, RATE_LIMITS } from '@videogen/openapi/rules';
import { timeScaleOf } from '../src/preflight.ts';

describe("the time scale read from a target's RateLimit-Policy", () => {
  const spacingS = RATE_LIMITS.B.windowMs / RATE_LIMITS.B.requests / 1000;
  it('a sandbox at 100× is read as 100×', () => {
    expect(timeScaleOf(`1;w=${spacingS / 100}`)).toBe(100);
    expect(timeScaleOf(`${RATE_LIMITS.B.requests};w=${RATE_LIMITS.B.windowMs / 1000 / 100}`)).toBe(100);
  });
  it(`a policy a million times faster is read as ${MAX_LEARNED_TIME_SCALE}× at most; a slower one is no time scale`, () => {
    expect(timeScaleOf(`1;w=${spacingS / 1e6}`)).toBe(MAX_LEARNED_TIME_SCALE);
    expect(timeScaleOf('1;w=100000')).toBeUndefined();
  });
});
