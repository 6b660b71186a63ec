// A small, fixed results file for the report tests (hand-made numbers, not a simulation).
import type { Engagement, RunResults } from '../../src/report/runFolder.js';

const m = (value: number, half = 0.02) => ({ value, low: value - half, high: value + half });
const rounds = (peak: number) => Array.from({ length: 41 }, (_, r) => (r === peak ? 0.6 : r === peak + 1 ? 0.4 : 0));

function duel(a: string, b: string, aWin: number, variant: string): Engagement {
  const draw = 0.1;
  return {
    experiment: 'duels',
    engagement: `duels/${a}/${b}`,
    kind: 'duel',
    a,
    b,
    variant,
    rules: variant.replace('v', ''),
    method: 'monte-carlo',
    trials: 8192,
    metrics: {
      a_win_rate: m(aWin),
      b_win_rate: m(1 - aWin - draw),
      draw_rate: m(draw, 0.005),
      mean_rounds: m(3, 0.1),
      mean_damage_by_a: m(2 + aWin, 0.05),
      mean_damage_by_b: m(3 - aWin, 0.05),
    },
    distribution: { name: 'rounds_to_decide', p: rounds(2 + Math.round(aWin * 3)) },
    placeholders: [],
  };
}

function attack(b: string, damage: number, variant: string): Engagement {
  const metrics = Object.fromEntries(
    ['p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_defense_damage', 'mean_sensors_damage', 'mean_thrusters_damage', 'mean_criticals', 'damage_per_100_tv'].map((k, i) => [k, m(k === 'mean_structure_damage' ? damage : 0.05 * (i + 1), 0)]),
  );
  return { experiment: 'md', engagement: `md/x.gunboat/${b}`, kind: 'attack', a: 'x.gunboat', b, variant, rules: variant.replace('v', ''), method: 'exact', trials: null, metrics, distribution: { name: 'structure_lost', p: [0.7, 0.2, 0.1, 0, 0, 0, 0, 0, 0, 0, 0] }, placeholders: ['x.gunboat.tv'] };
}

export function fixtureResults(): RunResults {
  const units = {
    'x.gunboat': { name: 'Gunboat', faction: 'Test', type: 'capital_ship', tv: 40, tv_placeholder: true },
    'x.fighter': { name: 'Fighter <b>&amp;', faction: 'Test', type: 'fighter', tv: 20, tv_placeholder: false },
    'x.raider': { name: 'Raider', faction: 'Test', type: 'exo_armor', tv: 25, tv_placeholder: false },
  };
  const experiments: Engagement[] = [];
  for (const v of ['v1.2.1', 'v1.2.2']) {
    const shift = v === 'v1.2.2' ? 0.1 : 0;
    experiments.push(duel('x.gunboat', 'x.fighter', 0.7, v), duel('x.fighter', 'x.gunboat', 0.2 + shift, v), duel('x.gunboat', 'x.raider', 0.6, v));
    experiments.push(duel('x.raider', 'x.gunboat', 0.3, v), duel('x.fighter', 'x.raider', 0.45, v), duel('x.raider', 'x.fighter', 0.45, v));
    experiments.push(attack('x.fighter', 0.4 + shift, v));
  }
  return { format: 'jwsim-results/1', seed: 'fixture', variants: [{ name: 'v1.2.1', rules: '1.2.1' }, { name: 'v1.2.2', rules: '1.2.2' }], units, experiments };
}
