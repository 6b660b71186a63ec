// The stopping decision of jwsim compare and the z of its repeated intervals (README "Did it
// change balance?").
import { describe, expect, it } from 'vitest';
import { Z95, normalQuantile, normalTwoSidedTail, simultaneousZ95 } from '../../src/stats/intervals.js';
import { EXACT_LOOKS, SEQUENTIAL_Z, repeatedP, repeatedZ95, settled, stoppingZ } from '../../src/stats/sequential.js';
import { openStream } from '../../src/rng/stream.js';

/**
 * Simulates `runs` engagements under compare's defaults (looks after chunks 3..16, stopping
 * z 3) chunk by chunk, with normal chunk means of a true `shift` and standard deviation `sd`,
 * and hands each one's mean and standard error at the look that stopped it to `atStop`.
 */
function simulateStops(seed: string, runs: number, shift: number, sd: number, settle: number, atStop: (d: number, se: number) => void): void {
  const rng = openStream({ seed, experiment: 'sequential', purpose: 'test', chunk: 0 });
  const gauss = () => {
    let u = 0;
    while (u === 0) u = rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
  const zStop = stoppingZ(FIRST, LAST);
  for (let r = 0; r < runs; r++) {
    let sum = 0;
    for (let k = 1; k <= LAST; k++) {
      sum += shift + sd * gauss();
      const d = sum / k;
      const se = sd / Math.sqrt(k);
      if (k === LAST || (k >= FIRST && settled(d, se, settle, zStop))) {
        atStop(d, se);
        break;
      }
    }
  }
}
/** compare's default look schedule: after chunks 3 to 16. */
const FIRST = 3;
const LAST = 16;

describe('sequential stopping', () => {
  it('stops when the shift is more than 3 standard errors from 0', () => {
    expect(SEQUENTIAL_Z).toBe(3);
    expect(settled(0.031, 0.01, 0.02)).toBe(true);
    expect(settled(-0.031, 0.01, 0.02)).toBe(true);
  });

  it('settles "did not move by more than settle" only when the whole 3-se interval lies within ±settle', () => {
    // No shift, 3 se = 0.015 < 0.02: settled.
    expect(settled(0, 0.005, 0.02)).toBe(true);
    // Shift 0.012 with 3 se = 0.0195: not yet moved (0.012 < 0.0195), and the interval
    // [-0.0075, 0.0315] reaches past 0.02, so it is not settled as smaller than 0.02.
    expect(settled(0.012, 0.0065, 0.02)).toBe(false);
    expect(settled(-0.012, 0.0065, 0.02)).toBe(false);
    // Shift 0.004 with 3 se = 0.015: the interval [-0.011, 0.019] is within ±0.02.
    expect(settled(0.004, 0.005, 0.02)).toBe(true);
    // An unexercised change: zero shift, zero se.
    expect(settled(0, 0, 0.02)).toBe(true);
  });

  it('uses a larger z when it is given one', () => {
    expect(settled(0.031, 0.01, 0.02, 3)).toBe(true);
    expect(settled(0.031, 0.01, 0.02, 3.2)).toBe(false);
  });
});

describe('repeated 95% intervals', () => {
  it('one look is the plain 95% interval', () => {
    expect(repeatedZ95(5, 5)).toBe(Z95);
  });

  it('equally spaced looks from the first chunk give the two-sided Pocock constants', () => {
    // Published constants for K looks at alpha = 0.05: 2.178, 2.289, 2.361, 2.413, 2.555.
    const pocock: Array<[number, number]> = [[2, 2.178], [3, 2.289], [4, 2.361], [5, 2.413], [10, 2.555]];
    for (const [k, z] of pocock) expect(Math.abs(repeatedZ95(1, k) - z)).toBeLessThan(0.008);
  });

  it('lies between the plain and the Bonferroni z, and grows with the looks', () => {
    const z = repeatedZ95(3, 16); // compare's defaults: 24,576 to 131,072 trials in chunks of 8,192
    expect(z).toBeGreaterThan(2.5);
    expect(z).toBeLessThan(2.6);
    expect(z).toBeLessThan(simultaneousZ95(14));
    expect(repeatedZ95(3, 20)).toBeGreaterThan(z);
    // Later first looks are closer together in information, so they cost less.
    expect(repeatedZ95(3, 16)).toBeLessThan(repeatedZ95(1, 14));
  });

  it('falls back to the Bonferroni z beyond EXACT_LOOKS looks', () => {
    expect(repeatedZ95(3, 3 + EXACT_LOOKS)).toBe(simultaneousZ95(EXACT_LOOKS + 1));
  });

  it('the stopping z is at least 3 and never below the interval z', () => {
    expect(stoppingZ(3, 16)).toBe(3);
    expect(stoppingZ(3, 200)).toBe(repeatedZ95(3, 200));
    expect(stoppingZ(3, 200)).toBeGreaterThan(3);
  });

  it('rejects a look schedule that is not one', () => {
    expect(() => repeatedZ95(0, 4)).toThrow(RangeError);
    expect(() => repeatedZ95(5, 4)).toThrow(RangeError);
  });

  it('covers the true shift at least 95% of the time where the plain interval does not', () => {
    // compare's defaults (looks after chunks 3..16, settle 0.02, stopping z 3) in the case
    // where the plain interval does worst: a true shift of 0.01 with a per-chunk standard
    // error of 0.03. Engagements are simulated chunk by chunk with normal chunk means.
    const [shift, sd] = [0.01, 0.03];
    const zInterval = repeatedZ95(FIRST, LAST);
    const runs = 6000;
    let plain = 0;
    let repeated = 0;
    simulateStops('coverage', runs, shift, sd, 0.02, (d, se) => {
      if (Math.abs(d - shift) <= Z95 * se) plain++;
      if (Math.abs(d - shift) <= zInterval * se) repeated++;
    });
    expect(plain / runs).toBeLessThan(0.93);
    expect(repeated / runs).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the normal two-sided tail', () => {
  it('gives 5% at 1.96 and keeps its precision far out in the tail', () => {
    expect(normalTwoSidedTail(Z95)).toBeCloseTo(0.05, 8);
    expect(normalTwoSidedTail(-Z95)).toBe(normalTwoSidedTail(Z95));
    expect(normalTwoSidedTail(0)).toBe(1);
    for (const p of [1e-3, 1e-6, 1e-10, 1e-14]) {
      const t = normalQuantile(p / 2); // the lower tail: 1 - p / 2 would lose p in rounding
      expect(Math.abs(normalTwoSidedTail(t) / p - 1)).toBeLessThan(1e-6);
    }
  });
});

describe('repeated p-values', () => {
  it('one look: the plain two-sided p-value', () => {
    expect(repeatedP(2.5, 4, 4)).toBe(normalTwoSidedTail(2.5));
    expect(repeatedP(-2.5, 4, 4)).toBe(normalTwoSidedTail(2.5));
  });

  it('crosses 0.05 where the repeated 95% interval starts to exclude zero', () => {
    for (const [first, last] of [[1, 2], [1, 5], [2, 4], [3, 16], [1, 30]]) {
      const z = repeatedZ95(first, last);
      expect(repeatedP(z + 0.002, first, last), `${first}..${last}`).toBeLessThanOrEqual(0.05);
      expect(repeatedP(z - 0.002, first, last), `${first}..${last}`).toBeGreaterThan(0.05);
    }
  });

  it('falls as the shift grows, between the plain p-value and the Bonferroni bound', () => {
    let before = 1;
    for (let t = 0; t <= 7; t += 0.25) {
      const p = repeatedP(t, 3, 16);
      expect(p, `t = ${t}`).toBeLessThanOrEqual(before);
      expect(p, `t = ${t}`).toBeGreaterThanOrEqual(normalTwoSidedTail(t) * (1 - 1e-9));
      expect(p, `t = ${t}`).toBeLessThanOrEqual(Math.min(1, 14 * normalTwoSidedTail(t)));
      before = p;
    }
    expect(repeatedP(0, 3, 16)).toBe(1);
    expect(repeatedP(NaN, 3, 16)).toBeNaN();
    expect(repeatedP(3, 3, 3 + EXACT_LOOKS)).toBe(Math.min(1, (EXACT_LOOKS + 1) * normalTwoSidedTail(3)));
    expect(() => repeatedP(1, 0, 4)).toThrow(RangeError);
  });

  it('is at most alpha only alpha of the time when nothing moved, whichever look stops', () => {
    // compare's defaults (looks after chunks 3..16, settle 0.02, stopping z 3), no true shift;
    // the plain p-value at the stop would be below 0.05 more often than 5%.
    const runs = 4000;
    let repeated = 0;
    let plain = 0;
    simulateStops('null-p', runs, 0, 0.03, 0.002, (d, se) => {
      // The repeated p-value is never below the plain one, so only those at most 0.05 are worked out.
      if (normalTwoSidedTail(d / se) <= 0.05) {
        plain++;
        if (repeatedP(d / se, FIRST, LAST) <= 0.05) repeated++;
      }
    });
    // 0.05 plus three standard errors of a 4,000-run share.
    expect(repeated / runs).toBeLessThan(0.05 + 3 * Math.sqrt(0.05 * 0.95 / runs));
    expect(plain / runs).toBeGreaterThan(0.05);
  });
});
