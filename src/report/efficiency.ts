// Points efficiency from a duel matrix (README "Points efficiency" defines each figure):
//   score vs field: mean over a unit's duels of P(win) + P(draw)/2;
//   TV-weighted score: the same, each opponent weighted by its TV;
//   damage per 100 TV: mean Structure dealt per duel, per 100 TV of the unit;
//   fair TV: where the unit would sit on the roster's price curve. Bradley-Terry log
//     strengths (theta) are fitted to all duels; a robust straight line theta = a + b log(TV)
//     is fitted across the roster (the roster is taken to be priced right as a whole); the
//     fair TV is the TV at which that line reaches the unit's theta. 95% interval by a
//     seeded parametric bootstrap of the duel results (Monte Carlo noise); roster range from
//     refits on seeded random three-quarter rosters (how much the figure rests on this roster).
import { openStream } from '../rng/stream.js';
import { Z95 } from '../stats/intervals.js';
import type { Engagement, RunResults } from './runFolder.js';

export interface Estimate {
  value: number;
  low: number;
  high: number;
}

export interface UnitEfficiency {
  id: string;
  name: string;
  tv: number;
  duels: number;
  score: Estimate;
  tvWeightedScore: Estimate;
  damagePer100Tv: Estimate;
  fairTv: Estimate;
  /**
   * Fair-TV interval wholly above the card TV by more than FAIR_TV_TOLERANCE (likely
   * under-costed) or below it by more (likely over-costed); unknown without a price curve.
   */
  verdict: 'under-costed' | 'over-costed' | 'fair' | 'unknown';
  /** Fair TV in each bootstrap replicate (aligned across units, for differences). */
  fairTvReplicates: number[];
  /**
   * Roster range, a sensitivity check (not a confidence interval): the 95% range of the fair
   * TV over ROSTER_DRAWS rosters that keep a random ROSTER_SHARE of the curve units
   * (rosterReplicates), centred on the full roster's figure (centredRange). It shows how much
   * the figure leans on which opponents and price points this roster holds; NaN with fewer
   * than MIN_ROSTER_UNITS units on the curve.
   */
  rosterRange: { low: number; high: number };
  /** Fair TV on each subsampled roster (aligned across units, for differences). */
  rosterReplicates: number[];
  /**
   * A flagged unit whose roster range lies beyond the same 5% line as its verdict: the verdict
   * holds when a random quarter of the units is dropped. Null when not flagged or without a
   * roster range.
   */
  holdsAcrossRosters: boolean | null;
  /**
   * How far the strength model is from this unit's duels: the mean, over its opponents, of
   * |observed score - the score the fitted strengths predict|. Model error, which the fair-TV
   * interval (Monte Carlo only) does not show; the roster range shows part of it.
   */
  misfit: number;
  /** The Monte Carlo standard error of one of its pair scores, mean over its opponents: what misfit is to be compared with. */
  pairNoise: number;
}

export const BOOTSTRAP_REPLICATES = 200;
/** Fewest units on the price curve for a roster range (its rosters keep at least 3). */
export const MIN_ROSTER_UNITS = 4;
/** The share of the curve units each roster of the roster range keeps (rounded up). */
export const ROSTER_SHARE = 0.75;
/** How many rosters the roster range refits (enough that its markers do not hinge on the draw). */
export const ROSTER_DRAWS = 1000;
/** How outputs name the roster range's rosters. */
export const ROSTER_RANGE_WORDS = `a sensitivity check, not a confidence interval: the fair TV refitted on ${ROSTER_DRAWS.toLocaleString('en-US')} rosters that each drop a random quarter of the units, its 95% range centred on the full roster's figure`;
/**
 * The fair-TV interval reflects Monte Carlo noise only, not how well the price-curve model
 * fits, so a unit is flagged only when it is off by more than this share of its TV.
 */
export const FAIR_TV_TOLERANCE = 0.05;

const est = (value: number, se: number): Estimate => ({ value, low: value - Z95 * se, high: value + Z95 * se });

interface Obs {
  opponent: string;
  score: number;
  /** Variance of one duel's score (0, 1/2 or 1). */
  variance: number;
  n: number;
  damage: number;
  damageSe: number;
}

/**
 * A side's duel score from its win and draw rates (a win scores 1, a draw 1/2, a loss 0), and
 * the variance of one duel's score: below the binomial one, by far where most duels are draws.
 */
