// jwsim costs: a roster with one unit under-priced by 25% and one over-priced by 25% must
// have both flagged, in the right direction, with a suggested TV within 10% of fair.
import { describe, expect, it } from 'vitest';
import { STAT_RATINGS, statValues, suggestedTvs, withPlusOne } from '../../src/report/costs.js';
import { bradleyTerry, curveStrengths, unitEfficiency } from '../../src/report/efficiency.js';
import { fixtureResults } from './fixture.js';
import { runCosts } from '../../src/cli/costs.js';
import { DEFAULT_SEED } from '../../src/rng/stream.js';
import type { RunResults } from '../../src/report/runFolder.js';
import { resultsJson } from '../../src/report/runOutput.js';
import { duelCell, generatedBatch } from '../../src/scenarios/batch.js';
import { runBatch } from '../../src/sim/runner.js';
import { loadRoster } from '../../src/units/load.js';
import { sampleRosterFiles } from '../../src/paths.js';
import type { Roster, UnitCard } from '../../src/units/types.js';

const TOLERANCE = 0.1;
const sample = loadRoster(sampleRosterFiles());
const ids = ['cega.wyvern', 'jovian.pathfinder', 'cega.fury', 'cega.uller', 'venus.ryu', 'unknown.syreen', 'unknown.hector', 'unknown.mackie'];
const roster: Roster = { files: sample.files, units: new Map(ids.map((id) => [id, sample.units.get(id)!])) };
const variant = { name: 'v1.2.2', rules: '1.2.2', options: [], overlay: null };

async function duelMatrix(r: Roster, extra: UnitCard[] = []): Promise<RunResults> {
  const keys = [...r.units.keys()];
  const cells = keys.flatMap((a) => keys.filter((b) => b !== a).map((b) => duelCell('t', a, b, 3, 8192)));
  // As jwsim costs --stat: copies meet the roster less the unit they copy.
  for (const u of extra) for (const b of keys) if (!u.id.startsWith(`${b}+`)) cells.push(duelCell('t', u.id, b, 3, 8192), duelCell('t', b, u.id, 3, 8192));
  const all: Roster = { files: r.files, units: new Map([...r.units, ...extra.map((u) => [u.id, u] as const)]) };
  const batch = generatedBatch('test', all, 'costs-test', variant, cells);
  return JSON.parse(resultsJson(batch, (await runBatch(batch, { threads: 2, shard: null, checkpoint: null })).slots)) as RunResults;
}

describe('curveStrengths: units off the curve are read off it, never move it', () => {
  // Three curve units with lopsided records, and unit 3: a copy of unit 0 with exactly its games.
  const W = [
    [0, 60, 30, 0],
    [40, 0, 55, 0],
    [70, 45, 0, 0],
    [60, 30, 0, 0],
  ];
  const G = [
    [0, 100, 100, 0],
    [100, 0, 100, 0],
    [100, 100, 0, 0],
    [100, 100, 0, 0],
  ];
  W[3] = [0, 60, 30, 0];
  G[3] = [0, 100, 100, 0];
  const s = curveStrengths(W, G, [true, true, true, false]);
  it('the curve units get the strengths of a fit without the copy', () => {
    const alone = bradleyTerry(W.slice(0, 3).map((r) => r.slice(0, 3)), G.slice(0, 3).map((r) => r.slice(0, 3)));
    for (let i = 0; i < 3; i++) expect(s[i]).toBeCloseTo(alone[i], 12);
  });
  it('a copy with its original\'s record gets its original\'s strength', () => {
    expect(s[3]).toBeCloseTo(s[0], 9);
  });
  it('with every unit on the curve it is the joint fit', () => {
    expect(curveStrengths(W, G, [true, true, true, true])).toEqual(bradleyTerry(W, G));
  });
});

describe('fair TV intervals follow the spread of the duels, draws included', () => {
  it('turning win/loss pairs into draws keeps every score and fair TV, and narrows the intervals', () => {
    const results = fixtureResults();
    // Each duel: the same mass taken from A's and B's wins and given to draws. A side's score
    // (wins + half the draws) stays, its variance falls.
    const drawn: RunResults = structuredClone(results);
    for (const e of drawn.experiments) {
      if (e.kind !== 'duel') continue;
      const m = e.metrics;
      const d = Math.min(m.a_win_rate.value, m.b_win_rate.value);
      m.a_win_rate.value -= d;
      m.b_win_rate.value -= d;
      m.draw_rate.value += 2 * d;
    }
    const before = unitEfficiency(results, 'v1.2.2');
    const after = unitEfficiency(drawn, 'v1.2.2');
    const width = (u: (typeof before)[number]) => u.fairTv.high - u.fairTv.low;
    const ratios: number[] = [];
    before.forEach((u, i) => {
      expect(after[i].fairTv.value).toBeCloseTo(u.fairTv.value, 9);
      if (width(u) > 0) ratios.push(width(after[i]) / width(u));
    });
    ratios.sort((a, b) => a - b);
    expect(ratios[ratios.length >> 1]).toBeLessThan(0.95);
  });
});

