// The roster range of a fair TV (UnitEfficiency.rosterRange): refits on rosters that keep a
// random three quarters of the units. A roster that follows the model gives narrow ranges and
// robust verdicts; a non-transitive one gives wide ranges however little noise there is.
import { describe, expect, it } from 'vitest';
import { bradleyTerry, centredRange, curveStrengths, modelFitNote, MIN_ROSTER_UNITS, unitEfficiency } from '../../src/report/efficiency.js';
import type { RunResults } from '../../src/report/runFolder.js';
import { duelRoster } from '../helpers/duelRoster.js';

const roster = duelRoster;

describe('units left out of a roster', () => {
  // Four units with lopsided records (wins count half a draw; 100 games per ordered pair).
  const W = [
    [0, 60, 30, 45],
    [40, 0, 55, 35],
    [70, 45, 0, 50],
    [55, 65, 50, 0],
  ];
  const G = W.map((row, i) => row.map((_, j) => (i === j ? 0 : 100)));
  it('are read off the strengths of the units kept, which do not see them', () => {
    const kept = [false, true, true, true];
    const s = curveStrengths(W, G, kept);
    const alone = bradleyTerry(W.slice(1).map((r) => r.slice(1)), G.slice(1).map((r) => r.slice(1)));
    for (let i = 1; i < 4; i++) expect(s[i]).toBeCloseTo(alone[i - 1], 12);
    // Unit 0's MM fixed point: its wins against the kept units equal the wins it is expected to have.
    const expected = [1, 2, 3].reduce((a, j) => a + (G[0][j] * s[0]) / (s[0] + s[j]), 0);
    expect(expected).toBeCloseTo(W[0][1] + W[0][2] + W[0][3], 6);
  });
  it('refitted from the full roster\'s strengths, give the strengths of a fit from scratch', () => {
    const kept = [true, false, true, true];
    const cold = curveStrengths(W, G, kept);
    const warm = curveStrengths(W, G, kept, bradleyTerry(W, G));
    // Strengths are defined up to a common factor: compare ratios to unit 2.
    for (let i = 0; i < 4; i++) expect(warm[i] / warm[2]).toBeCloseTo(cold[i] / cold[2], 9);
  });
  it('get no strength (NaN) when they met none of the units kept', () => {
    const G2 = G.map((r) => [...r]);
    G2[0] = [0, 0, 0, 100];
    G2[3][0] = 100;
    const W2 = W.map((r, i) => r.map((x, j) => (G2[i][j] ? x : 0)));
    expect(curveStrengths(W2, G2, [false, true, true, false])[0]).toBeNaN();
    expect(Number.isFinite(curveStrengths(W2, G2, [false, true, true, true])[0])).toBe(true);
  });
});

