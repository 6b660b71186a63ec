// What jwsim battle prints: win and draw rates with Wilson intervals, per-side means, and
// per unit type the fates and damage with the intervals results files give them (counts.ts).
import type { Battle } from '../engine/battle/game.js';
import { wilson } from '../stats/intervals.js';
import { B_ACTIVATIONS, B_DRAW, B_N, B_OP, B_SURV, B_TURNS, B_VP, B_WIN_A, B_WIN_B, battleUnitsOf } from './battles.js';
import { battleUnitStats, type Metric, unitMetrics } from './counts.js';

const mean = (s: number, n: number) => (n ? s / n : 0);
const sd = (s: number, sq: number, n: number) => (n > 1 ? Math.sqrt(Math.max(0, (sq - (s * s) / n) / (n - 1))) : 0);
const interval = (m: Metric) => ({ low: m.low, high: m.high });

/** The statistics a designer reads, from merged counts. */
export function summarizeBattles(battle: Battle, c: number[], mirror: boolean) {
  const n = c[B_N];
  const rate = (k: number) => {
    const ci = wilson(k, n);
    return { rate: mean(k, n), low: ci.low, high: ci.high };
  };
  const meanSd = (i: number) => ({ mean: mean(c[i], n), sd: sd(c[i], c[i + 1], n), se: n > 1 ? sd(c[i], c[i + 1], n) / Math.sqrt(n) : 0 });
  const side = (f: 0 | 1) => ({
    name: battle.scenario.sides[f].name,
    tv: battle.scenario.sides[f].tv,
    policy: battle.scenario.sides[f].policy.name,
    win: rate(c[f === 0 ? B_WIN_A : B_WIN_B]),
    op: meanSd(B_OP + 2 * f),
    vp: meanSd(B_VP + 2 * f),
    surviving_tv: meanSd(B_SURV + 2 * f),
  });
  const units = battleUnitStats(c, battleUnitsOf(battle), mirror ? 2 : 1).map((u) => ({
    id: u.unit.id,
    name: u.unit.name,
    tv: u.unit.tv,
    // The fleets that field it: a type both field is pooled over the two.
    sides: u.unit.sides,
    appearances: u.appearances,
    destroyed_rate: u.destroyed.value,
    crippled_rate: u.crippled.value,
    withdrawn_rate: u.withdrawn.value,
    captured_rate: u.captured.value,
    damage_dealt: u.damageDealt.value,
    damage_per_100_tv: u.damagePer100Tv.value,
    // 95% intervals with the trial (a game, or a mirrored pair) as the sampling unit, as results.csv has them.
    intervals: Object.fromEntries(unitMetrics(u).map((m) => [m.name, interval(m)])),
  }));
  return { games: n, a: side(0), b: side(1), draw: rate(c[B_DRAW]), turns: meanSd(B_TURNS), activations_per_game: mean(c[B_ACTIVATIONS], n), units };
}
