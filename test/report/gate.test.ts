// The nightly gate's significance over many metrics: simultaneous (Bonferroni) intervals.
import { describe, expect, it } from 'vitest';
import { byExcess, gate, gateThreshold, type GateShift } from '../../src/report/gate.js';
import type { Engagement, RunResults } from '../../src/report/runFolder.js';
import { Z95 } from '../../src/stats/intervals.js';

/** A run whose engagement i has one rate metric, value values[i], with standard error se. */
function run(values: number[], se: number): RunResults {
  const experiments = values.map((value, i): Engagement => ({
    experiment: 'x',
    engagement: `x/${i}`,
    kind: 'duel',
    a: 'a',
    b: 'b',
    variant: 'v',
    rules: '1.2.2',
    method: 'monte-carlo',
    trials: 1000,
    metrics: { a_win_rate: { value, low: value - Z95 * se, high: value + Z95 * se } },
    distribution: { name: 'rounds_to_decide', p: [] },
    placeholders: [],
  }));
  return { format: 'jwsim-results/1', seed: 's', variants: [{ name: 'v', rules: '1.2.2' }], units: {}, experiments };
}

describe('nightly gate', () => {
  // Each run's se 0.025/sqrt 2, so a shift's se is 0.025; a shift of 0.0625 is 2.5 se (two-sided p 0.0124).
  const se = 0.025 / Math.SQRT2;

  it('one shift of 2.5 se beyond max-shift fails (a single test at 95%)', () => {
    const g = gate(run([0.5625], se), run([0.5], se));
    expect(g.tested).toBe(1);
    expect(g.z).toBe(Z95);
    expect(g.failures.length).toBe(1);
  });

  it('1000 shifts of 2.5 se each are not significant together: the intervals are simultaneous', () => {
    // Per-metric 95% intervals would fail all 1000; noise alone makes about 12 such shifts in
    // 1000 re-randomised metrics, so a per-metric test fails almost every noisy night.
    const g = gate(run(new Array(1000).fill(0.5625), se), run(new Array(1000).fill(0.5), se));
    expect(g.tested).toBe(1000);
    expect(g.z).toBeCloseTo(4.055626981121907, 12);
    expect(g.failures.length).toBe(0);
    expect(g.shifts[0].high - g.shifts[0].shift).toBeCloseTo(4.055626981121907 * 0.025, 12);
  });

  it('among 1000 tested shifts, one of 5 se beyond max-shift still fails; unchanged metrics are not in the family', () => {
    const now = [0.625, ...new Array(999).fill(0.5)];
    const g = gate(run(now, se), run(new Array(1000).fill(0.5), se));
    expect(g.tested).toBe(1);
    expect(g.failures.map((f) => f.engagement)).toEqual(['x/0']);
    const noisy = gate(run([0.625, ...new Array(999).fill(0.5625)], se), run(new Array(1000).fill(0.5), se));
    expect(noisy.tested).toBe(1000);
    expect(noisy.failures.map((f) => f.engagement)).toEqual(['x/0']);
  });

  it('thresholds: absolute for rates, relative to the baseline (at least 1) for means; shifts ranked by size over their threshold', () => {
    expect(gateThreshold('a_win_rate', 0.5, 0.05)).toBe(0.05);
    expect(gateThreshold('mean_rounds', 4, 0.05)).toBeCloseTo(0.2, 12);
    expect(gateThreshold('mean_structure_damage', 0.2, 0.05)).toBe(0.05);
    const shift = (metric: string, baseline: number, d: number, fails: boolean): GateShift => ({ engagement: metric, variant: 'v', metric, baseline, current: baseline + d, shift: d, low: d, high: d, significant: true, fails });
    // +3.9 rounds from 10 is 7.8 thresholds; a win-rate shift of 0.47 is 9.4: the win rate comes first.
    const order = byExcess([shift('mean_rounds', 10, 3.9, true), shift('a_win_rate', 0.5, -0.47, true), shift('b_win_rate', 0.2, 0.9, false)], 0.05);
    expect(order.map((x) => x.metric)).toEqual(['a_win_rate', 'mean_rounds', 'b_win_rate']);
  });

  it('damage per 100 TV meets the same test as the Structure damage it scales (its floor is one Structure point on its scale)', () => {
    // The Mass Driver case: 0.028 Structure (0.116 per 100 TV at TV 24) falls to 0, with almost no noise.
    const attack = (structure: number): RunResults => {
      const fig = (value: number) => ({ value, low: value - 1e-4, high: value + 1e-4 });
      const e: Engagement = { experiment: 'md', engagement: 'md/w/t', kind: 'attack', a: 'w', b: 't', variant: 'v', rules: '1.2.2', method: 'monte-carlo', trials: 100000, metrics: { mean_structure_damage: fig(structure), damage_per_100_tv: fig((structure * 100) / 24) }, distribution: { name: 'structure_lost', p: [] }, placeholders: [] };
      return { format: 'jwsim-results/1', seed: 's', variants: [{ name: 'v', rules: '1.2.2' }], units: { w: { name: 'W', faction: 'F', type: 'exo_armor', tv: 24, tv_placeholder: false } }, experiments: [e] };
    };
    const g = gate(attack(0), attack(0.028));
    const by = new Map(g.shifts.map((x) => [x.metric, x]));
    expect(by.get('mean_structure_damage')!.significant).toBe(true);
    expect(by.get('damage_per_100_tv')!.significant).toBe(true);
    expect(by.get('mean_structure_damage')!.fails).toBe(false);
    expect(by.get('damage_per_100_tv')!.fails).toBe(false);
    expect(by.get('damage_per_100_tv')!.threshold).toBeCloseTo((0.05 * 100) / 24, 12);
    // Five times as much damage lost fails both alike.
    const big = gate(attack(0), attack(0.14));
    expect(big.failures.map((x) => x.metric).sort()).toEqual(['damage_per_100_tv', 'mean_structure_damage']);
  });
});