describe('roster range', () => {
  const tvs = [10, 14, 20, 28, 40, 56];
  it('a roster that follows the model: narrow ranges, and a unit priced 25% too low stays under-costed when a quarter of the units is dropped', () => {
    // Strength grows as TV: P(i beats j) = TV_i / (TV_i + TV_j); unit 3 plays like a 28 TV
    // unit but costs 21.
    const cost = tvs.map((t, i) => (i === 3 ? 21 : t));
    const units = unitEfficiency(roster(cost, (i, j) => tvs[i] / (tvs[i] + tvs[j])), 'v');
    const under = units.find((u) => u.id === 'u.d')!;
    expect(under.verdict).toBe('under-costed');
    expect(under.holdsAcrossRosters).toBe(true);
    for (const u of units) {
      expect(u.rosterRange.low).toBeLessThanOrEqual(u.fairTv.value + 1e-9);
      expect(u.rosterRange.high).toBeGreaterThanOrEqual(u.fairTv.value - 1e-9);
      // Only the mispriced unit's weight on the curve moves anything: within 5% of the fair TV.
      expect(u.rosterRange.high / u.rosterRange.low, u.id).toBeLessThan(1.1);
    }
    expect(modelFitNote(units)).toContain('1 of the 1 flagged verdicts hold when a random quarter of the units is dropped');
  });
  it('a non-transitive roster: ranges far wider than the noise, and verdicts that depend on the mix', () => {
    // Strength by TV, but each unit also beats the next one up and loses to the one above that.
    const win = (i: number, j: number) => {
      const base = tvs[i] / (tvs[i] + tvs[j]);
      return j === i + 1 ? Math.min(0.95, base + 0.35) : i === j + 1 ? Math.max(0.05, base - 0.35) : base;
    };
    const units = unitEfficiency(roster(tvs, win), 'v');
    const ratio = units.map((u) => (u.rosterRange.high - u.rosterRange.low) / Math.max(1e-9, u.fairTv.high - u.fairTv.low)).sort((a, b) => a - b);
    expect(ratio[ratio.length >> 1]).toBeGreaterThan(10);
    for (const u of units) if (u.verdict === 'under-costed' || u.verdict === 'over-costed') expect(u.holdsAcrossRosters).not.toBeNull();
    expect(units.some((u) => u.holdsAcrossRosters === false)).toBe(true);
  });
  it(`is not drawn for fewer than ${MIN_ROSTER_UNITS} units on the curve, and the fit note says why`, () => {
    const t3 = [10, 20, 40];
    const units = unitEfficiency(roster([10, 15, 40], (i, j) => t3[i] / (t3[i] + t3[j])), 'v');
    for (const u of units) {
      expect(u.rosterRange.low).toBeNaN();
      expect(u.holdsAcrossRosters).toBeNull();
    }
    const flagged = units.filter((u) => u.verdict !== 'fair');
    expect(flagged.length).toBeGreaterThan(0);
    expect(modelFitNote(units)).toContain(`No roster range could be drawn (it needs at least ${MIN_ROSTER_UNITS} units on the price curve`);
  });
  it('is centred on the full roster\'s figure, and the same rosters serve every variant', () => {
    // Refits that lean 10% low and spread +-20% on the log scale: centred, the range is the
    // spread around the value, on the log scale, whatever the lean.
    const value = 30;
    const reps = Array.from({ length: 1001 }, (_, r) => value * 0.9 * Math.exp(0.2 * (r / 500 - 1)));
    const range = centredRange(value, reps, Math.log, Math.exp);
    expect(range.low).toBeCloseTo(value * Math.exp(-0.2 * 0.95), 6);
    expect(range.high).toBeCloseTo(value * Math.exp(0.2 * 0.95), 6);
    // Fewer than half the refits with a figure: no range.
    expect(centredRange(value, [...reps.slice(0, 400), ...new Array(601).fill(NaN)]).low).toBeNaN();
    // Two variants with the same duels get the same ranges (the rosters are not drawn per variant).
    const r = roster(tvs, (i, j) => (tvs[i] + (i % 2) * 5) / (tvs[i] + tvs[j] + 5));
    const twice: RunResults = { ...r, variants: [...r.variants, { name: 'w', rules: '1.2.2' }], experiments: [...r.experiments, ...r.experiments.map((e) => ({ ...e, variant: 'w' }))] };
    expect(unitEfficiency(twice, 'w').map((u) => u.rosterRange)).toEqual(unitEfficiency(twice, 'v').map((u) => u.rosterRange));
    for (const u of unitEfficiency(r, 'v')) {
      expect(u.rosterRange.low).toBeLessThanOrEqual(u.fairTv.value);
      expect(u.rosterRange.high).toBeGreaterThanOrEqual(u.fairTv.value);
    }
  });

  it('is the same from the same results (seeded)', () => {
    const r = roster(tvs, (i, j) => (tvs[i] + (i % 2) * 5) / (tvs[i] + tvs[j] + 5));
    expect(unitEfficiency(r, 'v').map((u) => u.rosterRange)).toEqual(unitEfficiency(r, 'v').map((u) => u.rosterRange));
  });
});