export function duelScore(win: number, draw: number): { score: number; variance: number } {
  const score = win + draw / 2;
  return { score, variance: Math.max(0, win + draw / 4 - score * score) };
}

/** A unit's view of each duel it fought, as side A or side B. */
function observations(duels: Engagement[]): Map<string, Obs[]> {
  const byUnit = new Map<string, Obs[]>();
  const add = (u: string, o: Obs) => {
    if (!byUnit.has(u)) byUnit.set(u, []);
    byUnit.get(u)!.push(o);
  };
  for (const e of duels) {
    const n = e.trials ?? 0;
    if (n <= 0) continue;
    const m = e.metrics;
    const d = m.draw_rate.value;
    for (const [self, other, win, dmg] of [
      [e.a, e.b, m.a_win_rate.value, m.mean_damage_by_a],
      [e.b, e.a, m.b_win_rate.value, m.mean_damage_by_b],
    ] as const) {
      add(self, { opponent: other, ...duelScore(win, d), n, damage: dmg.value, damageSe: (dmg.high - dmg.low) / (2 * Z95) });
    }
  }
  return byUnit;
}

/**
 * Bradley-Terry strengths by the MM algorithm; wins[i][j] counts draws as halves. From all
 * ones, `iterations` steps; from `start` (a nearby fit, as the roster range refits from the
 * full roster's strengths), until no strength moves by more than a part in 10^12.
 */
export function bradleyTerry(wins: number[][], games: number[][], iterations = 200, start?: readonly number[]): number[] {
  const k = wins.length;
  // Plain loops over flat arrays, in the order the MM step was first written with map and
  // reduce (so the figures are the same to the last bit): the report refits this a thousand
  // times and more, and the closures and arrays made per step were most of its time.
  const n = new Float64Array(k * k);
  const total = new Float64Array(k); // each unit's wins against those it met: the same every step
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (j === i || games[i][j] === 0) continue;
      n[i * k + j] = games[i][j];
      total[i] += wins[i][j];
    }
  }
  let s = new Float64Array(k);
  if (start) s.set(start);
  else s.fill(1);
  let next = new Float64Array(k);
  for (let it = 0; it < (start ? 10 * iterations : iterations); it++) {
    for (let i = 0; i < k; i++) {
      const si = s[i];
      let denom = 0;
      for (let j = 0, at = i * k; j < k; j++, at++) if (n[at] !== 0) denom += n[at] / (si + s[j]);
      next[i] = denom > 0 ? total[i] / denom : si;
    }
    let logs = 0;
    for (let i = 0; i < k; i++) logs += Math.log(next[i]);
    const g = Math.exp(logs / k);
    let moved = Infinity;
    if (start) {
      moved = 0;
      for (let i = 0; i < k; i++) moved = Math.max(moved, Math.abs(next[i] / g / s[i] - 1));
    }
    for (let i = 0; i < k; i++) next[i] = next[i] / g;
    [s, next] = [next, s];
    if (moved < 1e-12) break;
  }
  return Array.from(s);
}

/**
 * Bradley-Terry strengths where only the `onCurve` units are fitted jointly, from their games
 * among themselves; each other unit is then fitted alone against those fixed strengths, from
 * its games with curve units. An off-curve unit (a modified copy in jwsim costs --stat, or a
 * unit left out of a subsampled roster) thus cannot move the curve, and a copy that plays
 * exactly like its original gets its strength. A unit with no games against curve units: NaN.
 * `start`: strengths to refit from (bradleyTerry), for every unit.
 */
export function curveStrengths(wins: number[][], games: number[][], onCurve: readonly boolean[], start?: readonly number[]): number[] {
  if (onCurve.every(Boolean)) return bradleyTerry(wins, games, undefined, start);
  const curve = onCurve.flatMap((on, i) => (on ? [i] : []));
  const fitted = bradleyTerry(
    curve.map((i) => curve.map((j) => wins[i][j])),
    curve.map((i) => curve.map((j) => games[i][j])),
    undefined,
    start && curve.map((i) => start[i]),
  );
  const s = new Array<number>(wins.length).fill(NaN);
  curve.forEach((i, c) => (s[i] = fitted[c]));
  for (let i = 0; i < wins.length; i++) {
    if (onCurve[i] || !curve.some((j) => games[i][j] > 0)) continue;
    let w = 0;
    for (const j of curve) w += wins[i][j];
    // The MM step for one strength with the others fixed; it converges in a few dozen steps.
    let si = start && start[i] > 0 ? start[i] : 1;
    for (let it = 0; it < 200; it++) {
      let denom = 0;
      for (const j of curve) if (games[i][j] > 0) denom += games[i][j] / (si + s[j]);
      const next = w / denom;
      const moved = Math.abs(next / si - 1);
      si = next;
      if (start && moved < 1e-12) break;
    }
    s[i] = si;
  }
  return s;
}

