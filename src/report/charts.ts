// Chart builders: pure functions from result rows to Vega-Lite specs. Rendering them is
// src/report/render.ts's job; the specs are also saved as .vl.json for designers to edit.
import { duelScore, type UnitEfficiency } from './efficiency.js';
import type { Engagement, RunResults } from './runFolder.js';
import { Z95 } from '../stats/intervals.js';

export type VegaLiteSpec = Record<string, unknown>;
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const FONT = { font: 'DejaVu Sans', labelFont: 'DejaVu Sans', titleFont: 'DejaVu Sans' };
const config = { font: 'DejaVu Sans', axis: FONT, legend: FONT, header: FONT, title: { font: 'DejaVu Sans' }, view: { stroke: null } };

const base = (title: string, description: string): VegaLiteSpec => ({ $schema: SCHEMA, title, description, config, background: 'white', padding: 8 });
const name = (results: RunResults, id: string) => results.units[id]?.name ?? id;

/**
 * Duel score of the row unit (A) against the column unit (B): wins plus half the draws,
 * diverging around 50%. A win rate alone would read a pair that mostly draws (A never loses)
 * as A losing. The interval is a normal one from the per-duel score variance.
 */
export function matchupMatrix(results: RunResults, variant: string): VegaLiteSpec | null {
  const rows = results.experiments
    .filter((e) => e.kind === 'duel' && e.variant === variant)
    .map((e) => {
      const win = e.metrics.a_win_rate.value, draw = e.metrics.draw_rate.value, n = e.trials ?? 0;
      const { score, variance } = duelScore(win, draw);
      const half = n > 0 ? Z95 * Math.sqrt(variance / n) : 0;
      return { row: name(results, e.a), column: name(results, e.b), score, low: Math.max(0, score - half), high: Math.min(1, score + half), win, draw, loss: e.metrics.b_win_rate.value, trials: e.trials };
    });
  if (rows.length === 0) return null;
  const size = Math.max(220, Math.min(900, 28 * new Set(rows.map((r) => r.row)).size));
  return {
    ...base(`Duel score, row unit vs column unit (${variant})`, 'Score of the row unit (A) against the column unit (B): its wins plus half its draws; 50% is even.'),
    data: { values: rows },
    width: size,
    height: size,
    encoding: {
      x: { field: 'column', type: 'nominal', title: 'B (column)', sort: 'ascending', axis: { labelAngle: -45 } },
      y: { field: 'row', type: 'nominal', title: 'A (row)', sort: 'ascending' },
    },
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: { field: 'score', type: 'quantitative', title: 'A score (win + draw/2)', scale: { scheme: 'redblue', domain: [0, 1], domainMid: 0.5 }, legend: { format: '.0%' } },
          tooltip: [
            { field: 'row', title: 'A' },
            { field: 'column', title: 'B' },
            { field: 'score', title: 'A score', format: '.1%' },
            { field: 'low', title: '95% low', format: '.1%' },
            { field: 'high', title: '95% high', format: '.1%' },
            { field: 'win', title: 'A wins', format: '.1%' },
            { field: 'draw', title: 'draws', format: '.1%' },
            { field: 'loss', title: 'B wins', format: '.1%' },
            { field: 'trials', title: 'duels' },
          ],
        },
      },
      { mark: { type: 'text', fontSize: 8 }, encoding: { text: { field: 'score', type: 'quantitative', format: '.0%' }, color: { value: 'black' } } },
    ],
  };
}

/**
 * Score against the field and damage per 100 TV with 95% intervals, sorted, each unit
 * coloured by its fair-TV verdict (the table beside the chart gives the same). A unit's score
 * against the field also reflects its price (an expensive unit should win more), so the
 * dashed field average is a reference line, not a verdict.
 */
