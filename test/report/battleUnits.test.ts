// Per-unit-type battle figures in run outputs: results.json carries each battle's unit types
// (rates, damage dealt, damage per 100 TV with its interval), results.csv their rows, and
// the report a table and a chart per battle; battle-based efficiency pools experiments.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { battleUnitDamage } from '../../src/report/charts.js';
import { battleEfficiency } from '../../src/report/efficiency.js';
import { renderReport } from '../../src/report/report.js';
import { toVega } from '../../src/report/render.js';
import type { BattleUnitResult, Engagement, RunResults } from '../../src/report/runFolder.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../../src/report/runOutput.js';
import { loadBatch, type Batch } from '../../src/scenarios/batch.js';
import { loadScenario } from '../../src/scenarios/scenario.js';
import { B_N, B_UNITS, U_STRIDE } from '../../src/sim/battles.js';
import { runBatch } from '../../src/sim/runner.js';
import type { Slot } from '../../src/sim/slots.js';
import { Z95 } from '../../src/stats/intervals.js';
import { resultsProblems } from '../../src/report/runFolderSchema.js';
import { fixtureResults } from './fixture.js';

const BATTLES = fileURLToPath(new URL('../../scenarios/battles/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-battle-units-'));
const out = join(root, 'run');
afterAll(() => rmSync(root, { recursive: true, force: true }));

let batch: Batch;
let slots: Slot[];
let results: RunResults;
let csv: string;
let html = '';

beforeAll(async () => {
  const file = join(root, 'batch.json');
  writeFileSync(
    file,
    JSON.stringify({
      format: 'jwsim-batch/1',
      seed: 'battle-units',
      experiments: [
        { id: 'std', kind: 'battle', scenario: join(BATTLES, 'standard-engagement.json'), trials: 2 },
        { id: 'beacon', kind: 'battle', scenario: join(BATTLES, 'beacon-assault.json'), trials: 1, mirror: false },
      ],
    }),
  );
  batch = loadBatch(file);
  slots = (await runBatch(batch, { threads: 0, shard: null, checkpoint: null })).slots;
  csv = resultsCsv(batch, slots);
  mkdirSync(out);
  writeAtomically(out, [
    ['results.csv', csv],
    ['results.json', resultsJson(batch, slots)],
    ['manifest.json', manifest(batch, slots, { threads: 0, shard: null, wallSeconds: 1, commandLine: ['run'], resumed: false })],
  ]);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  html = readFileSync(await renderReport(out), 'utf8');
}, 60_000);

/** Models of each unit type in one game, both fleets, from the scenario file itself. */
function modelsPerGame(cellIndex: number): Map<string, number> {
  const s = loadScenario(batch.cells[cellIndex].scenario!, { rulesVersion: '1.2.2', allowInvalidFleets: false });
  const count = new Map<string, number>();
  for (const side of s.sides) for (const u of side.fleet) count.set(u.id, (count.get(u.id) ?? 0) + 1);
  return count;
}

