// Benjamini-Hochberg q-values (jwsim compare's false discovery rate).
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from '../../src/stats/fdr.js';
import { openStream } from '../../src/rng/stream.js';

describe('Benjamini-Hochberg q-values', () => {
  it('a worked example: m p(j) / j, then the running minimum from the largest p down', () => {
    // Sorted: 0.005, 0.01, 0.03, 0.04 -> 4 x p / rank = 0.02, 0.02, 0.04, 0.04.
    const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.005]);
    [0.02, 0.04, 0.04, 0.02].forEach((x, i) => expect(q[i]).toBeCloseTo(x, 15));
    // A later rank can lower an earlier one: 0.02 at rank 2 of 2 gives 0.02 to both.
    expect(benjaminiHochberg([0.012, 0.02])).toEqual([0.02, 0.02]);
  });

  it('is never below p, never above 1, keeps the order of p, and leaves NaN out of the family', () => {
    const p = [0.9, 0.2, NaN, 0.2, 0.0001, 1];
    const q = benjaminiHochberg(p);
    expect(q[2]).toBeNaN();
    expect(q[1]).toBe(q[3]);
    // Five tests in the family, not six.
    expect(q[4]).toBeCloseTo(5 * 0.0001, 15);
    for (const i of [0, 1, 3, 4, 5]) {
      expect(q[i]).toBeGreaterThanOrEqual(p[i]);
      expect(q[i]).toBeLessThanOrEqual(1);
    }
    expect(q[4]).toBeLessThan(q[1]);
    expect(q[1]).toBeLessThan(q[0]);
    expect(benjaminiHochberg([])).toEqual([]);
  });

  it('keeps the false discovery rate at 5%: 900 true nulls among 1,000 tests', () => {
    const rng = openStream({ seed: 'fdr', experiment: 'bh', purpose: 'test', chunk: 0 });
    const rounds = 200;
    let fdp = 0;
    let found = 0;
    for (let r = 0; r < rounds; r++) {
      // Nulls: uniform p. Real effects: p of a one-sided shift of 3.5 standard errors, drawn as u^8 (small).
      const p = Array.from({ length: 1000 }, (_, i) => (i < 900 ? rng.next() : rng.next() ** 8 * 0.01));
      const q = benjaminiHochberg(p);
      const calls = q.map((x, i) => [x <= 0.05, i] as const).filter(([c]) => c);
      const wrong = calls.filter(([, i]) => i < 900).length;
      fdp += calls.length ? wrong / calls.length : 0;
      found += calls.length - wrong;
    }
    // The step-up procedure's bound is 5% x 900 / 1000 = 4.5% on average.
    expect(fdp / rounds).toBeLessThan(0.05);
    expect(found / rounds).toBeGreaterThan(90);
  });
});
