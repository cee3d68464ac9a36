import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec } from '../../lib/index.js';
import {
  MAX_RUNNING,
  OPERATIONS,
  PAGE_SIZE,
  RATE_LIMITS,
  operationById,
  operationFor,
  pathParametersOf,
} from '../src/index.js';

describe('operation table', () => {
  it('has one entry per operation of the spec, with its rate class', () => {
    const spec = loadSpec();
    expect(OPERATIONS.map((o) => o.operationId).sort()).toEqual(
      listOperations(spec)
        .map((o) => o.operationId)
        .sort(),
    );
    for (const o of listOperations(spec)) {
      const e = OPERATIONS.find((x) => x.operationId === o.operationId)!;
      expect(e.rateClass).toBe(o.operation['x-rate-limit'].class);
      expect(e.startsVideo).toBe(Boolean(o.operation['x-concurrency-limit']));
    }
  });
  it('finds the operation of a request path, with or without the base path', () => {
    const id = '71de0a00-0000-4000-8000-000000000001';
    expect(operationFor('post', '/v1/videos/generate/')?.operationId).toBe('generateVideo');
    expect(operationFor('GET', `/videos/${id}/`)?.operationId).toBe('getVideo');
    expect(operationFor('GET', `/api/v1/videos/${id}/conversions/?x=1`)?.operationId).toBe('getConversionOptions');
    expect(operationFor('POST', `/v1/videos/${id}/conversions`)).toMatchObject({
      operationId: 'createConversion',
      rateClass: 'A',
      startsVideo: true,
    });
    expect(operationFor('GET', '/v1/video-settings/')?.rateClass).toBe('B');
    expect(operationFor('DELETE', '/v1/videos/')).toBeUndefined();
    expect(operationFor('GET', '/v1/videos/a/b/')).toBeUndefined();
  });
  it("reads a request path's parameters by the operation's template, as operationFor reads the path", () => {
    const id = '71de0a00-0000-4000-8000-000000000001';
    const conversions = operationById('createConversion');
    expect(conversions).toBe(OPERATIONS.find((o) => o.operationId === 'createConversion'));
    expect(pathParametersOf(conversions, `/api/v1/videos/${id}/conversions?x=1`)).toEqual({ video_id: id });
    // Decoded where the encoding is valid, kept as sent where it is not.
    expect(pathParametersOf(conversions, '/v1/videos/a%20b/conversions/')).toEqual({ video_id: 'a b' });
    expect(pathParametersOf(conversions, '/v1/videos/%E0%A4%A/conversions/')).toEqual({ video_id: '%E0%A4%A' });
    // Not this operation's path: another operation's (generate is no video id), or one segment too many.
    expect(pathParametersOf(conversions, '/v1/videos/generate/')).toBeUndefined();
    expect(pathParametersOf(conversions, `/v1/videos/${id}/conversions/x/`)).toBeUndefined();
    const list = operationById('listVideos');
    expect(pathParametersOf(list, '/v1/videos/')).toEqual({});
  });
  it('carries the numbers the interface states (a sanity check of the generator, not a restatement used by code)', () => {
    expect(RATE_LIMITS.A.requests).toBeLessThan(RATE_LIMITS.B.requests);
    expect(MAX_RUNNING).toBeGreaterThan(0);
    expect(PAGE_SIZE).toBeGreaterThan(0);
  });
});