export function pointsEfficiency(units: UnitEfficiency[], variant: string): VegaLiteSpec | null {
  if (units.length === 0) return null;
  const figures = [
    { figure: 'score vs field (win + draw/2)', get: (u: UnitEfficiency) => u.score },
    { figure: 'Structure dealt per 100 TV (per duel)', get: (u: UnitEfficiency) => u.damagePer100Tv },
  ];
  const label: Record<UnitEfficiency['verdict'], string> = {
    'under-costed': 'fair TV above its TV: likely under-costed',
    fair: 'fair TV not clearly more than 5% off its TV',
    'over-costed': 'fair TV below its TV: likely over-costed',
    unknown: 'no fair TV (no price curve)',
  };
  const rows = figures.flatMap(({ figure, get }) => {
    const average = units.reduce((a, u) => a + get(u).value, 0) / units.length;
    return units.map((u) => {
      const e = get(u);
      return { unit: u.name, figure, value: e.value, low: e.low, high: e.high, average, mark: label[u.verdict], tv: u.tv, fair: Number.isFinite(u.fairTv.value) ? u.fairTv.value : null };
    });
  });
  const order = [...units].sort((a, b) => b.score.value - a.score.value).map((u) => u.name);
  const domain = [label['under-costed'], label.fair, label['over-costed'], label.unknown];
  const color = { field: 'mark', type: 'nominal', title: null, scale: { domain, range: ['#1f77b4', '#7f7f7f', '#d62728', '#c7c7c7'] }, legend: { orient: 'bottom', direction: 'vertical', labelLimit: 400 } };
  return {
    ...base(`Points efficiency (${variant})`, 'Per unit, against every opponent in the duel matrix; bars are 95% intervals, the dashed line the field average; colour: the fair-TV verdict.'),
    data: { values: rows },
    facet: { column: { field: 'figure', type: 'nominal', title: null, sort: figures.map((f) => f.figure) } },
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 260,
      height: Math.max(160, 16 * units.length),
      encoding: { y: { field: 'unit', type: 'nominal', sort: order, title: null } },
      layer: [
        { mark: { type: 'rule', strokeDash: [4, 3], color: '#999' }, encoding: { x: { aggregate: 'mean', field: 'average', type: 'quantitative' }, y: null } },
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'low', type: 'quantitative', title: null }, x2: { field: 'high' }, color } },
        {
          mark: { type: 'point', filled: true },
          encoding: {
            x: { field: 'value', type: 'quantitative' },
            color,
            tooltip: [
              { field: 'unit' },
              { field: 'value', format: '.3f' },
              { field: 'low', title: '95% low', format: '.3f' },
              { field: 'high', title: '95% high', format: '.3f' },
              { field: 'tv', title: 'TV' },
              { field: 'fair', title: 'fair TV', format: '.1f' },
            ],
          },
        },
      ],
    },
  };
}

/**
 * A battle's points efficiency by unit type: Structure dealt per 100 TV in whole games
 * (mean per model and game), bars with their 95% intervals, best first.
 */
export function battleUnitDamage(e: Engagement): VegaLiteSpec | null {
  const units = e.kind === 'battle' ? (e.units ?? []).filter((u) => u.appearances > 0) : [];
  if (units.length === 0) return null;
  // Two unit types may share a name; the id tells them apart.
  const label = (u: (typeof units)[number]) => (units.some((o) => o !== u && o.name === u.name) ? `${u.name} (${u.id})` : u.name);
  const rows = units.map((u) => ({
    unit: label(u),
    id: u.id,
    tv: u.tv,
    value: u.damage_per_100_tv.value,
    low: u.damage_per_100_tv.low,
    high: u.damage_per_100_tv.high,
    damage: u.damage_dealt,
    appearances: u.appearances,
    sides: u.sides.join('+'),
  }));
  const order = [...rows].sort((a, b) => b.value - a.value || a.unit.localeCompare(b.unit)).map((r) => r.unit);
  return {
    ...base(`Damage per 100 TV by unit type (${e.engagement}, ${e.variant})`, 'Structure each unit type took off the enemy per model and game, per 100 TV of the type; bars are 95% intervals.'),
    data: { values: rows },
    width: 420,
    height: Math.max(120, 22 * rows.length),
    encoding: { y: { field: 'unit', type: 'nominal', sort: order, title: null } },
    layer: [
      {
        mark: { type: 'bar', color: '#9ecae1' },
        encoding: {
          x: { field: 'value', type: 'quantitative', title: 'Structure dealt per 100 TV (per game)' },
          tooltip: [
            { field: 'unit' },
            { field: 'tv', title: 'TV' },
            { field: 'value', title: 'per 100 TV', format: '.3f' },
            { field: 'low', title: '95% low', format: '.3f' },
            { field: 'high', title: '95% high', format: '.3f' },
            { field: 'damage', title: 'Structure dealt per game', format: '.3f' },
            { field: 'appearances', title: 'appearances' },
            { field: 'sides', title: 'sides' },
          ],
        },
      },
      { mark: { type: 'rule', strokeWidth: 2, color: '#08519c' }, encoding: { x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } } },
    ],
  };
}

const OUTCOMES = ['lost 0', 'lost 1', 'lost 2', 'lost 3', 'lost 4', 'lost 5', 'lost 6', 'lost 7', 'lost 8', 'lost 9', 'lost 10'];