/**
 * Fair TVs from strengths: a robust straight line log(strength) = a + b log(TV) through the
 * units of the curve (Theil-Sen: the median of pairwise slopes, then the median intercept,
 * so a few mispriced units do not bend it), inverted at each unit's strength. NaN when
 * strength does not grow with TV across the roster (no price curve to read).
 */
export function fairTvs(strength: number[], tvs: number[], onCurve: readonly boolean[] = strength.map(() => true)): number[] {
  const x = tvs.map(Math.log);
  const y = strength.map(Math.log);
  const curve = x.map((_, i) => i).filter((i) => onCurve[i]);
  const slopes: number[] = [];
  for (const i of curve) for (const j of curve) if (j > i && x[j] !== x[i]) slopes.push((y[j] - y[i]) / (x[j] - x[i]));
  const b = median(slopes);
  if (!(b > 0.05)) return y.map(() => NaN);
  const a = median(curve.map((i) => y[i] - b * x[i]));
  return y.map((yi) => Math.exp((yi - a) / b));
}

/** A flagged verdict over the roster range: it holds, or it depends on the roster's mix; '-' when not flagged or no range. */
export function acrossRosters(holds: boolean | null): string {
  return holds === null ? '-' : holds ? 'holds' : 'roster-dependent';
}

/**
 * The 95% range of `replicates` (the roster range's refits) moved to centre on `value`: the
 * refits' median sits off the full roster's figure (a price curve fitted to fewer units leans
 * a little steeper), and that lean is not the spread the range is meant to show. Worked on
 * the scale `to` (log for fair TVs, so the range keeps its shape; plain for differences) and
 * back with `from`. NaN ends when fewer than half the refits have a figure (the rest had no
 * price curve or no games against the units kept): a range from the others would describe a
 * biased few.
 */
export function centredRange(value: number, replicates: readonly number[], to: (x: number) => number = (x) => x, from: (x: number) => number = (x) => x): { low: number; high: number } {
  const t = replicates.filter(Number.isFinite).map(to).filter(Number.isFinite).sort((a, b) => a - b);
  if (t.length < replicates.length / 2 || t.length === 0) return { low: NaN, high: NaN };
  const mid = sortedQuantile(t, 0.5);
  const centre = to(value);
  return { low: from(centre + sortedQuantile(t, 0.025) - mid), high: from(centre + sortedQuantile(t, 0.975) - mid) };
}

/** The q-quantile of sorted replicates (the nearest rank): the bootstrap intervals' ends. */
export function sortedQuantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Efficiency of every unit in the variant's duels. `curveIds`: the units that define the
 * price curve (default: all); others (e.g. modified copies in jwsim costs --stat) are only
 * read off it.
 */
