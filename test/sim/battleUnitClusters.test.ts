// Per-unit-type battle figures take the trial (a game, or a mirrored pair) as the sampling
// unit: models of one type in the same game are not independent, nor are the two games of a
// pair, so the counts keep each trial's per-type tallies squared and the intervals come from
// the spread between trials (src/sim/counts.ts, battleUnitStats).
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

/** Coverage of `truth` by the clustered interval and by Wilson over independent models, over `reps` seeded replications of `games` games. */
function coverage(seed: string, reps: number, games: number, models: number, truth: number, game: (rng: () => number) => number): { clustered: number; naive: number } {
  const rng = seedrandom(seed);
  let clustered = 0, naive = 0;
  for (let r = 0; r < reps; r++) {
    const c = countsOf(models, Array.from({ length: games }, () => ({ destroyed: game(rng), damage: 0 })));
    const [u] = battleUnitStats(c, [{ ...UNIT, models }], 1);
    if (u.destroyed.low <= truth && truth <= u.destroyed.high) clustered++;
    const w = wilson(c[B_UNITS + U_DESTROYED], games * models);
    if (w.low <= truth && truth <= w.high) naive++;
  }
  return { clustered: clustered / reps, naive: naive / reps };
}

describe('per-unit battle rates with the trial as the sampling unit', () => {
  it('one model per game: exactly the plain Wilson interval over games', () => {
    const games = Array.from({ length: 40 }, (_, i) => ({ destroyed: i % 3 === 0 ? 1 : 0, damage: i % 5 }));
    const [u] = battleUnitStats(countsOf(1, games), [UNIT], 1);
    const w = wilson(14, 40);
    expect(u.destroyed.value).toBe(14 / 40);
    expect(u.destroyed.low).toBe(w.low);
    expect(u.destroyed.high).toBe(w.high);
  });

  it('models that always share a fate count as one: the Wilson interval over games, not over models', () => {
    // Three models per game, all destroyed in 12 of 40 games and none in the rest.
    const games = Array.from({ length: 40 }, (_, i) => ({ destroyed: i < 12 ? 3 : 0, damage: 0 }));
    const [u] = battleUnitStats(countsOf(3, games), [{ ...UNIT, models: 3 }], 1);
    // The design effect: the per-game counts' variance (0 or 3: 12 of 40 games at 3) over what
    // 3 independent models would show, both unbiased; about 3, so about the 40 games count.
    const between = (12 * 9 - 36 ** 2 / 40) / 39;
    const independent = (3 * 0.3 * 0.7 * 120) / 119;
    const effective = 120 / (between / independent);
    const expected = wilson(0.3 * effective, effective);
    expect(u.appearances).toBe(120);
    expect(u.destroyed.value).toBeCloseTo(0.3, 12);
    expect(u.destroyed.low).toBeCloseTo(expected.low, 12);
    expect(u.destroyed.high).toBeCloseTo(expected.high, 12);
    const overGames = wilson(12, 40);
    expect(u.destroyed.high - u.destroyed.low).toBeCloseTo(overGames.high - overGames.low, 2);
    // Treating the 120 appearances as independent would have been far narrower.
    const naive = wilson(36, 120);
    expect(naive.high - naive.low).toBeLessThan(0.65 * (u.destroyed.high - u.destroyed.low));
  });

  it('no event at all: Wilson over games, whatever the clustering (not over models)', () => {
    const [u] = battleUnitStats(countsOf(3, Array.from({ length: 400 }, () => ({ destroyed: 0, damage: 0 }))), [{ ...UNIT, models: 3 }], 1);
    expect(u.destroyed.value).toBe(0);
    expect(u.destroyed.low).toBe(0);
    expect(u.destroyed.high).toBe(wilson(0, 400).high);
    // Every model destroyed in every game: the mirror image.
    const [all] = battleUnitStats(countsOf(3, Array.from({ length: 400 }, () => ({ destroyed: 3, damage: 0 }))), [{ ...UNIT, models: 3 }], 1);
    expect(all.destroyed.value).toBe(1);
    expect(all.destroyed.low).toBe(wilson(400, 400).low);
    expect(all.destroyed.high).toBe(1);
  });

  it('every game giving the same count (between 0 and all): the design effect is taken as 1', () => {
    const games = Array.from({ length: 30 }, () => ({ destroyed: 1, damage: 2 }));
    const [u] = battleUnitStats(countsOf(2, games), [{ ...UNIT, models: 2 }], 1);
    const w = wilson(30, 60);
    expect(u.destroyed.low).toBeCloseTo(w.low, 12);
    expect(u.destroyed.high).toBeCloseTo(w.high, 12);
    // Every game's damage was the same: no spread, an interval of zero width.
    expect(u.damageDealt.value).toBe(1);
    expect(u.damageDealt.low).toBe(1);
    expect(u.damageDealt.high).toBe(1);
  });

  it('damage dealt: the mean per model, its interval from the spread of the per-trial totals', () => {
    const totals = [0, 6, 2, 8, 4, 4, 10, 0];
    const [u] = battleUnitStats(countsOf(2, totals.map((damage) => ({ destroyed: 0, damage }))), [{ ...UNIT, models: 2 }], 1);
    const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
    const sd = Math.sqrt(totals.reduce((a, t) => a + (t - mean) ** 2, 0) / (totals.length - 1));
    const half = (Z95 * sd) / Math.sqrt(totals.length) / 2;
    expect(u.damageDealt.value).toBeCloseTo(mean / 2, 12);
    expect(u.damageDealt.high - u.damageDealt.value).toBeCloseTo(half, 12);
    expect(u.damagePer100Tv.value).toBeCloseTo((100 * mean) / 2 / UNIT.tv, 12);
  });

  it('mirrored: a trial is two games, so the counts of 2 trials of 2 models a game are 2 clusters of 4', () => {
    // Two mirrored trials (4 games), 2 models a game: trial tallies 4 and 0 destroyed.
    const c = countsOf(4, [{ destroyed: 4, damage: 6 }, { destroyed: 0, damage: 2 }]);
    c[B_N] = 4; // games: two per trial
    const [pairs] = battleUnitStats(c, [{ ...UNIT, models: 2 }], 2);
    expect(pairs.appearances).toBe(8);
    expect(pairs.destroyed.value).toBe(0.5);
    expect(pairs.damageDealt.value).toBe(1);
    // The damage interval comes from the two trial totals (6 and 2), over 4 appearances each.
    const sd = Math.SQRT2 * 2;
    expect(pairs.damageDealt.high - pairs.damageDealt.value).toBeCloseTo((Z95 * sd) / Math.SQRT2 / 4, 12);
  });

  it('covers 95% of clustered rates, where treating models as independent does not', () => {
    // Four models per game share the game's luck: each is destroyed with chance 0.05 or 0.75
    // (half the games each), so the true rate is 0.4 and the models are strongly correlated.
    const binomial = (rng: () => number, n: number, p: number) => {
      let d = 0;
      for (let m = 0; m < n; m++) if (rng() < p) d++;
      return d;
    };
    const positive = coverage('clustered-coverage', 1500, 150, 4, 0.4, (rng) => binomial(rng, 4, rng() < 0.5 ? 0.05 : 0.75));
    expect(positive.clustered).toBeGreaterThan(0.93);
    expect(positive.clustered).toBeLessThan(0.97);
    expect(positive.naive).toBeLessThan(0.85); // (0.951 and 0.792 here)
  });

  it('covers rare all-or-none losses (most runs see none at all)', () => {
    // All four models lost together in 0.2% of 600 games: a run sees no loss 30% of the time.
    const rare = coverage('clustered-rare', 1500, 600, 4, 0.002, (rng) => (rng() < 0.002 ? 4 : 0));
    expect(rare.clustered).toBeGreaterThan(0.93);
    expect(rare.naive).toBeLessThan(0.8); // (0.968 and 0.564 here)
  });

  it('covers negatively correlated models too, with an interval narrower than independent models\' would be', () => {
    // Two models: exactly one is lost in 60% of games, both in 20%, none in 20% (rate 0.5,
    // design effect 0.8: a loss makes the other's less likely).
    const negative = coverage('clustered-negative', 1500, 200, 2, 0.5, (rng) => {
      const x = rng();
      return x < 0.6 ? 1 : x < 0.8 ? 2 : 0;
    });
    expect(negative.clustered).toBeGreaterThan(0.93);
    expect(negative.clustered).toBeLessThan(0.97);
    expect(negative.naive).toBeGreaterThan(negative.clustered); // (0.953 and 0.973 here)
  });
});

