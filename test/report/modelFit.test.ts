// The strength model's fit (UnitEfficiency.misfit): near 0 when the duels follow the model,
// large when they cannot (a rock-paper-scissors roster), and said in words for outputs.
import { describe, expect, it } from 'vitest';
import { modelFitNote, unitEfficiency } from '../../src/report/efficiency.js';
import type { Engagement, RunResults } from '../../src/report/runFolder.js';

const fig = (value: number) => ({ value, low: value, high: value });

/** Ordered duels of three units at TVs 10, 20, 40 with A's win rates from `win(a, b)` (no draws). */
function roster(win: (a: number, b: number) => number): RunResults {
  const ids = ['u.a', 'u.b', 'u.c'];
  const experiments: Engagement[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      if (i === j) continue;
      const w = win(i, j);
      experiments.push({
        experiment: 'd', engagement: `d/${ids[i]}/${ids[j]}`, kind: 'duel', a: ids[i], b: ids[j], variant: 'v', rules: '1.2.2', method: 'monte-carlo', trials: 100_000,
        metrics: { a_win_rate: fig(w), b_win_rate: fig(1 - w), draw_rate: fig(0), mean_rounds: fig(3), mean_damage_by_a: fig(1), mean_damage_by_b: fig(1) },
        distribution: { name: 'rounds_to_decide', p: [] }, placeholders: [],
      });
    }
  const units = Object.fromEntries(ids.map((id, i) => [id, { name: id, faction: 'Test', type: 'exo_armor', tv: 10 * 2 ** i, tv_placeholder: false }]));
  return { format: 'jwsim-results/1', seed: 's', variants: [{ name: 'v', rules: '1.2.2' }], units, experiments };
}

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