export function unitEfficiency(results: RunResults, variant: string, curveIds?: ReadonlySet<string>): UnitEfficiency[] {
  const duels = results.experiments.filter((e) => e.kind === 'duel' && e.variant === variant);
  const obs = observations(duels);
  const ids = [...obs.keys()].filter((id) => results.units[id]).sort();
  if (ids.length < 2) return [];
  const index = new Map(ids.map((id, i) => [id, i]));
  const k = ids.length;
  // Pairwise results, with half a win and half a loss added to every pair that met (a
  // weak prior that keeps a unit that never won at a small positive strength).
  const wins = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const games = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  // The variance of each pair's score total: draws score a half, so it is below the win/loss
  // (binomial) variance, by far where most duels are draws.
  const spread = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [id, list] of obs) {
    const i = index.get(id);
    if (i === undefined) continue;
    for (const o of list) {
      const j = index.get(o.opponent)!;
      wins[i][j] += o.score * o.n + 0.5;
      games[i][j] += o.n + 1;
      spread[i][j] += o.variance * o.n;
    }
  }
  const tvs = ids.map((id) => results.units[id].tv);
  const onCurve = ids.map((id) => !curveIds || curveIds.has(id));
  const strength = curveStrengths(wins, games, onCurve);
  const fair = fairTvs(strength, tvs, onCurve);
  // Parametric bootstrap: redraw every pair's score total from a normal approximation with its
  // observed variance (wins, draws and losses), refit.
  const rng = openStream({ seed: results.seed, experiment: `report/${variant}`, purpose: 'bootstrap', chunk: 0 });
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const reps: number[][] = [];
  for (let r = 0; r < BOOTSTRAP_REPLICATES; r++) {
    const w = wins.map((row, i) =>
      row.map((x, j) => {
        const n = games[i][j];
        if (n === 0 || j < i) return 0;
        return Math.min(n, Math.max(0, x + Math.sqrt(spread[i][j]) * normal()));
      }),
    );
    for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) w[i][j] = games[i][j] - w[j][i];
    reps.push(fairTvs(curveStrengths(w, games, onCurve), tvs, onCurve));
  }
  // Roster range, a sensitivity check: the same duels refitted on ROSTER_DRAWS rosters that
  // each drop a random quarter of the curve units (drawn without replacement, so no roster is
  // made mostly of one unit; point estimates only, so the noise stays apart). A unit left out
  // is read off that roster's curve from its games against the units kept, as an off-curve
  // unit is. The rosters come from a stream of their own, the same for every variant.
  const curve = onCurve.flatMap((on, i) => (on ? [i] : []));
  const rosterReps: number[][] = [];
  if (curve.length >= MIN_ROSTER_UNITS) {
    const keep = Math.ceil(ROSTER_SHARE * curve.length);
    const rosterRng = openStream({ seed: results.seed, experiment: 'report/roster-range', purpose: 'roster-range', chunk: 0 });
    for (let r = 0; r < ROSTER_DRAWS; r++) {
      const order = [...curve];
      for (let t = 0; t < keep; t++) {
        const u = t + Math.min(order.length - 1 - t, Math.floor(rosterRng.next() * (order.length - t)));
        [order[t], order[u]] = [order[u], order[t]];
      }
      const kept = new Array<boolean>(k).fill(false);
      for (let t = 0; t < keep; t++) kept[order[t]] = true;
      rosterReps.push(fairTvs(curveStrengths(wins, games, kept, strength), tvs, kept));
    }
  }
  return ids.map((id, i) => {
    const list = obs.get(id)!;
    const m = list.length;
    const score = list.reduce((a, o) => a + o.score, 0) / m;
    const scoreSe = Math.sqrt(list.reduce((a, o) => a + o.variance / o.n, 0)) / m;
    const weights = list.map((o) => results.units[o.opponent]?.tv ?? 0);
    const wsum = weights.reduce((a, b) => a + b, 0) || 1;
    const tvWeighted = list.reduce((a, o, t) => a + weights[t] * o.score, 0) / wsum;
    const tvWeightedSe = Math.sqrt(list.reduce((a, o, t) => a + weights[t] ** 2 * (o.variance / o.n), 0)) / wsum;
    const tv = tvs[i];
    const damage = list.reduce((a, o) => a + o.damage, 0) / m;
    const damageSe = Math.sqrt(list.reduce((a, o) => a + o.damageSe ** 2, 0)) / m;
    const misfit = list.reduce((a, o) => a + Math.abs(o.score - strength[i] / (strength[i] + strength[index.get(o.opponent)!])), 0) / m;
    const pairNoise = list.reduce((a, o) => a + Math.sqrt(o.variance / o.n), 0) / m;
    const boot = reps.map((r) => r[i]).filter(Number.isFinite).sort((a, b) => a - b);
    const fairTv = boot.length ? { value: fair[i], low: sortedQuantile(boot, 0.025), high: sortedQuantile(boot, 0.975) } : { value: NaN, low: NaN, high: NaN };
    const verdict: UnitEfficiency['verdict'] = !Number.isFinite(fairTv.value) ? 'unknown' : fairTv.low > tv * (1 + FAIR_TV_TOLERANCE) ? 'under-costed' : fairTv.high < tv * (1 - FAIR_TV_TOLERANCE) ? 'over-costed' : 'fair';
    const rosterRange = Number.isFinite(fairTv.value) ? centredRange(fairTv.value, rosterReps.map((r) => r[i]), (x) => Math.log(x), Math.exp) : { low: NaN, high: NaN };
    const flagged = verdict === 'under-costed' || verdict === 'over-costed';
    const holds = verdict === 'under-costed' ? rosterRange.low > tv * (1 + FAIR_TV_TOLERANCE) : rosterRange.high < tv * (1 - FAIR_TV_TOLERANCE);
    return {
      id,
      name: results.units[id].name,
      tv,
      duels: m,
      score: est(score, scoreSe),
      tvWeightedScore: est(tvWeighted, tvWeightedSe),
      damagePer100Tv: est((100 * damage) / tv, (100 * damageSe) / tv),
      fairTv,
      verdict,
      fairTvReplicates: reps.map((r) => r[i]),
      rosterRange,
      rosterReplicates: rosterReps.map((r) => r[i]),
      holdsAcrossRosters: flagged && Number.isFinite(rosterRange.low) ? holds : null,
      misfit,
      pairNoise,
    };
  });
}

