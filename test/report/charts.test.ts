// Chart builders produce valid Vega-Lite (compiled here), stable specs (snapshots), and
// render to SVG and PNG; efficiency figures behave as defined.
import { describe, expect, it } from 'vitest';
import { attackProfile, efficiencyTrends, matchupMatrix, pointsEfficiency, timeToKill, versionComparison } from '../../src/report/charts.js';
import { bradleyTerry, fairTvs, unitEfficiency } from '../../src/report/efficiency.js';
import { shifts } from '../../src/report/report.js';
import { render, toVega } from '../../src/report/render.js';
import { fixtureResults } from './fixture.js';
import type { Engagement } from '../../src/report/runFolder.js';

const results = fixtureResults();
const eff = new Map(['v1.2.1', 'v1.2.2'].map((v) => [v, unitEfficiency(results, v)]));
const specs = {
  matchups: matchupMatrix(results, 'v1.2.2'),
  efficiency: pointsEfficiency(eff.get('v1.2.2')!, 'v1.2.2'),
  attacks: attackProfile(results, 'v1.2.2'),
  'time-to-kill': timeToKill(results, 'v1.2.2'),
  compare: versionComparison(shifts(results, eff, 'v1.2.1', 'v1.2.2'), 'v1.2.1', 'v1.2.2'),
};

describe('chart builders', () => {
  for (const [name, spec] of Object.entries(specs)) {
    it(`${name}: valid Vega-Lite, stable spec`, async () => {
      expect(spec).not.toBeNull();
      const vega = await toVega(spec!);
      expect(vega.marks?.length ?? 0).toBeGreaterThan(0);
      await expect(JSON.stringify(spec, null, 2) + '\n').toMatchFileSnapshot(`__snapshots__/${name}.vl.json`);
    });
  }

  it('points efficiency colours each unit by its fair-TV verdict, as the table beside it does', () => {
    const units = eff.get('v1.2.2')!;
    const rows = (specs.efficiency as { data: { values: Array<{ unit: string; mark: string }> } }).data.values;
    const want: Record<string, string> = { 'under-costed': 'likely under-costed', 'over-costed': 'likely over-costed', fair: 'not clearly more than 5% off', unknown: 'no fair TV' };
    expect(rows.length).toBe(2 * units.length);
    for (const r of rows) {
      const u = units.find((x) => x.name === r.unit)!;
      expect(r.mark).toContain(want[u.verdict]);
    }
    // Both verdicts the fixture has appear (a chart that ignored them would show one colour).
    expect(new Set(rows.map((r) => r.mark)).size).toBeGreaterThan(1);
  });

  it('the duel matrix colours each cell by the row unit\'s score (wins + half the draws), not its win rate alone', () => {
    const rows = (specs.matchups as { data: { values: Array<{ row: string; column: string; score: number; win: number; draw: number; loss: number; low: number; high: number }> } }).data.values;
    const duels = results.experiments.filter((e) => e.kind === 'duel' && e.variant === 'v1.2.2');
    expect(rows).toHaveLength(duels.length);
    for (const [i, e] of duels.entries()) {
      const r = rows[i];
      expect(r.score).toBeCloseTo(e.metrics.a_win_rate.value + e.metrics.draw_rate.value / 2, 12);
      expect([r.win, r.draw, r.loss]).toEqual([e.metrics.a_win_rate.value, e.metrics.draw_rate.value, e.metrics.b_win_rate.value]);
      expect(r.low).toBeLessThanOrEqual(r.score);
      expect(r.high).toBeGreaterThanOrEqual(r.score);
    }
    const layer = (specs.matchups as { layer: Array<{ encoding: { color?: { field: string } } }> }).layer[0];
    expect(layer.encoding.color!.field).toBe('score');
  });

  it('no data, no chart', () => {
    const empty = { ...results, experiments: [] };
    expect(matchupMatrix(empty, 'v1.2.2')).toBeNull();
    expect(attackProfile(empty, 'v1.2.2')).toBeNull();
    expect(pointsEfficiency([], 'v1.2.2')).toBeNull();
    expect(versionComparison([], 'a', 'b')).toBeNull();
  });

  it('what moved: one panel per metric, each on its own scale (win rates and Structure points are not comparable)', async () => {
    const spec = versionComparison([
      { label: 'duel', metric: 'a_win_rate', difference: -0.4, low: -0.45, high: -0.35 },
      { label: 'attack', metric: 'mean_structure_damage', difference: -0.03, low: -0.031, high: -0.029 },
    ], 'a', 'b')!;
    expect(spec.facet).toEqual(expect.objectContaining({ row: expect.objectContaining({ field: 'metric' }) }));
    expect(spec.resolve).toEqual({ scale: { x: 'independent', y: 'independent' } });
    const { svg } = await render(spec);
    expect(svg).toContain('a_win_rate');
    expect(svg).toContain('mean_structure_damage');
  });

  it('attack profiles: probabilities on a 0-1 scale, rating damage in points on a panel of its own', async () => {
    const spec = specs.attacks as { hconcat: Array<{ transform: Array<{ filter: string }>; spec: { encoding: { y: { title: string; scale?: { domain: number[] } } } } }> };
    expect(spec.hconcat).toHaveLength(2);
    const [left, right] = spec.hconcat;
    expect(left.spec.encoding.y).toEqual(expect.objectContaining({ title: 'probability', scale: { domain: [0, 1] } }));
    expect(right.spec.encoding.y.title).toBe('mean points');
    expect(right.spec.encoding.y.scale).toBeUndefined();
    const rows = (specs.attacks as { data: { values: Array<{ group: string; outcome: string }> } }).data.values;
    const passes = (filter: string, group: string) => new Function('datum', `return ${filter}`)({ group }) as boolean;
    for (const r of rows) expect(passes(left.transform[0].filter, r.group), r.outcome).toBe(!r.outcome.endsWith(' dmg'));
    const { svg } = await render(specs.attacks!);
    expect(svg).toContain('mean points');
  });

  it('an exact zero shift is unchanged, not within noise; rams get attack profiles too', () => {
    const spec = versionComparison([{ label: 'ram', metric: 'mean_structure_damage', difference: 0, low: 0, high: 0 }, { label: 'duel', metric: 'a_win_rate', difference: 0.01, low: -0.01, high: 0.03 }], 'a', 'b')!;
    expect((spec.data as { values: Array<{ moved: string }> }).values.map((r) => r.moved)).toEqual(['unchanged', 'within noise']);
    const ram = { ...results.experiments.find((e) => e.kind === 'attack' && e.variant === 'v1.2.2')!, kind: 'ram' as const, engagement: 'r/x.gunboat/x.fighter' };
    const profile = attackProfile({ ...results, experiments: [ram] }, 'v1.2.2')!;
    expect((profile.data as { values: Array<{ engagement: string }> }).values[0].engagement).toBe('Gunboat -> Fighter <b>&amp; (ram)');
  });

  it('trends: each night is named by its number in the history and its date, in run order', async () => {
    const row = (run: number, recordedAt: string, score: number) => ({ run, recordedAt, variant: 'v', unit: 'Gunboat', score, low: score - 0.01, high: score + 0.01 });
    const spec = efficiencyTrends([row(10, '2026-11-28T02:00:00.000Z', 0.5), row(9, '2026-11-27T02:00:00.000Z', 0.48)], 'v')!;
    expect((spec.data as { values: Array<{ night: string }> }).values.map((r) => r.night)).toEqual(['10: 2026-11-28', '9: 2026-11-27']);
    const { svg } = await render(spec);
    expect(svg.indexOf('9: 2026-11-27')).toBeLessThan(svg.indexOf('10: 2026-11-28'));
    expect(efficiencyTrends([row(1, '2026-11-28T02:00:00.000Z', 0.5)], 'v')).toBeNull();
  });

  it('time to decide weighs each opponent by its decided duels: a pair that always draws does not halve the curve', () => {
    const duel = (b: string, draw: number, p: number[]): Engagement => ({
      experiment: 'd', engagement: `d/x.gunboat/${b}`, kind: 'duel', a: 'x.gunboat', b, variant: 'v1.2.2', rules: '1.2.2', method: 'monte-carlo', trials: 1000,
      metrics: { a_win_rate: { value: 1 - draw, low: 0, high: 1 }, b_win_rate: { value: 0, low: 0, high: 0 }, draw_rate: { value: draw, low: 0, high: 1 } },
      distribution: { name: 'rounds_to_decide', p }, placeholders: [],
    });
    const decidedAt2 = Array.from({ length: 41 }, (_, r) => (r === 2 ? 1 : 0));
    const spec = timeToKill({ ...results, experiments: [duel('x.fighter', 0, decidedAt2), duel('x.raider', 1, new Array(41).fill(0))] }, 'v1.2.2')!;
    const at = (r: number) => (spec.data as { values: Array<{ round: number; cumulative: number }> }).values.find((x) => x.round === r)!.cumulative;
    expect([at(1), at(2), at(3)]).toEqual([0, 1, 1]);
    expect(timeToKill({ ...results, experiments: [duel('x.raider', 1, new Array(41).fill(0))] }, 'v1.2.2')).toBeNull();
  });

  it('renders to SVG and PNG', async () => {
    const drawn = await render(specs.matchups!);
    const { svg } = drawn;
    const png = await drawn.png;
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Gunboat');
    expect(svg).toContain('Fighter &lt;b&gt;&amp;amp;'); // names are escaped in SVG
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeGreaterThan(1000);
  });
});