describe('jwsim costs', () => {
  it('flags a unit priced 25% too low and one 25% too high, with suggested TVs within 10% of fair', async () => {
    const results = await duelMatrix(roster);
    // Price every unit at its fair TV: the roster then lies exactly on its own price curve.
    const fair = new Map(suggestedTvs(results, 'v1.2.2').map((s) => [s.id, s.suggested.value]));
    const priced = (tv: (id: string) => number): RunResults => ({
      ...results,
      units: Object.fromEntries(Object.entries(results.units).map(([id, u]) => [id, { ...u, tv: tv(id) }])),
    });
    const onCurve = suggestedTvs(priced((id) => fair.get(id)!), 'v1.2.2');
    for (const s of onCurve) {
      expect(s.suggested.value / fair.get(s.id)!).toBeCloseTo(1, 6);
      expect(s.verdict, s.id).toBe('fair');
    }
    // Duel results do not depend on TV: re-price two units and read the same duels again.
    const under = 'jovian.pathfinder';
    const over = 'cega.uller';
    const mispriced = suggestedTvs(priced((id) => fair.get(id)! * (id === under ? 0.75 : id === over ? 1.25 : 1)), 'v1.2.2');
    const u = mispriced.find((s) => s.id === under)!;
    const o = mispriced.find((s) => s.id === over)!;
    expect(u.verdict).toBe('under-costed');
    expect(o.verdict).toBe('over-costed');
    expect(Math.abs(u.suggested.value / fair.get(under)! - 1)).toBeLessThan(TOLERANCE);
    expect(Math.abs(o.suggested.value / fair.get(over)! - 1)).toBeLessThan(TOLERANCE);
    for (const s of mispriced.filter((x) => x.id !== under && x.id !== over)) expect(s.verdict, s.id).toBe('fair');
  }, 60_000);

  it('--stat: +1 Structure or a weapon die is worth points; +1 Thrusters is not applicable to a squadron', async () => {
    const unit = roster.units.get('cega.wyvern')!;
    const copies = STAT_RATINGS.map((r) => withPlusOne(unit, r, { structure: 10, pool: 12 })).filter((c) => c !== null);
    expect(copies.map((c) => c.id)).not.toContain('cega.wyvern+thrusters');
    const results = await duelMatrix(roster, copies);
    const values = new Map(statValues(results, 'v1.2.2', unit, roster, { structure: 10, pool: 12 }).map((v) => [v.rating, v]));
    expect(values.get('thrusters')!.value).toBeNull();
    expect(values.get('thrusters')!.note).toBe('not applicable: only capital ships have Thrusters');
    // Skill is read only by Cloak tests, and no unit here has Cloak: that copy plays exactly as
    // the original, so its value is nothing (it read about +0.3 TV when copies met the original).
    const skill = values.get('skill')!.value!;
    expect(Math.abs(skill.value)).toBeLessThan(0.15);
    expect(skill.low).toBeLessThanOrEqual(0);
    expect(skill.high).toBeGreaterThanOrEqual(0);
    for (const r of ['structure', 'weapon_die'] as const) {
      const v = values.get(r)!.value!;
      expect(v.value, r).toBeGreaterThan(0);
      expect(v.low, r).toBeGreaterThan(0);
      expect(v.low).toBeLessThanOrEqual(v.value);
      expect(v.high).toBeGreaterThanOrEqual(v.value);
      // Over rosters missing a quarter of the opponents the value moves more than by noise,
      // and stays around the full roster's value.
      const range = values.get(r)!.rosterRange!;
      expect(range.low, r).toBeLessThanOrEqual(v.value);
      expect(range.high, r).toBeGreaterThanOrEqual(v.value);
      expect(range.high - range.low, r).toBeGreaterThan(v.high - v.low);
    }
    // A copy that plays exactly as the original differs from it only by its own duels' noise,
    // which a roster's curve scales (the flatter the curve, the more TV a strength gap is
    // worth): it moves far less over rosters than a copy with +1 Structure.
    const skillRange = values.get('skill')!.rosterRange!;
    const structureRange = values.get('structure')!.rosterRange!;
    expect(Math.max(-skillRange.low, skillRange.high)).toBeLessThan(1);
    expect(Math.max(-skillRange.low, skillRange.high)).toBeLessThan(structureRange.low / 2);
    expect(values.get('thrusters')!.rosterRange).toBeNull();
  }, 60_000);

  it('--stat on the whole sample roster at 6 in: ratings that change no duel are worth nothing (they read +0.27 to +0.30 TV before)', async () => {
    const out = JSON.parse(await runCosts({ rules: '1.2.2', rule: [], range: 6, trials: 8192, threads: 2, seed: DEFAULT_SEED, stat: 'cega.wyvern', json: true }));
    const by = new Map<string, { value: number; low: number; high: number } | null>(out.stat_values.map((v: { rating: string; value: { value: number; low: number; high: number } | null }) => [v.rating, v.value]));
    // The Wyvern already has Fire Control for every weapon, no unit has Cloak (Skill), and at
    // 6 in its Sensors already reach every target: copies with these ratings play as it does.
    for (const r of ['fire_control', 'sensors', 'skill']) {
      const v = by.get(r)!;
      expect(v.low, r).toBeLessThanOrEqual(0);
      expect(v.high, r).toBeGreaterThanOrEqual(0);
    }
    expect(by.get('structure')!.low).toBeGreaterThan(1);
    // The copies inherit the Wyvern's placeholders: they are listed under the Wyvern, not again per copy.
    expect(out.placeholders.some((p: string) => p.includes('+'))).toBe(false);
    expect(out.placeholders).toContain('cega.wyvern.tv');
  }, 120_000);
});

