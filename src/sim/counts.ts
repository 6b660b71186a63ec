// What a chunk of trials returns: integer counts, merged by adding (exact, order-free), and
// the metrics with 95% intervals computed from them (ARCHITECTURE.md §4.7, §6).
import { Z95, wilson } from '../stats/intervals.js';
import type { Cell, Kind } from '../scenarios/batch.js';
import { B_DRAW, B_N, B_OP, B_SURV, B_TURNS, B_UNITS, B_VP, B_WIN_A, B_WIN_B, U_APPEARANCES, U_CAPTURED, U_CRIPPLED, U_DAMAGE, U_DESTROYED, U_FATE_SQUARES, U_STRIDE, U_WITHDRAWN, battleCountsLength } from './battles.js';

// Damage engagements (attack, volley, ram): counts and sums of squares per trial.
export const C_N = 0;
export const C_DESTROYED = 1;
export const C_CRIPPLED = 2;
export const C_STRUCTURE = 3; // then its square at +1
export const C_DEFENSE = 5;
export const C_SENSORS = 7;
export const C_THRUSTERS = 9;
export const C_CRITICALS = 11;
export const C_RAMS = 13;
export const C_SHOT_DOWN = 14;
export const C_SKILL_FAILS = 15;
export const C_ATTACKS = 16; // then its square at +1
export const C_HIST = 18; // Structure lost 0..10
export const DAMAGE_COUNTS = C_HIST + 11;

// Duels.
export const D_N = 0;
export const D_A_WINS = 1;
export const D_B_WINS = 2;
export const D_DRAWS = 3;
export const D_ROUNDS = 4; // then its square at +1
export const D_A_DAMAGE = 6; // Structure B lost, then its square
export const D_B_DAMAGE = 8; // Structure A lost, then its square
export const D_HIST = 10; // decided duels by rounds played, 0..ROUNDS_HIST_MAX (the last bucket: that many or more)
export const ROUNDS_HIST_MAX = 40;
export const DUEL_COUNTS = D_HIST + ROUNDS_HIST_MAX + 1;

// Battles: the layout of src/sim/battles.ts (B_*), whose length grows with the scenario's
// distinct unit types; n counts games (two per trial when mirrored).

/** Counts per chunk; a battle's length depends on its scenario's number of distinct unit types. */
export function countsLength(kind: Kind, battleUnits = 0): number {
  return kind === 'battle' ? battleCountsLength(battleUnits) : kind === 'duel' ? DUEL_COUNTS : DAMAGE_COUNTS;
}

/** Trials in the counts of a cell (a mirrored battle trial is two games). */
export function trialsIn(cell: Pick<Cell, 'kind' | 'mirror'>, c: readonly number[]): number {
  if (cell.kind === 'battle') return c[B_N] / gamesPerTrial(cell);
  return c[cell.kind === 'duel' ? D_N : C_N];
}

/** Adds b into a. */
export function addCounts(a: number[], b: readonly number[]): void {
  for (let i = 0; i < a.length; i++) a[i] += b[i];
}