describe('points efficiency', () => {
  it('score vs field counts draws as half and averages a unit\'s duels as A and as B', () => {
    const g = eff.get('v1.2.1')!.find((u) => u.id === 'x.gunboat')!;
    // As A: 0.7 + 0.05 and 0.6 + 0.05; as B: (1 - 0.2 - 0.1) + 0.05 and (1 - 0.3 - 0.1) + 0.05.
    expect(g.score.value).toBeCloseTo((0.75 + 0.65 + 0.75 + 0.65) / 4, 12);
    expect(g.duels).toBe(4);
    expect(g.score.low).toBeLessThan(g.score.value);
  });

  it('Bradley-Terry recovers strengths from exact win rates', () => {
    const s = [1, 2, 4];
    const games = [[0, 1000, 1000], [1000, 0, 1000], [1000, 1000, 0]];
    const wins = s.map((si, i) => s.map((sj, j) => (i === j ? 0 : (1000 * si) / (si + sj))));
    const fit = bradleyTerry(wins, games);
    expect(fit[1] / fit[0]).toBeCloseTo(2, 6);
    expect(fit[2] / fit[0]).toBeCloseTo(4, 6);
  });

  it('fair TV: a roster on its price curve is fairly priced; a unit stronger than its price is worth more', () => {
    const tvs = [10, 20, 40, 80];
    const onCurve = tvs.map((t) => t ** 1.5);
    fairTvs(onCurve, tvs).forEach((f, i) => expect(f).toBeCloseTo(tvs[i], 9));
    const strong = [...onCurve];
    strong[1] *= 3;
    const fair = fairTvs(strong, tvs);
    expect(fair[1]).toBeGreaterThan(20);
    // No price curve (strength falls with TV): no fair TV.
    expect(fairTvs([4, 3, 2, 1], tvs).every(Number.isNaN)).toBe(true);
  });
});
