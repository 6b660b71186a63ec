// Interval formulas against closed forms and published quantiles.
import { describe, expect, it } from 'vitest';
import { Z95, normalQuantile, simultaneousZ95, wilson } from '../../src/stats/intervals.js';

describe('wilson', () => {
  it('matches the closed forms at 0, n/2 and n successes, and is [0, 1] with no trials', () => {
    const z2 = Z95 * Z95;
    // k = 0: [0, z^2 / (n + z^2)]; k = n: [n / (n + z^2), 1].
    expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(z2 / (10 + z2), 15) });
    const all = wilson(10, 10);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(10 / (10 + z2), 15);
    const half = wilson(5, 10);
    expect(half.low).toBeCloseTo(0.236593090512564, 12);
    expect(half.high).toBeCloseTo(1 - half.low, 15);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('normalQuantile', () => {
  it('gives the standard normal quantiles to double precision', () => {
    // Values of the inverse normal CDF (Python statistics.NormalDist().inv_cdf, also AS 241).
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalQuantile(0.9995)).toBeCloseTo(3.2905267314919255, 13);
    expect(normalQuantile(1 - 0.025 / 1000)).toBeCloseTo(4.055626981121907, 12);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12);
    expect(normalQuantile(0.3)).toBeCloseTo(-0.5244005127080407, 14);
    expect(normalQuantile(0.5)).toBe(0);
  });

  it('simultaneous 95% intervals: Z95 for one test, the Bonferroni quantile for many', () => {
    expect(simultaneousZ95(0)).toBe(Z95);
    expect(simultaneousZ95(1)).toBe(Z95);
    expect(simultaneousZ95(10)).toBeCloseTo(2.807033768343811, 12);
    expect(simultaneousZ95(1000)).toBeCloseTo(4.055626981121907, 12);
  });
});