describe('per-trial tallies in real battles', () => {
  it('a chunk equals its trials added one by one, and a mirrored trial\'s squares are its pair\'s tallies squared', () => {
    const scenario = fileURLToPath(new URL('../../scenarios/battles/standard-engagement.json', import.meta.url));
    const job = makeBattle({ scenarioFile: scenario, rules: '1.2.2', rule: [], allowInvalidFleets: false, seed: 'clusters', mirror: true });
    const whole = job.run({ first: 0, trials: 4 });
    const summed = new Array<number>(whole.length).fill(0);
    let squaresAboveCounts = 0;
    for (let t = 0; t < 4; t++) {
      const c = job.run({ first: t, trials: 1 });
      expect(c[B_N]).toBe(2);
      addCounts(summed, c);
      // One trial is a mirrored pair of games, the sampling unit: its squares are of the pair's tallies.
      for (let b = B_UNITS; b < c.length; b += U_STRIDE) {
        for (const [f, k] of [[U_DESTROYED, 0], [U_CRIPPLED, 1], [U_WITHDRAWN, 2], [U_CAPTURED, 3]] as const) {
          expect(c[b + U_FATE_SQUARES + k]).toBe(c[b + f] ** 2);
          if (c[b + U_FATE_SQUARES + k] > c[b + f]) squaresAboveCounts++;
        }
        expect(c[b + U_DAMAGE + 1]).toBeCloseTo(c[b + U_DAMAGE] ** 2, 9);
      }
    }
    expect(summed).toEqual(whole);
    // Some type lost more than one model in a pair: the squares carry more than the counts.
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