describe('battle unit types in results.json and results.csv', () => {
  it('every battle lists its unit types, appearances = games x models of the type per game', () => {
    const battles = results.experiments.filter((e) => e.kind === 'battle');
    expect(battles.map((e) => e.games)).toEqual([4, 1]);
    battles.forEach((e, i) => {
      const models = modelsPerGame(i);
      const units = e.units!;
      expect(units.map((u) => u.id)).toEqual([...models.keys()]);
      for (const u of units) {
        expect(u.models_per_game).toBe(models.get(u.id));
        expect(u.appearances).toBe(e.games! * models.get(u.id)!);
        expect(u.tv).toBe(batch.roster.units.get(u.id)?.tv ?? u.tv);
        expect(u.tv).toBeGreaterThan(0);
        expect(u.sides.length).toBeGreaterThan(0);
      }
    });
  });

  it('rates lie in [0, 1] and fates are exclusive; damage per 100 TV is damage dealt per 100 TV with its interval', () => {
    const units = results.experiments.flatMap((e) => e.units ?? []);
    expect(units.length).toBeGreaterThan(5);
    for (const u of units) {
      for (const r of [u.destroyed_rate, u.crippled_rate, u.withdrawn_rate]) {
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(1);
      }
      expect(u.destroyed_rate + u.crippled_rate + u.withdrawn_rate).toBeLessThanOrEqual(1 + 1e-6);
      expect(u.damage_dealt).toBeGreaterThanOrEqual(0);
      const d = u.damage_per_100_tv;
      expect(d.value).toBeCloseTo((100 * u.damage_dealt) / u.tv, 4);
      expect(d.low).toBeLessThanOrEqual(d.value);
      expect(d.high).toBeGreaterThanOrEqual(d.value);
    }
    // Somebody dealt damage in four games of the standard engagement.
    expect(results.experiments[0].units!.some((u) => u.damage_dealt > 0)).toBe(true);
  });

  it('the figures come straight from the counts: means per appearance, a normal interval from the spread of the type\'s damage per trial', () => {
    slots.forEach((s, i) => {
      const e = results.experiments[i];
      expect(e.games).toBe(s.counts[B_N]);
      // Trials: the sampling unit (a mirrored pair's two games together).
      const n = s.counts[B_N] / (s.cell.mirror === false ? 1 : 2);
      e.units!.forEach((u, j) => {
        const b = B_UNITS + U_STRIDE * j;
        const k = s.counts[b];
        expect(u.appearances).toBe(k);
        expect(u.destroyed_rate).toBeCloseTo(s.counts[b + 1] / k, 6);
        expect(u.crippled_rate).toBeCloseTo(s.counts[b + 2] / k, 6);
        expect(u.withdrawn_rate).toBeCloseTo(s.counts[b + 3] / k, 6);
        const mean = s.counts[b + 4] / k;
        expect(u.damage_dealt).toBeCloseTo(mean, 6);
        // The type's damage per trial, over its appearances per trial.
        const perGame = s.counts[b + 4] / n;
        const sd = n > 1 ? Math.sqrt(Math.max(0, (s.counts[b + 5] - n * perGame * perGame) / (n - 1))) : 0;
        const half = (Z95 * sd) / Math.sqrt(n) / (k / n);
        expect(u.damage_per_100_tv.low).toBeCloseTo((100 * (mean - half)) / u.tv, 5);
        expect(u.damage_per_100_tv.high).toBeCloseTo((100 * (mean + half)) / u.tv, 5);
      });
    });
  });

  it('results.csv has a row per unit type and figure, named unit:ID:FIGURE, with the value and interval results.json gives', () => {
    const lines = csv.trim().split('\n');
    for (const e of results.experiments) {
      for (const u of e.units!) {
        const figures = ['destroyed_rate', 'crippled_rate', 'withdrawn_rate', 'captured_rate', 'damage_dealt', 'damage_per_100_tv'] as const;
        expect(Object.keys(u.intervals!)).toEqual([...figures]);
        for (const f of figures) {
          const rows = lines.filter((l) => l.startsWith(`${e.experiment},${e.engagement},battle,`) && l.includes(`,unit:${u.id}:${f},`));
          expect(rows, `${e.engagement} ${u.id} ${f}`).toHaveLength(1);
          const row = rows[0].split(',');
          const value = f === 'damage_per_100_tv' ? u.damage_per_100_tv.value : u[f]!;
          expect(Number(row[6]), `${u.id} ${f}`).toBeCloseTo(value, 6);
          expect(Number(row[7]), `${u.id} ${f} low`).toBeCloseTo(u.intervals![f].low, 6);
          expect(Number(row[8]), `${u.id} ${f} high`).toBeCloseTo(u.intervals![f].high, 6);
          expect(u.intervals![f].low).toBeLessThanOrEqual(value + 1e-9);
          expect(u.intervals![f].high).toBeGreaterThanOrEqual(value - 1e-9);
        }
        expect(u.intervals!.damage_per_100_tv).toEqual({ low: u.damage_per_100_tv.low, high: u.damage_per_100_tv.high });
      }
    }
    // Rates with an interval of some width: the fates of a game are not all certain.
    expect(results.experiments.flatMap((e) => e.units!).some((u) => u.intervals!.destroyed_rate.high > u.intervals!.destroyed_rate.low)).toBe(true);
  });

  it('results.json is refused, naming the figure, when a unit figure lies outside its interval', () => {
    const bad = JSON.parse(JSON.stringify(results)) as RunResults;
    const u = bad.experiments[0].units![0];
    u.intervals!.crippled_rate = { low: Math.min(1, u.crippled_rate + 0.25), high: 1 };
    expect(resultsProblems(results, 'results.json')).toEqual([]);
    expect(resultsProblems(bad, 'results.json')).toEqual([
      `results.json: experiments[0].units[0].intervals.crippled_rate: value ${u.crippled_rate} is outside its interval ${u.intervals!.crippled_rate.low} .. 1; low <= value <= high is required`,
    ]);
  });
});

describe('battle unit types in the report', () => {
  it('the Battles section holds, per battle, a table of its unit types and a chart of damage per 100 TV', () => {
    const battles = html.slice(html.indexOf('<section id="battles">'), html.indexOf('</section>', html.indexOf('<section id="battles">')));
    expect(battles.length).toBeGreaterThan(0);
    for (const id of ['battle-units-std_standard-engagement-v1.2.2', 'battle-units-beacon_beacon-assault-v1.2.2']) {
      expect(battles).toContain(`<div class="part" id="${id}">`);
      expect(battles).toContain(`data-chart="${id}"`);
      for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(out, 'charts', `${id}.${ext}`)), `${id}.${ext}`).toBe(true);
    }
    expect(battles).toContain('<h3>Unit types: std/standard-engagement, v1.2.2</h3>');
    expect(battles).toContain('<th>per 100 TV</th>');
    expect(battles).toContain('<th>withdrawn</th>');
    for (const u of results.experiments[0].units!) expect(battles).toContain(`<td>${u.id}</td>`);
    const spec = JSON.parse(readFileSync(join(out, 'charts', 'battle-units-std_standard-engagement-v1.2.2.vl.json'), 'utf8')) as { data: { values: Array<{ id: string }> } };
    expect(spec.data.values.map((r) => r.id).sort()).toEqual(results.experiments[0].units!.map((u) => u.id).sort());
  });
});

