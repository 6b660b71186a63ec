// Per-unit-type battle figures take the game as the sampling unit: models of one type in the
// same game are not independent, so the counts keep each game's per-type tallies squared and
// the intervals come from the spread between games (src/sim/counts.ts, battleUnitStats).
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { B_N, B_UNITS, U_APPEARANCES, U_CAPTURED, U_CRIPPLED, U_DAMAGE, U_DESTROYED, U_FATE_SQUARES, U_STRIDE, U_WITHDRAWN, battleCountsLength } from '../../src/sim/battles.js';
import { makeBattle } from '../../src/sim/battleJob.js';
import { addCounts, battleUnitStats, type BattleUnit } from '../../src/sim/counts.js';
import { Z95, wilson } from '../../src/stats/intervals.js';

const UNIT: BattleUnit = { id: 'x.ship', name: 'Ship', tv: 50, models: 1, sides: ['a'] };

/** Counts of one unit type from per-game tallies: each game's destroyed models and damage. */
function countsOf(models: number, games: ReadonlyArray<{ destroyed: number; damage: number }>): number[] {
  const c = new Array<number>(battleCountsLength(1)).fill(0);
  const b = B_UNITS;
  for (const g of games) {
    c[B_N]++;
    c[b + U_APPEARANCES] += models;
    c[b + U_DESTROYED] += g.destroyed;
    c[b + U_FATE_SQUARES] += g.destroyed * g.destroyed;
    c[b + U_DAMAGE] += g.damage;
    c[b + U_DAMAGE + 1] += g.damage * g.damage;
  }
  return c;
}

describe('per-unit battle rates with the game as the sampling unit', () => {
  it('one model per game: the plain Wilson interval over games', () => {
    const games = Array.from({ length: 40 }, (_, i) => ({ destroyed: i % 3 === 0 ? 1 : 0, damage: i % 5 }));
    const [u] = battleUnitStats(countsOf(1, games), [UNIT]);
    const w = wilson(14, 40);
    expect(u.destroyed.value).toBe(14 / 40);
    expect(u.destroyed.low).toBeCloseTo(w.low, 12);
    expect(u.destroyed.high).toBeCloseTo(w.high, 12);
  });

  it('models that always share a fate count as one: the Wilson interval over games, not over models', () => {
    // Three models per game, all destroyed in 12 of 40 games and none in the rest.
    const games = Array.from({ length: 40 }, (_, i) => ({ destroyed: i < 12 ? 3 : 0, damage: 0 }));
    const [u] = battleUnitStats(countsOf(3, games), [{ ...UNIT, models: 3 }]);
    const w = wilson(12, 40);
    expect(u.appearances).toBe(120);
    expect(u.destroyed.value).toBeCloseTo(0.3, 12);
    expect(u.destroyed.low).toBeCloseTo(w.low, 12);
    expect(u.destroyed.high).toBeCloseTo(w.high, 12);
    // Treating the 120 appearances as independent would have been far narrower.
    const naive = wilson(36, 120);
    expect(naive.high - naive.low).toBeLessThan(0.65 * (w.high - w.low));
  });

  it('with no spread between games the design effect is taken as 1 (never narrower than independent models)', () => {
    const games = Array.from({ length: 30 }, () => ({ destroyed: 1, damage: 2 }));
    const [u] = battleUnitStats(countsOf(2, games), [{ ...UNIT, models: 2 }]);
    const w = wilson(30, 60);
    expect(u.destroyed.low).toBeCloseTo(w.low, 12);
    expect(u.destroyed.high).toBeCloseTo(w.high, 12);
    // Every game's damage was the same: no spread, an interval of zero width.
    expect(u.damageDealt.value).toBe(1);
    expect(u.damageDealt.low).toBe(1);
    expect(u.damageDealt.high).toBe(1);
  });

  it('damage dealt: the mean per model, its interval from the spread of the per-game totals', () => {
    const totals = [0, 6, 2, 8, 4, 4, 10, 0];
    const [u] = battleUnitStats(countsOf(2, totals.map((damage) => ({ destroyed: 0, damage }))), [{ ...UNIT, models: 2 }]);
    const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
    const sd = Math.sqrt(totals.reduce((a, t) => a + (t - mean) ** 2, 0) / (totals.length - 1));
    const half = (Z95 * sd) / Math.sqrt(totals.length) / 2;
    expect(u.damageDealt.value).toBeCloseTo(mean / 2, 12);
    expect(u.damageDealt.high - u.damageDealt.value).toBeCloseTo(half, 12);
    expect(u.damagePer100Tv.value).toBeCloseTo((100 * mean) / 2 / UNIT.tv, 12);
  });

  it('covers 95% of clustered rates, where treating models as independent does not', () => {
    // Four models per game share the game's luck: each is destroyed with chance 0.05 or 0.75
    // (half the games each), so the true rate is 0.4 and the models are strongly correlated.
    const rng = seedrandom('clustered-coverage');
    const reps = 1500, n = 150, models = 4, truth = 0.4;
    let clustered = 0, naive = 0;
    for (let r = 0; r < reps; r++) {
      const games = [];
      for (let g = 0; g < n; g++) {
        const p = rng() < 0.5 ? 0.05 : 0.75;
        let d = 0;
        for (let m = 0; m < models; m++) if (rng() < p) d++;
        games.push({ destroyed: d, damage: 0 });
      }
      const c = countsOf(models, games);
      const [u] = battleUnitStats(c, [{ ...UNIT, models }]);
      if (u.destroyed.low <= truth && truth <= u.destroyed.high) clustered++;
      const w = wilson(c[B_UNITS + U_DESTROYED], n * models);
      if (w.low <= truth && truth <= w.high) naive++;
    }
    expect(clustered / reps).toBeGreaterThan(0.93);
    expect(clustered / reps).toBeLessThan(0.97);
    // (About 0.79 here.)
    expect(naive / reps).toBeLessThan(0.85);
  });
});

