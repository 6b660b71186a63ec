// The stopping decision of jwsim compare (README "Did it change balance?").
import { describe, expect, it } from 'vitest';
import { SEQUENTIAL_Z, settled } from '../../src/stats/sequential.js';

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
});