const unit = (id: string, tv: number, value: number, half: number, appearances: number): BattleUnitResult => ({
  id,
  name: id.toUpperCase(),
  tv,
  models_per_game: 1,
  sides: ['a'],
  appearances,
  destroyed_rate: 0.5,
  crippled_rate: 0.1,
  withdrawn_rate: 0,
  damage_dealt: (value * tv) / 100,
  damage_per_100_tv: { value, low: value - half, high: value + half },
});

function battle(engagement: string, variant: string, units: BattleUnitResult[]): Engagement {
  const m = { value: 0.5, low: 0.4, high: 0.6 };
  return { experiment: engagement, engagement, kind: 'battle', a: 'A', b: 'B', variant, rules: '1.2.2', method: 'monte-carlo', trials: 10, metrics: { a_win_rate: m }, distribution: { name: 'outcome', p: [0.5, 0.5, 0] }, placeholders: [], games: 20, units };
}

describe('battle chart and battle-based efficiency', () => {
  it('the chart is valid Vega-Lite, best unit first, bars with their intervals; no units, no chart', async () => {
    const e = battle('b/one', 'v1.2.2', [unit('x.slow', 40, 1, 0.5, 20), unit('x.fast', 20, 3, 1, 40)]);
    const spec = battleUnitDamage(e)!;
    expect((await toVega(spec)).marks?.length ?? 0).toBeGreaterThan(0);
    const s = spec as { encoding: { y: { sort: string[] } }; layer: Array<{ mark: { type: string }; encoding: Record<string, { field?: string }> }> };
    expect(s.encoding.y.sort).toEqual(['X.FAST', 'X.SLOW']);
    expect(s.layer.map((l) => l.mark.type)).toEqual(['bar', 'rule']);
    expect(s.layer[1].encoding.x.field).toBe('low');
    expect(s.layer[1].encoding.x2.field).toBe('high');
    expect(battleUnitDamage({ ...e, units: [] })).toBeNull();
    expect(battleUnitDamage(fixtureResults().experiments[0])).toBeNull();
  });

  it('pools a unit over the variant\'s battles by appearances', () => {
    const results = fixtureResults();
    results.experiments.push(
      battle('b/one', 'v1.2.2', [unit('x.gunboat', 40, 2, 0.2, 10)]),
      battle('b/two', 'v1.2.2', [unit('x.gunboat', 40, 4, 0.4, 30), unit('x.raider', 25, 1, 0.1, 5)]),
      battle('b/one', 'v1.2.1', [unit('x.gunboat', 40, 9, 0.2, 10)]),
    );
    const eff = battleEfficiency(results, 'v1.2.2');
    const g = eff.get('x.gunboat')!;
    expect(g.appearances).toBe(40);
    expect(g.value).toBeCloseTo((10 * 2 + 30 * 4) / 40, 12);
    const se = Math.hypot(10 * (0.2 / Z95), 30 * (0.4 / Z95)) / 40;
    expect(g.high - g.value).toBeCloseTo(Z95 * se, 12);
    expect(eff.get('x.raider')!.value).toBe(1);
    expect(eff.has('x.fighter')).toBe(false);
    expect(battleEfficiency(results, 'v1.2.1').get('x.gunboat')!.value).toBe(9);
  });

  it('the points-efficiency table of a run with duels and battles adds the battle figure of the units that fought both', async () => {
    const file = join(root, 'mixed.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'jwsim-batch/1',
        seed: 'battle-units-mixed',
        experiments: [
          { id: 'duels', kind: 'duel', range: 6, matchups: [['cega.wyvern', 'jovian.alexander'], ['jovian.alexander', 'cega.wyvern']], trials: 20 },
          { id: 'std', kind: 'battle', scenario: join(BATTLES, 'standard-engagement.json'), trials: 1 },
        ],
      }),
    );
    const mixed = loadBatch(file);
    const r = await runBatch(mixed, { threads: 0, shard: null, checkpoint: null });
    const dir = join(root, 'mixed');
    mkdirSync(dir);
    writeAtomically(dir, [
      ['results.csv', resultsCsv(mixed, r.slots)],
      ['results.json', resultsJson(mixed, r.slots)],
      ['manifest.json', manifest(mixed, r.slots, { threads: 0, shard: null, wallSeconds: 1, commandLine: ['run'], resumed: false })],
    ]);
    const page = readFileSync(await renderReport(dir), 'utf8');
    const section = page.slice(page.indexOf('<section id="efficiency-v1.2.2">'), page.indexOf('</section>', page.indexOf('<section id="efficiency-v1.2.2">')));
    expect(section).toContain('<th>Structure per 100 TV in battles</th>');
    const res = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const wyvern = battleEfficiency(res, 'v1.2.2').get('cega.wyvern')!;
    expect(section).toContain(`<td>${wyvern.value.toFixed(3)} (${wyvern.low.toFixed(3)}-${wyvern.high.toFixed(3)})</td>`);
  }, 60_000);
});
