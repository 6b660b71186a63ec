// Run results of a made-up roster's ordered duel matrix, for tests of the points-efficiency
// figures: units u.a, u.b, ... at the given TVs, side A winning each pair at a chosen rate.
import type { Engagement, RunResults } from '../../src/report/runFolder.js';

const fig = (value: number) => ({ value, low: value, high: value });

/** Ordered duels of units at `tvs`, A's win rate win(i, j), no draws, 100,000 duels a pair. */
export function duelRoster(tvs: readonly number[], win: (i: number, j: number) => number): RunResults {
  const ids = tvs.map((_, i) => `u.${String.fromCharCode(97 + i)}`);
  const experiments: Engagement[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = 0; j < ids.length; j++) {
      if (i === j) continue;
      const w = win(i, j);
      experiments.push({
        experiment: 'd', engagement: `d/${ids[i]}/${ids[j]}`, kind: 'duel', a: ids[i], b: ids[j], variant: 'v', rules: '1.2.2', method: 'monte-carlo', trials: 100_000,
        metrics: { a_win_rate: fig(w), b_win_rate: fig(1 - w), draw_rate: fig(0), mean_rounds: fig(3), mean_damage_by_a: fig(1), mean_damage_by_b: fig(1) },
        distribution: { name: 'rounds_to_decide', p: [] }, placeholders: [],
      });
    }
  const units = Object.fromEntries(ids.map((id, i) => [id, { name: id, faction: 'Test', type: 'exo_armor', tv: tvs[i], tv_placeholder: false }]));
  return { format: 'jwsim-results/1', seed: 's', variants: [{ name: 'v', rules: '1.2.2' }], units, experiments };
}