/**
 * Battle-based points efficiency of every unit type in the variant's battles (README
 * "Points efficiency"): Structure dealt per 100 TV per model and game, pooled over the
 * battle experiments by appearances, with a normal 95% interval from each experiment's.
 */
export function battleEfficiency(results: RunResults, variant: string): Map<string, Estimate & { appearances: number }> {
  const acc = new Map<string, { w: number; sum: number; varSum: number }>();
  for (const e of results.experiments) {
    if (e.kind !== 'battle' || e.variant !== variant) continue;
    for (const u of e.units ?? []) {
      if (u.appearances <= 0) continue;
      const a = acc.get(u.id) ?? { w: 0, sum: 0, varSum: 0 };
      const se = (u.damage_per_100_tv.high - u.damage_per_100_tv.low) / (2 * Z95);
      a.w += u.appearances;
      a.sum += u.appearances * u.damage_per_100_tv.value;
      a.varSum += (u.appearances * se) ** 2;
      acc.set(u.id, a);
    }
  }
  return new Map([...acc].map(([id, a]) => [id, { ...est(a.sum / a.w, Math.sqrt(a.varSum) / a.w), appearances: a.w }]));
}

/**
 * One line on how well the strength model fits the duels, for outputs that show fair TVs:
 * the median unit misfit against the median Monte Carlo noise of a pair score, and how many
 * verdicts hold across subsampled rosters. Null for no units.
 */
export function modelFitNote(units: ReadonlyArray<Pick<UnitEfficiency, 'name' | 'misfit' | 'pairNoise' | 'verdict' | 'holdsAcrossRosters' | 'rosterRange'>>): string | null {
  if (units.length === 0) return null;
  const misfit = median(units.map((u) => u.misfit));
  const noise = median(units.map((u) => u.pairNoise));
  const worst = units.reduce((a, u) => (u.misfit > a.misfit ? u : a));
  const flagged = units.filter((u) => u.verdict === 'under-costed' || u.verdict === 'over-costed');
  const judged = flagged.filter((u) => u.holdsAcrossRosters !== null);
  const held = judged.filter((u) => u.holdsAcrossRosters).length;
  const line = `${Math.round(FAIR_TV_TOLERANCE * 100)}% line`;
  const described = ` The roster range is ${ROSTER_RANGE_WORDS}; it shows how much each figure leans on which opponents and price points this roster holds, one part of this model error.`;
  const roster = !units.some((u) => Number.isFinite(u.rosterRange.low))
    ? flagged.length
      ? ` No roster range could be drawn (it needs at least ${MIN_ROSTER_UNITS} units on the price curve, and a price curve in at least half its rosters), so read a verdict near the ${line}, or a unit with a large misfit, as uncertain.`
      : ''
    : judged.length
      ? `${described} ${held} of the ${judged.length} flagged verdicts hold when a random quarter of the units is dropped (their roster range is beyond the ${line} too); read the others as depending on this roster's mix.`
      : described;
  return `Model fit: a unit's duel scores differ from what the fitted strengths predict by ${misfit.toFixed(3)} (the median over units of each one's mean gap; worst ${worst.name}, ${worst.misfit.toFixed(3)}), against Monte Carlo noise of ${noise.toFixed(3)} per pair score. The fair-TV 95% intervals show the noise only.${roster}`;
}