/** What attacks did: P(k Structure lost), P(destroyed), P(crippled) and mean rating damage, per engagement. */
export function attackProfile(results: RunResults, variant: string): VegaLiteSpec | null {
  const attacks = results.experiments.filter((e) => (e.kind === 'attack' || e.kind === 'volley' || e.kind === 'ram') && e.variant === variant);
  if (attacks.length === 0) return null;
  const rows: Array<Record<string, unknown>> = [];
  for (const e of attacks) {
    const label = `${name(results, e.a)} -> ${name(results, e.b)}${e.kind === 'volley' ? ' (volley)' : e.kind === 'ram' ? ' (ram)' : ''}`;
    const last = e.distribution.p.reduce((hi, p, k) => (p > 0 ? k : hi), 0);
    e.distribution.p.slice(0, last + 1).forEach((p, k) => rows.push({ engagement: label, outcome: OUTCOMES[k], group: 'P(Structure lost)', value: p }));
    rows.push({ engagement: label, outcome: 'destroyed', group: 'P(state)', value: e.metrics.p_destroyed.value });
    rows.push({ engagement: label, outcome: 'crippled', group: 'P(state)', value: e.metrics.p_crippled.value });
    for (const r of ['defense', 'sensors', 'thrusters']) rows.push({ engagement: label, outcome: `${r} dmg`, group: 'mean rating damage', value: e.metrics[`mean_${r}_damage`].value });
  }
  // Two panels side by side, one row per engagement in each: probabilities on a 0-1 scale,
  // and the mean rating damage in rating points on its own scale (on one shared axis the two
  // kinds of figure cannot be read against each other). Only the left panel labels the rows.
  const panel = (filter: string, labels: boolean, width: number, sort: string[], y: Record<string, unknown>) => ({
    transform: [{ filter }],
    facet: { row: { field: 'engagement', type: 'nominal', title: null, header: labels ? { labelAngle: 0, labelAlign: 'left' } : { labels: false } } },
    spec: {
      width,
      height: 90,
      mark: 'bar',
      encoding: {
        x: { field: 'outcome', type: 'nominal', sort, title: null, axis: { labelAngle: -40 } },
        y: { field: 'value', type: 'quantitative', ...y },
        color: { field: 'group', type: 'nominal', title: null },
        tooltip: [{ field: 'engagement' }, { field: 'outcome' }, { field: 'value', format: '.3f' }],
      },
    },
  });
  return {
    ...base(`Attack profiles (${variant})`, 'Per attack, volley or ram (the target\'s damage): left, the distribution of Structure lost and the chance of each end state; right, the mean damage to each rating, in rating points.'),
    data: { values: rows },
    hconcat: [
      panel("datum.group !== 'mean rating damage'", true, 360, [...OUTCOMES, 'destroyed', 'crippled'], { title: 'probability', scale: { domain: [0, 1] } }),
      panel("datum.group === 'mean rating damage'", false, 120, ['defense dmg', 'sensors dmg', 'thrusters dmg'], { title: 'mean points' }),
    ],
  };
}

/** Cumulative share of decided duels (won by either side) over by round r, per unit (as side A, averaged over opponents, each weighted by its share of decided duels). */
export function timeToKill(results: RunResults, variant: string): VegaLiteSpec | null {
  const duels = results.experiments.filter((e) => e.kind === 'duel' && e.variant === variant);
  if (duels.length === 0) return null;
  // Each opponent weighs by the share of its duels that were decided: a pair that almost always
  // draws says little about how fast this unit decides a duel.
  const byUnit = new Map<string, Array<{ p: number[]; weight: number }>>();
  for (const e of duels) {
    if (!byUnit.has(e.a)) byUnit.set(e.a, []);
    byUnit.get(e.a)!.push({ p: e.distribution.p, weight: Math.max(0, 1 - e.metrics.draw_rate.value) });
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const [id, dists] of byUnit) {
    const total = dists.reduce((a, d) => a + d.weight, 0);
    if (total <= 0) continue; // every duel of this unit as A was drawn
    const len = dists[0].p.length;
    let cum = 0;
    for (let r = 1; r < len; r++) {
      cum += dists.reduce((a, d) => a + d.weight * d.p[r], 0) / total;
      rows.push({ unit: name(results, id), round: r, cumulative: Math.min(1, cum) });
    }
  }
  if (rows.length === 0) return null;
  return {
    ...base(`Time to decide (${variant})`, 'Among duels that ended with a side out of the fight (won by either side; draws left out): the share over by each round, per unit as side A, averaged over its opponents weighted by their decided duels.'),
    data: { values: rows },
    width: 520,
    height: 300,
    mark: { type: 'line', interpolate: 'step-after' },
    encoding: {
      x: { field: 'round', type: 'quantitative', title: 'round', scale: { domain: [1, 20], clamp: true } },
      y: { field: 'cumulative', type: 'quantitative', title: 'share of decided duels over', axis: { format: '.0%' } },
      color: { field: 'unit', type: 'nominal', scale: { scheme: 'tableau20' }, legend: { columns: 2, symbolLimit: 40 } },
      tooltip: [{ field: 'unit' }, { field: 'round' }, { field: 'cumulative', format: '.1%' }],
    },
  };
}

