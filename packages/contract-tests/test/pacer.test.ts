import { describe, expect, it } from 'vitest';
import { Pacer } from '../src/pacer.ts';
import { redact, registerSecret } from '../src/redact.ts';

function fakeClock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), get t() { return t; } };
}

describe('Pacer', () => {
  it('lets a class send its limit at once, then waits for the oldest to leave the window', async () => {
    const c = fakeClock();
    const p = new Pacer({ classes: { B: { limit: 5, windowMs: 10_000 } }, now: c.now, sleep: c.sleep, marginMs: 0 });
    for (let i = 0; i < 5; i++) (await p.acquire('acct', 'B')).done();
    expect(c.t).toBe(0);
    (await p.acquire('acct', 'B')).done();
    expect(c.t).toBe(10_000);
  });

  it('keeps accounts and classes apart', async () => {
    const c = fakeClock();
    const p = new Pacer({ classes: { A: { limit: 2, windowMs: 10_000 }, B: { limit: 5, windowMs: 10_000 } }, now: c.now, sleep: c.sleep, marginMs: 0 });
    for (let i = 0; i < 2; i++) (await p.acquire('one', 'A')).done();
    (await p.acquire('two', 'A')).done();
    (await p.acquire('one', 'B')).done();
    expect(c.t).toBe(0);
    (await p.acquire('one', 'A')).done();
    expect(c.t).toBe(10_000);
  });

  it('learns a scaled window from RateLimit-Policy and applies the scale to the other classes', () => {
    const p = new Pacer({ classes: { A: { limit: 2, windowMs: 10_000 }, B: { limit: 5, windowMs: 10_000 } } });
    p.observe('acct', 'B', new Headers({ 'ratelimit-policy': '5;w=0.1' }));
    expect(p.classOf('B')).toEqual({ limit: 5, windowMs: 100 });
    expect(p.classOf('A')).toEqual({ limit: 2, windowMs: 100 });
  });

  it('waits out RateLimit-Remaining 0 until RateLimit-Reset', async () => {
    const c = fakeClock();
    const p = new Pacer({ classes: { B: { limit: 5, windowMs: 10_000 } }, now: c.now, sleep: c.sleep, marginMs: 0 });
    p.observe('acct', 'B', new Headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': '3.5' }));
    (await p.acquire('acct', 'B')).done();
    expect(c.t).toBe(3500);
  });

  it('counts a request in flight against the window', async () => {
    const c = fakeClock();
    const p = new Pacer({ classes: { A: { limit: 1, windowMs: 1000 } }, now: c.now, sleep: c.sleep, marginMs: 0 });
    const slot = await p.acquire('acct', 'A');
    expect(p.delay('acct', 'A')).toBeGreaterThan(0);
    slot.done();
    expect(p.delay('acct', 'A')).toBe(1000);
  });
});

describe('redact', () => {
  it('removes every registered key from a text', () => {
    registerSecret('super-secret-key-123');
    expect(redact('Bearer super-secret-key-123 failed')).toBe('Bearer *** failed');
  });
});
