// Mismatches belong to the check that records them, also when runs share a process concurrently (the
// self-test's breaks run at once). A module-wide list let one run's runner take another's mismatch.
import { describe, expect, it } from 'vitest';
import { collectingMismatches, mismatch, type Mismatch } from '../src/checks/types.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('mismatch collection', () => {
  it('keeps the mismatches of interleaved checks apart', async () => {
    const a: Mismatch[] = [], b: Mismatch[] = [];
    await Promise.all([
      collectingMismatches(a, async () => { await tick(); mismatch([8], 'error_code', 'from a'); await tick(); }),
      collectingMismatches(b, async () => { mismatch([2], 'status', 'from b'); await tick(); await tick(); mismatch([2], 'status', 'from b again'); }),
    ]);
    expect(a.map((m) => m.message)).toEqual(['from a']);
    expect(b.map((m) => m.message)).toEqual(['from b', 'from b again']);
  });

  it('refuses a mismatch recorded outside a check', () => {
    expect(() => mismatch([2], 'status', 'nowhere')).toThrow(/outside a check/);
  });
});
