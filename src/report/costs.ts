// jwsim costs: suggested TV for every unit, and the points value of +1 of a rating.
//
// Suggested TV is the fair TV of src/report/efficiency.ts: Bradley-Terry strengths from a
// duel matrix of the roster, read off the roster's price curve (log strength against log
// TV). For --stat, copies of one unit with +1 to a rating fight the same field; each copy's
// fair TV is read off the curve of the original roster, and the points value of the rating
// is copy minus original, with a bootstrap interval of that difference.
import type { Roster, UnitCard, WeaponLine } from '../units/types.js';
import { centredRange, sortedQuantile, unitEfficiency, type Estimate, type UnitEfficiency } from './efficiency.js';
import type { RunResults } from './runFolder.js';

export interface SuggestedTv {
  id: string;
  name: string;
  tv: number;
  suggested: Estimate;
  /** Suggested / card TV - 1. */
  change: number;
  verdict: UnitEfficiency['verdict'];
  /** UnitEfficiency.rosterRange and holdsAcrossRosters: how far the suggestion depends on which units the roster holds. */
  rosterRange: { low: number; high: number };
  holdsAcrossRosters: boolean | null;
  scoreVsField: number;
  /** UnitEfficiency.misfit: model error of the strengths behind the suggestion. */
  misfit: number;
  pairNoise: number;
}

/** Placeholder values the duels behind a cost estimate used. */
export function placeholdersUsed(results: RunResults): string[] {
  return [...new Set(results.experiments.flatMap((e) => e.placeholders))].sort();
}

export function suggestedTvs(results: RunResults, variant: string, curveIds?: ReadonlySet<string>): SuggestedTv[] {
  return unitEfficiency(results, variant, curveIds).map((u) => ({
    id: u.id,
    name: u.name,
    tv: u.tv,
    suggested: u.fairTv,
    change: u.fairTv.value / u.tv - 1,
    verdict: u.verdict,
    rosterRange: u.rosterRange,
    holdsAcrossRosters: u.holdsAcrossRosters,
    scoreVsField: u.score.value,
    misfit: u.misfit,
    pairNoise: u.pairNoise,
  }));
}

export const STAT_RATINGS = ['structure', 'fire_control', 'sensors', 'thrusters', 'skill', 'weapon_die'] as const;
export type StatRating = (typeof STAT_RATINGS)[number];

/** Why `unit` cannot take +1 to `rating`, or null when it can (withPlusOne makes the copy then). */
export function plusOneProblem(unit: UnitCard, rating: StatRating, maxima: { structure: number; pool: number }): string | null {
  switch (rating) {
    case 'structure':
      return unit.structure < maxima.structure ? null : `Structure is at its maximum, ${maxima.structure}`;
    case 'thrusters':
      return unit.isCapital ? null : 'only capital ships have Thrusters';
    case 'skill':
      return unit.skill < maxima.pool - 1 ? null : `Skill is at its maximum, ${maxima.pool - 1}`;
    case 'weapon_die':
      return unit.weapons[0] ? null : 'it has no weapon line';
    default:
      return null;
  }
}

/** A copy of `unit` with +1 to one rating (weapon_die: +1 AC and +1 AS on its first weapon line), or null when it cannot take it. */
export function withPlusOne(unit: UnitCard, rating: StatRating, maxima: { structure: number; pool: number }): UnitCard | null {
  if (plusOneProblem(unit, rating, maxima)) return null;
  const id = `${unit.id}+${rating}`;
  const copy = (patch: Partial<UnitCard>): UnitCard => ({ ...unit, id, name: `${unit.name} +1 ${rating.replace('_', ' ')}`, ...patch });
  switch (rating) {
    case 'structure':
      return copy({ structure: unit.structure + 1 });
    case 'fire_control':
      return copy({ fireControl: unit.fireControl + 1 });
    case 'sensors':
      return copy({ sensors: unit.sensors + 1 });
    case 'thrusters':
      return copy({ thrusters: unit.thrusters + 1 });
    case 'skill':
      return copy({ skill: unit.skill + 1 });
    case 'weapon_die': {
      const w = unit.weapons[0];
      const bump = (x: number | null) => (x === null || x === 0 ? x : Math.min(maxima.pool, x + 1));
      const first: WeaponLine = { ...w, ac: bump(w.ac), as: bump(w.as) };
      return copy({ weapons: [first, ...unit.weapons.slice(1)] });
    }
  }
}

export interface StatValue {
  rating: StatRating;
  /** Points value of +1: fair TV of the copy minus fair TV of the unit, with a 95% bootstrap interval. */
  value: Estimate | null;
  /** The 95% range of that difference over the roster range's rosters, centred on it (UnitEfficiency.rosterRange); null without one. */
  rosterRange: { low: number; high: number } | null;
  note: string;
}

/** Points value of each +1, from a run that holds the unit and its copies (ids `${unit}+${rating}`, made within `maxima`). */
export function statValues(results: RunResults, variant: string, unit: UnitCard, roster: Roster, maxima: { structure: number; pool: number }): StatValue[] {
  const effs = unitEfficiency(results, variant, new Set(roster.units.keys()));
  const base = effs.find((e) => e.id === unit.id);
  return STAT_RATINGS.map((rating) => {
    const copy = effs.find((e) => e.id === `${unit.id}+${rating}`);
    if (!base || !copy) return { rating, value: null, rosterRange: null, note: `not applicable: ${plusOneProblem(unit, rating, maxima) ?? 'no duels of the copy in these results'}` };
    const value = copy.fairTv.value - base.fairTv.value;
    const noise = differences(copy.fairTvReplicates, base.fairTvReplicates);
    const roster = centredRange(value, copy.rosterReplicates.map((x, i) => x - base.rosterReplicates[i]));
    return {
      rating,
      value: Number.isFinite(value) && noise.length ? { value, low: sortedQuantile(noise, 0.025), high: sortedQuantile(noise, 0.975) } : null,
      rosterRange: Number.isFinite(value) && Number.isFinite(roster.low) ? roster : null,
      note: '',
    };
  });
}

/** Replicate by replicate differences a - b (the replicates are aligned), finite ones, sorted. */
function differences(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x - b[i]).filter(Number.isFinite).sort((p, q) => p - q);
}

/** Placeholders of a --stat run with each copy's entries ("X+skill.tv") named as the original unit's ("X.tv"): the copies inherit them. */
export function originalPlaceholders(list: readonly string[]): string[] {
  return [...new Set(list.map((p) => p.replace(/^([^\s+]+)\+[a-z_]+\./, '$1.')))].sort();
}