export interface Metric {
  readonly name: string;
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

function rate(name: string, k: number, n: number): Metric {
  const ci = wilson(k, n);
  return { name, value: k / n, low: ci.low, high: ci.high };
}

/** Mean of a per-trial quantity from its sum and sum of squares, with a normal interval. */
function mean(name: string, sum: number, sumSq: number, n: number, scale = 1): Metric {
  const m = sum / n;
  const variance = n > 1 ? Math.max(0, (sumSq - n * m * m) / (n - 1)) : 0;
  const half = Z95 * Math.sqrt(variance / n);
  return { name, value: m * scale, low: (m - half) * scale, high: (m + half) * scale };
}

/** The metrics of a kind, in a fixed order (the order of results.csv). */
export function metricsOf(kind: Kind, c: readonly number[], attackerTv: number): Metric[] {
  if (kind === 'battle') {
    // Per game; a mirrored pair's two games count separately, as in jwsim battle.
    const n = c[B_N];
    const m = (name: string, i: number) => mean(name, c[i], c[i + 1], n);
    return [
      rate('a_win_rate', c[B_WIN_A], n),
      rate('b_win_rate', c[B_WIN_B], n),
      rate('draw_rate', c[B_DRAW], n),
      m('mean_turns', B_TURNS),
      m('mean_op_a', B_OP),
      m('mean_op_b', B_OP + 2),
      m('mean_vp_a', B_VP),
      m('mean_vp_b', B_VP + 2),
      m('mean_surviving_tv_a', B_SURV),
      m('mean_surviving_tv_b', B_SURV + 2),
    ];
  }
  if (kind === 'duel') {
    const n = c[D_N];
    return [
      rate('a_win_rate', c[D_A_WINS], n),
      rate('b_win_rate', c[D_B_WINS], n),
      rate('draw_rate', c[D_DRAWS], n),
      mean('mean_rounds', c[D_ROUNDS], c[D_ROUNDS + 1], n),
      mean('mean_damage_by_a', c[D_A_DAMAGE], c[D_A_DAMAGE + 1], n),
      mean('mean_damage_by_b', c[D_B_DAMAGE], c[D_B_DAMAGE + 1], n),
    ];
  }
  const n = c[C_N];
  const out = [
    rate('p_destroyed', c[C_DESTROYED], n),
    rate('p_crippled', c[C_CRIPPLED], n),
    mean('mean_structure_damage', c[C_STRUCTURE], c[C_STRUCTURE + 1], n),
    mean('mean_defense_damage', c[C_DEFENSE], c[C_DEFENSE + 1], n),
    mean('mean_sensors_damage', c[C_SENSORS], c[C_SENSORS + 1], n),
    mean('mean_thrusters_damage', c[C_THRUSTERS], c[C_THRUSTERS + 1], n),
    mean('mean_criticals', c[C_CRITICALS], c[C_CRITICALS + 1], n),
    mean('damage_per_100_tv', c[C_STRUCTURE], c[C_STRUCTURE + 1], n, 100 / attackerTv),
  ];
  if (kind === 'ram') out.push(rate('p_rams', c[C_RAMS], n));
  if (kind === 'volley') out.push(mean('mean_attacks', c[C_ATTACKS], c[C_ATTACKS + 1], n));
  return out;
}

/**
 * A battle's unit type, as the cell engine found it in the scenario (plain data, in the
 * order of the counts' per-unit blocks: the Battle's `units`).
 */
export interface BattleUnit {
  readonly id: string;
  readonly name: string;
  readonly tv: number;
  /** Models of this type in one game, both fleets together. */
  readonly models: number;
  /** The sides that field it. */
  readonly sides: ReadonlyArray<'a' | 'b'>;
}

/** One unit type's figures over a battle cell's games; every model in every game is one appearance. */
export interface BattleUnitStats {
  readonly unit: BattleUnit;
  readonly appearances: number;
  readonly destroyed: Metric;
  readonly crippled: Metric;
  readonly withdrawn: Metric;
  /** Captured by the enemy (boarding). */
  readonly captured: Metric;
  /** Structure the model took off enemies, mean per appearance. */
  readonly damageDealt: Metric;
  /** damageDealt per 100 TV of the unit type. */
  readonly damagePer100Tv: Metric;
}

/** A unit type's six figures in the order results files list them (each Metric carries its name). */
export function unitMetrics(u: BattleUnitStats): Metric[] {
  return [u.destroyed, u.crippled, u.withdrawn, u.captured, u.damageDealt, u.damagePer100Tv];
}

/**
 * A rate over clustered appearances: `k` of the `n * size` appearances in `n` trials of `size`
 * appearances each, where `sumSq` sums each trial's count squared. Models of one type in the
 * same game are not independent (they fight the same enemies, and one's loss moves the
 * others'), nor are the two games of a mirrored pair, so the interval is Wilson's with the
 * appearances divided by the design effect: the variance of the per-trial counts over the
 * variance independent appearances would give (both unbiased). It may be below 1 (models that
 * compete for the same targets). With one appearance per trial it is exactly the plain Wilson
 * interval. With no event at all (or only events) the spread says nothing about clustering,
 * and the interval is Wilson's over trials, which holds however the appearances cluster; with
 * every trial giving the same count otherwise, the design effect is taken as 1.
 */
export function clusteredRate(name: string, k: number, sumSq: number, n: number, size: number): Metric {
  const appearances = n * size;
  const p = k / appearances;
  if (size === 1) return rate(name, k, appearances);
  if (k === 0 || k === appearances) {
    const ci = wilson(k === 0 ? 0 : n, n);
    return { name, value: p, low: ci.low, high: ci.high };
  }
  const between = n > 1 ? Math.max(0, (sumSq - (k * k) / n) / (n - 1)) : 0;
  const independent = (size * p * (1 - p) * appearances) / (appearances - 1);
  const deff = between > 0 ? between / independent : 1;
  const effective = appearances / deff;
  const ci = wilson(p * effective, effective);
  return { name, value: p, low: ci.low, high: ci.high };
}

/**
 * Per-unit-type figures of a battle cell from its counts (src/sim/battles.ts: a block of
 * U_STRIDE per unit type from B_UNITS). The trial is the sampling unit (a game, or a mirrored
 * pair: `gamesPerTrial` 2): rates get Wilson intervals over the appearances divided by the
 * design effect of the per-trial counts (clusteredRate), and the damage a normal interval
 * from the spread of the type's damage per trial. A type's models per game are fixed by the
 * scenario (`unit.models`).
 */
export function battleUnitStats(c: readonly number[], units: readonly BattleUnit[], gamesPerTrial: 1 | 2): BattleUnitStats[] {
  const n = (c[B_N] ?? 0) / gamesPerTrial;
  return units.map((unit, i) => {
    const b = B_UNITS + U_STRIDE * i;
    const k = c[b + U_APPEARANCES] ?? 0;
    // Appearances per trial, from the counts (the scenario's unit.models, both fleets, per game).
    const size = n > 0 ? k / n : 0;
    const zero = (name: string): Metric => ({ name, value: 0, low: 0, high: 0 });
    const r = (name: string, j: number, sq: number) => (k > 0 ? clusteredRate(name, c[b + j], c[b + U_FATE_SQUARES + sq], n, size) : zero(name));
    // The per-trial damage's mean, scaled to one appearance.
    const m = (name: string, scale: number) => (k > 0 ? mean(name, c[b + U_DAMAGE], c[b + U_DAMAGE + 1], n, scale / size) : zero(name));
    return {
      unit,
      appearances: k,
      destroyed: r('destroyed_rate', U_DESTROYED, 0),
      crippled: r('crippled_rate', U_CRIPPLED, 1),
      withdrawn: r('withdrawn_rate', U_WITHDRAWN, 2),
      captured: r('captured_rate', U_CAPTURED, 3),
      damageDealt: m('damage_dealt', 1),
      damagePer100Tv: m('damage_per_100_tv', unit.tv > 0 ? 100 / unit.tv : 0),
    };
  });
}

/** Games per trial of a battle cell: two when it mirrors (the default in batches). */
export function gamesPerTrial(cell: Pick<Cell, 'mirror'>): 1 | 2 {
  return cell.mirror === false ? 1 : 2;
}

/** Half-width of a metric's 95% interval. */
export function halfWidth(m: Metric): number {
  return (m.high - m.low) / 2;
}

/**
 * The distribution a chart draws: for duels, P(decided in r rounds | decided), r = 0..40+;
 * for battles, P(A wins), P(B wins), P(draw); otherwise P(k Structure lost), k = 0..10.
 */
export function distributionOf(kind: Kind, c: readonly number[]): number[] {
  if (kind === 'battle') {
    const n = c[B_N];
    return [B_WIN_A, B_WIN_B, B_DRAW].map((i) => (n ? c[i] / n : 0));
  }
  if (kind === 'duel') {
    const hist = c.slice(D_HIST, D_HIST + ROUNDS_HIST_MAX + 1);
    const decided = hist.reduce((a, b) => a + b, 0);
    return hist.map((x) => (decided ? x / decided : 0));
  }
  const n = c[C_N];
  return c.slice(C_HIST, C_HIST + 11).map((x) => (n ? x / n : 0));
}

/**
 * Every metric is a per-trial mean: counts[index] / n, times `scale`. Paired comparisons
 * difference these per-trial quantities directly.
 */
export function metricSource(kind: Kind, metric: string, attackerTv: number): { index: number; scale: number } {
  const duel: Record<string, number> = { a_win_rate: D_A_WINS, b_win_rate: D_B_WINS, draw_rate: D_DRAWS, mean_rounds: D_ROUNDS, mean_damage_by_a: D_A_DAMAGE, mean_damage_by_b: D_B_DAMAGE };
  const damage: Record<string, number> = {
    p_destroyed: C_DESTROYED,
    p_crippled: C_CRIPPLED,
    mean_structure_damage: C_STRUCTURE,
    mean_defense_damage: C_DEFENSE,
    mean_sensors_damage: C_SENSORS,
    mean_thrusters_damage: C_THRUSTERS,
    mean_criticals: C_CRITICALS,
    damage_per_100_tv: C_STRUCTURE,
    p_rams: C_RAMS,
    mean_attacks: C_ATTACKS,
  };
  const battle: Record<string, number> = {
    a_win_rate: B_WIN_A,
    b_win_rate: B_WIN_B,
    draw_rate: B_DRAW,
    mean_turns: B_TURNS,
    mean_op_a: B_OP,
    mean_op_b: B_OP + 2,
    mean_vp_a: B_VP,
    mean_vp_b: B_VP + 2,
    mean_surviving_tv_a: B_SURV,
    mean_surviving_tv_b: B_SURV + 2,
  };
  const index = (kind === 'battle' ? battle : kind === 'duel' ? duel : damage)[metric];
  if (index === undefined) throw new Error(`no such metric for ${kind}: ${metric}`);
  return { index, scale: metric === 'damage_per_100_tv' ? 100 / attackerTv : 1 };
}
