import { describe, expect, it } from 'vitest';
import { classifyError } from '../src/index.js';

describe('classifyError (interface 7.1, x-retry-policy)', () => {
  it('429 INSUFFICIENT_CREDIT is the credit balance: not a rate limit, not retried', () => {
    expect(classifyError(429, 'INSUFFICIENT_CREDIT')).toEqual({
      kind: 'insufficient_credit',
      retryable: false,
      wait: 'none',
    });
    expect(classifyError(403, 'INSUFFICIENT_CREDIT')).toEqual({
      kind: 'insufficient_credit',
      retryable: false,
      wait: 'none',
    });
  });
  it('any other 429, with another code or none, waits for the rate limit', () => {
    for (const code of ['RATE_LIMIT_EXCEEDED', 'TOO_MANY', undefined, null]) {
      expect(classifyError(429, code)).toEqual({ kind: 'rate_limit', retryable: true, wait: 'rate-limit' });
    }
  });
  it('503 waits for server load; the concurrency code keeps its kind', () => {
    expect(classifyError(503, 'SIMULTANEOUS_GENERATE_LIMIT')).toEqual({
      kind: 'concurrency',
      retryable: true,
      wait: 'server-load',
    });
    expect(classifyError(503)).toEqual({ kind: 'unavailable', retryable: true, wait: 'server-load' });
  });
  it('other 5xx back off', () => {
    expect(classifyError(500, 'UNKNOWN_ERROR')).toEqual({ kind: 'server', retryable: true, wait: 'backoff' });
    expect(classifyError(502)).toEqual({ kind: 'server', retryable: true, wait: 'backoff' });
  });
  it('other statuses are not retried', () => {
    expect(classifyError(401)).toMatchObject({ kind: 'auth', retryable: false, wait: 'none' });
    expect(classifyError(403, 'FORBIDDEN')).toMatchObject({ kind: 'auth', retryable: false });
    expect(classifyError(404, 'NOT_FOUND')).toMatchObject({ kind: 'not_found', retryable: false });
    expect(classifyError(400, 'INVALID_LANGUAGE')).toMatchObject({ kind: 'validation', retryable: false });
    expect(classifyError(422)).toMatchObject({ kind: 'validation', retryable: false });
    expect(classifyError(418)).toMatchObject({ kind: 'api', retryable: false, wait: 'none' });
  });
});
