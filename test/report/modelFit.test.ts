// The strength model's fit (UnitEfficiency.misfit): near 0 when the duels follow the model,
// large when they cannot (a rock-paper-scissors roster), and said in words for outputs.
import { describe, expect, it } from 'vitest';
import { modelFitNote, unitEfficiency } from '../../src/report/efficiency.js';
import { duelRoster } from '../helpers/duelRoster.js';

/** Ordered duels of three units at TVs 10, 20, 40 with A's win rates from `win(a, b)` (no draws). */
const roster = (win: (a: number, b: number) => number) => duelRoster([10, 20, 40], win);

describe('strength model fit', () => {
  it('duels that follow Bradley-Terry strengths 1, 2, 4 fit it: misfit near 0', () => {
    const s = [1, 2, 4];
    const units = unitEfficiency(roster((i, j) => s[i] / (s[i] + s[j])), 'v');
    for (const u of units) {
      expect(u.misfit).toBeLessThan(0.005);
      expect(u.pairNoise).toBeGreaterThan(0);
    }
  });
  it('a rock-paper-scissors roster cannot fit: each unit misses by about 0.4', () => {
    const beats = (i: number, j: number) => (j === (i + 1) % 3 ? 0.9 : 0.1);
    const units = unitEfficiency(roster(beats), 'v');
    for (const u of units) expect(u.misfit).toBeGreaterThan(0.35);
    const note = modelFitNote(units)!;
    expect(note).toMatch(/^Model fit: a unit's duel scores differ from what the fitted strengths predict by 0\.\d{3} .* against Monte Carlo noise of 0\.00\d per pair score/);
    expect(modelFitNote([])).toBeNull();
  });
});