describe('per-game tallies in real battles', () => {
  it('a chunk equals its games added one by one, and each game\'s squares are its tallies squared', () => {
    const scenario = fileURLToPath(new URL('../../scenarios/battles/standard-engagement.json', import.meta.url));
    const job = makeBattle({ scenarioFile: scenario, rules: '1.2.2', rule: [], allowInvalidFleets: false, seed: 'clusters', mirror: true });
    const whole = job.run({ first: 0, trials: 4 });
    const summed = new Array<number>(whole.length).fill(0);
    let squaresAboveCounts = 0;
    for (let t = 0; t < 4; t++) {
      const c = job.run({ first: t, trials: 1 });
      addCounts(summed, c);
      // One trial is a mirrored pair: two games, whose tallies are not split in the counts,
      // so check the bounds a pair allows: y1^2 + y2^2 lies between (y1 + y2)^2 / 2 and (y1 + y2)^2.
      for (let b = B_UNITS; b < c.length; b += U_STRIDE) {
        for (const [f, k] of [[U_DESTROYED, 0], [U_CRIPPLED, 1], [U_WITHDRAWN, 2], [U_CAPTURED, 3]] as const) {
          const y = c[b + f], sq = c[b + U_FATE_SQUARES + k];
          expect(sq).toBeGreaterThanOrEqual((y * y) / 2);
          expect(sq).toBeLessThanOrEqual(y * y);
          if (sq > y) squaresAboveCounts++;
        }
        const d = c[b + U_DAMAGE], dsq = c[b + U_DAMAGE + 1];
        expect(dsq).toBeGreaterThanOrEqual((d * d) / 2 - 1e-9);
        expect(dsq).toBeLessThanOrEqual(d * d + 1e-9);
      }
    }
    expect(summed).toEqual(whole);
    // Some type lost more than one model in a game: the squares carry more than the counts.
    expect(squaresAboveCounts).toBeGreaterThan(0);
  });

  it('unmirrored single games: every square is exactly its tally squared', () => {
    const scenario = fileURLToPath(new URL('../../scenarios/battles/standard-engagement.json', import.meta.url));
    const job = makeBattle({ scenarioFile: scenario, rules: '1.2.2', rule: [], allowInvalidFleets: false, seed: 'clusters', mirror: false });
    for (let t = 0; t < 3; t++) {
      const c = job.run({ first: t, trials: 1 });
      expect(c[B_N]).toBe(1);
      for (let b = B_UNITS; b < c.length; b += U_STRIDE) {
        expect(c[b + U_FATE_SQUARES]).toBe(c[b + U_DESTROYED] ** 2);
        expect(c[b + U_FATE_SQUARES + 1]).toBe(c[b + U_CRIPPLED] ** 2);
        expect(c[b + U_FATE_SQUARES + 2]).toBe(c[b + U_WITHDRAWN] ** 2);
        expect(c[b + U_FATE_SQUARES + 3]).toBe(c[b + U_CAPTURED] ** 2);
        expect(c[b + U_DAMAGE + 1]).toBeCloseTo(c[b + U_DAMAGE] ** 2, 9);
      }
    }
  });
});
