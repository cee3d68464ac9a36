// At most once for every POST: where to look for what a create may have made, and how to recognise it.
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, findCreated, newestPages, PAGE_SIZE } from '../src/index.js';

const at = (ms: number) => new Date(ms).toISOString();
const T = Date.parse('2026-11-23T00:00:00Z');

describe('newestPages', () => {
  it('the first page, and the last when there are several (the order is not stated)', () => {
    expect(newestPages({ total_count: 0, items_per_page: PAGE_SIZE })).toEqual([1]);
    expect(newestPages({ total_count: PAGE_SIZE, items_per_page: PAGE_SIZE })).toEqual([1]);
    expect(newestPages({ total_count: PAGE_SIZE * 2 + 1, items_per_page: PAGE_SIZE })).toEqual([1, 3]);
    // A page size the service does not send: the document's.
    expect(newestPages({ total_count: PAGE_SIZE + 1 })).toEqual([1, 2]);
  });
});

describe('findCreated', () => {
  const items = [
    { video_id: 'old', prompt: 'a cat', created_at: at(T - CLOCK_SKEW_MS - 1) },
    { video_id: 'other', prompt: 'a dog', created_at: at(T + 5) },
    { video_id: 'mine', prompt: 'a cat', created_at: at(T + 10) },
    { video_id: 'skewed', prompt: 'a cat', created_at: at(T - 1000) },
  ];
  it('the newest video with the prompt, created since the first attempt less the clock skew', () => {
    expect(findCreated(items, { prompt: 'a cat', sentAt: T })?.video_id).toBe('mine');
    expect(findCreated(items.slice(3), { prompt: 'a cat', sentAt: T })?.video_id).toBe('skewed');
  });
  it('none older than the skew, none with another prompt, none the caller already knows', () => {
    expect(findCreated(items.slice(0, 2), { prompt: 'a cat', sentAt: T })).toBeUndefined();
    expect(findCreated(items, { prompt: 'a cat', sentAt: T, known: new Set(['mine', 'skewed']) })).toBeUndefined();
    expect(findCreated([null, 3, { prompt: 'a cat' }], { prompt: 'a cat', sentAt: T })).toBeUndefined();
  });
});
