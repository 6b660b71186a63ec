// jwsim costs: a roster with one unit under-priced by 25% and one over-priced by 25% must
// have both flagged, in the right direction, with a suggested TV within 10% of fair.
import { describe, expect, it } from 'vitest';
import { STAT_RATINGS, statValues, suggestedTvs, withPlusOne } from '../../src/report/costs.js';
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
  for (const u of extra) for (const b of keys) cells.push(duelCell('t', u.id, b, 3, 8192), duelCell('t', b, u.id, 3, 8192));
  const all: Roster = { files: r.files, units: new Map([...r.units, ...extra.map((u) => [u.id, u] as const)]) };
  const batch = generatedBatch('test', all, 'costs-test', variant, cells);
  return JSON.parse(resultsJson(batch, (await runBatch(batch, { threads: 2, shard: null, checkpoint: null })).slots)) as RunResults;
}

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
    const values = new Map(statValues(results, 'v1.2.2', unit, roster).map((v) => [v.rating, v]));
    expect(values.get('thrusters')!.value).toBeNull();
    for (const r of ['structure', 'weapon_die'] as const) {
      const v = values.get(r)!.value!;
      expect(v.value, r).toBeGreaterThan(0);
      expect(v.low, r).toBeGreaterThan(0);
      expect(v.low).toBeLessThanOrEqual(v.value);
      expect(v.high).toBeGreaterThanOrEqual(v.value);
    }
  }, 60_000);
});
