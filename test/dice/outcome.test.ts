// The outcome code's lookup tables against the code's own definition (two bits per face).
import { describe, expect, it } from 'vitest';
import { DAMAGE_ORDER, DAMAGE_ORDER_STRIDE, MAG_D, MAG_Q, OUTCOME_CODES, RESULT_COUNT, magOf, outcomeName, parseOutcome } from '../../src/dice/outcome.js';

describe('DAMAGE_ORDER', () => {
  it('lists every Result of every outcome, lowest Magnitude first, then lowest Value', () => {
    for (let code = 0; code < OUTCOME_CODES; code++) {
      const want: number[] = [];
      for (let mag = MAG_D; mag <= MAG_Q; mag++) for (let face = 1; face <= 6; face++) if (magOf(code, face) === mag) want.push(mag * 10 + face);
      const at = code * DAMAGE_ORDER_STRIDE;
      const n = DAMAGE_ORDER[at];
      expect(n).toBe(RESULT_COUNT[code]);
      const got = Array.from(DAMAGE_ORDER.subarray(at + 1, at + 1 + n), (e) => (e >> 3) * 10 + (e & 7));
      expect(got).toEqual(want);
    }
  });

  it('for example [D5,T2,Q1,D3] is taken as D3, D5, T2, Q1', () => {
    const code = parseOutcome('[D5,T2,Q1,D3]')!;
    expect(outcomeName(code)).toBe('[Q1,T2,D3,D5]');
    const at = code * DAMAGE_ORDER_STRIDE;
    expect(Array.from(DAMAGE_ORDER.subarray(at, at + 5))).toEqual([4, (1 << 3) | 3, (1 << 3) | 5, (2 << 3) | 2, (3 << 3) | 1]);
  });
});