export interface Shift {
  label: string;
  metric: string;
  difference: number;
  low: number;
  high: number;
}

/** Each shift between two variants with its 95% interval, largest first (a forest plot). */
export function versionComparison(shifts: Shift[], from: string, to: string): VegaLiteSpec | null {
  if (shifts.length === 0) return null;
  // An exact zero (an exact engagement, or one the change did not touch) is unchanged, not noise.
  const rows = shifts.map((s) => ({ ...s, moved: s.low > 0 || s.high < 0 ? 'interval excludes 0' : s.low === 0 && s.high === 0 ? 'unchanged' : 'within noise' }));
  const order = [...rows].sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference)).map((r) => r.label);
  const color = { field: 'moved', type: 'nominal', title: null, scale: { domain: ['interval excludes 0', 'within noise', 'unchanged'], range: ['#d62728', '#7f7f7f', '#c7c7c7'] } };
  // One panel per metric, each on its own scale: a win rate (0..1) and a mean in Structure
  // points are not comparable, and on a shared axis one hides the other.
  return {
    ...base(`What moved from ${from} to ${to}`, `Difference (${to} minus ${from}) with its 95% interval, one panel per metric on its own scale, largest first.`),
    data: { values: rows },
    facet: { row: { field: 'metric', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left', labelFontWeight: 'bold' } } },
    spec: {
      width: 420,
      height: { step: 16 },
      encoding: { y: { field: 'label', type: 'nominal', sort: order, title: null } },
      layer: [
        { mark: { type: 'rule', strokeDash: [3, 3] }, encoding: { x: { datum: 0, type: 'quantitative' }, y: null } },
        { mark: 'rule', encoding: { x: { field: 'low', type: 'quantitative', title: `${to} minus ${from}` }, x2: { field: 'high' }, color } },
        { mark: { type: 'point', filled: true }, encoding: { x: { field: 'difference', type: 'quantitative' }, color, tooltip: [{ field: 'label' }, { field: 'metric' }, { field: 'difference', format: '.4f' }, { field: 'low', format: '.4f' }, { field: 'high', format: '.4f' }] } },
      ],
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
  };
}

/** Key metric of each engagement kind, for tables and comparisons (the one jwsim compare stops on). */
export { KEY_METRIC } from '../sim/compare.js';

/** Each unit's score against the field across recorded nightly runs. */
export function efficiencyTrends(rows: ReadonlyArray<{ run: number; recordedAt: string; variant: string; unit: string; score: number; low: number; high: number }>, variant: string): VegaLiteSpec | null {
  const mine = rows.filter((r) => r.variant === variant).map((r) => ({ ...r, night: `${r.run}: ${r.recordedAt.slice(0, 10)}` }));
  if (new Set(mine.map((r) => r.run)).size < 2) return null;
  return {
    ...base(`Score vs field across nightly runs (${variant})`, 'One line per unit; each point is a recorded nightly run (its number in the history and its date), with its 95% interval in the tooltip.'),
    data: { values: mine },
    width: 520,
    height: 300,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'night', type: 'ordinal', title: 'nightly run (number: date)', sort: { field: 'run' }, axis: { labelAngle: -40 } },
      y: { field: 'score', type: 'quantitative', title: 'score vs field', scale: { zero: false } },
      color: { field: 'unit', type: 'nominal', scale: { scheme: 'tableau20' }, legend: { columns: 2, symbolLimit: 40 } },
      tooltip: [{ field: 'unit' }, { field: 'run' }, { field: 'recordedAt', title: 'recorded' }, { field: 'score', format: '.3f' }, { field: 'low', format: '.3f' }, { field: 'high', format: '.3f' }],
    },
  };
}
