// Battles as a batch experiment kind: the sample battle batch loads, a battle cell's counts
// depend only on the seed (not on threads or chunking), bad battle experiments fail at load
// time with the batch file and field, and the report renders a battle cell.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Battle } from '../../src/engine/battle/game.js';
import { UserError } from '../../src/errors.js';
import { renderReport } from '../../src/report/report.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../../src/report/runOutput.js';
import { METRIC_NAMES, inputsSha256, loadBatch } from '../../src/scenarios/batch.js';
import { loadScenario } from '../../src/scenarios/scenario.js';
import { BATTLE_CHUNK_TRIALS, B_N, B_UNITS, B_WIN_A, U_DAMAGE, U_DESTROYED, U_STRIDE, battleStreams, runBattleChunk } from '../../src/sim/battles.js';
import { buildEngines, compileVariant } from '../../src/sim/cells.js';
import { COMPARE_BATTLE_CHUNK, compareBatch, compareZ } from '../../src/sim/compare.js';
import { countsLength, metricsOf } from '../../src/sim/counts.js';
import { runBatch } from '../../src/sim/runner.js';
import { Slot } from '../../src/sim/slots.js';

const SAMPLE = fileURLToPath(new URL('../../scenarios/battles.json', import.meta.url));
const BATTLES = fileURLToPath(new URL('../../scenarios/battles/', import.meta.url));
const UNITS = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'jwsim-battle-batch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** Writes a batch file into its own folder (scenario paths are absolute unless given relative). */
function batchFile(body: Record<string, unknown>): string {
  const dir = join(root, `b${n++}`);
  mkdirSync(dir);
  const file = join(dir, 'batch.json');
  writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', seed: 'battle-test', ...body }));
  return file;
}
const scenario = (name: string) => join(BATTLES, name);

function errorText(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return [e.message, ...e.details].join('\n');
  }
  throw new Error('no error');
}

describe('battle experiments in batch files', () => {
  it('the sample battle batch loads: one cell per scenario, v1.2.2, mirrored, 200 trials', () => {
    const batch = loadBatch(SAMPLE);
    expect(batch.variants.map((v) => v.rules)).toEqual(['1.2.2']);
    expect(batch.cells.map((c) => c.kind)).toEqual(['battle', 'battle', 'battle']);
    expect(batch.cells.map((c) => c.id)).toEqual(['standard/standard-engagement', 'beacon/beacon-assault', 'corner/corner-escalation']);
    for (const c of batch.cells) {
      expect(c.scenario).toBe(scenario(`${c.id.split('/')[1]}.json`));
      expect(c.mirror).toBe(true);
      expect(c.trials).toBe(200);
    }
    expect(batch.cells[2].precision?.metric).toBe('a_win_rate');
    // Scenario, fleet and unit files are inputs of the run (resume and merge check them).
    const inputs = (batch.scenarioFiles ?? []).map((f) => f.path);
    expect(inputs).toContain(scenario('corner-escalation.json'));
    expect(inputs).toContain(join(BATTLES, 'fleets', 'raiding-group.json'));
    expect(inputsSha256(batch, 'x')).toMatch(/^[0-9a-f]{64}$/);
    // Placeholders come from the battle engine, including the v1.2.2 rules values games read
    // only in some situations (workers return counts, not what each game read).
    const engines = buildEngines(batch);
    for (const path of ['combat.sideBonus', 'combat.rearBonus', 'combat.missileSupport', 'combat.bombingBonus', 'combat.criticalTable']) {
      expect(engines[0].placeholders.some((p) => p.startsWith(`rules ${path}:`))).toBe(true);
    }
    expect(engines[0].warnings).toEqual([]);
  });

  it('battle metrics are exactly the names a batch may use as a precision metric', () => {
    const counts = new Array<number>(countsLength('battle', 3)).fill(1);
    expect(metricsOf('battle', counts, 100).map((m) => m.name)).toEqual(METRIC_NAMES.battle);
  });

  it('chunks are BATTLE_CHUNK_TRIALS trials and chunk k plays trials k * BATTLE_CHUNK_TRIALS onwards', () => {
    const file = batchFile({ experiments: [{ id: 'std', kind: 'battle', scenario: scenario('standard-engagement.json'), trials: 2 * BATTLE_CHUNK_TRIALS + 1, mirror: false }] });
    const batch = loadBatch(file);
    const [engine] = buildEngines(batch);
    const slot = new Slot(0, batch.cells[0], 0, engine);
    expect(slot.maxChunks).toBe(3);
    expect(slot.chunkTrials(2)).toBe(1);
    const cell = batch.cells[0];
    const battle = new Battle(compileVariant(batch.variants[0]), loadScenario(cell.scenario!, { rulesVersion: '1.2.2', allowInvalidFleets: false }));
    const direct = runBattleChunk(battle, battleStreams(batch.seed, cell.id), 2 * BATTLE_CHUNK_TRIALS, 1, false);
    expect(engine.runChunk(batch.seed, 2, 1)).toEqual(direct);
    expect(direct.length).toBe(engine.countsLength);
  });

  it('a tiny battle batch gives identical result files on 0 and 2 threads', async () => {
    const file = batchFile({
      experiments: [
        { id: 'std', kind: 'battle', scenario: scenario('standard-engagement.json'), trials: 1 },
        { id: 'beacon', kind: 'battle', scenario: scenario('beacon-assault.json'), trials: 2, mirror: false },
      ],
    });
    const batch = loadBatch(file);
    const run = async (threads: number) => {
      const r = await runBatch(batch, { threads, shard: null, checkpoint: null });
      return { slots: r.slots, csv: resultsCsv(batch, r.slots), json: resultsJson(batch, r.slots) };
    };
    const [t0, t2] = [await run(0), await run(2)];
    expect(t2.slots.map((s) => s.counts)).toEqual(t0.slots.map((s) => s.counts));
    expect(t2.csv).toBe(t0.csv);
    expect(t2.json).toBe(t0.json);
    expect(t0.slots.map((s) => s.trials())).toEqual([1, 2]);
    const json = JSON.parse(t0.json) as { experiments: Array<{ kind: string; games: number; distribution: { name: string; p: number[] } }> };
    expect(json.experiments.map((e) => e.games)).toEqual([2, 2]);
    expect(json.experiments[0].distribution.name).toBe('outcome');
    expect(json.experiments[0].distribution.p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  }, 30_000);

  it('an unknown scenario file names the batch file and the field', () => {
    const file = batchFile({ experiments: [{ id: 'x', kind: 'duel', range: 6, matchups: [['cega.wyvern', 'jovian.alexander']], trials: 10 }, { id: 'lost', kind: 'battle', scenario: 'battles/nowhere.json' }] });
    const text = errorText(() => loadBatch(file));
    expect(text).toContain(`${file}: experiments[1].scenario: no such scenario file`);
    expect(text).toContain('nowhere.json');
  });

  it('scenario problems name the batch file and the field, then the scenario file', () => {
    const dir = join(root, 'badscenario');
    mkdirSync(dir);
    const bad = join(dir, 'bad.json');
    const good = JSON.parse(readFileSync(scenario('standard-engagement.json'), 'utf8')) as { sides: { a: object } };
    writeFileSync(bad, JSON.stringify({ ...good, units: [UNITS], sides: { ...good.sides, a: { ...good.sides.a, fleet: [{ unit: 'nobody.here', count: 1 }] } } }));
    const file = batchFile({ experiments: [{ id: 'bad', kind: 'battle', scenario: bad }] });
    const text = errorText(() => loadBatch(file));
    expect(text).toContain(`${file}: experiments[0].scenario:`);
    expect(text).toContain('nobody.here');
  });

  it('rejects a precision metric battles do not report, and bad fields by schema', () => {
    const file = batchFile({ experiments: [{ id: 'p', kind: 'battle', scenario: scenario('standard-engagement.json'), precision: { metric: 'mean_rounds', half_width: 0.1, max_trials: 10 } }] });
    expect(errorText(() => loadBatch(file))).toMatch(/experiments\[0\]\.precision\.metric: "mean_rounds" is not one of a_win_rate, b_win_rate/);
    const typo = batchFile({ experiments: [{ id: 'p', kind: 'battle', scenario: scenario('standard-engagement.json'), mirrored: true }] });
    expect(errorText(() => loadBatch(typo))).toMatch(/mirrored/);
  });

  it('Escalating Deployment under a v1.2.1 variant fails before anything runs', () => {
    const file = batchFile({
      variants: [
        { name: 'old', rules: '1.2.1' },
        { name: 'new', rules: '1.2.2' },
      ],
      experiments: [{ id: 'corner', kind: 'battle', scenario: scenario('corner-escalation.json'), trials: 1 }],
    });
    const batch = loadBatch(file);
    expect(errorText(() => buildEngines(batch))).toMatch(/experiment corner\/corner-escalation \(variant old\):.*Escalating Deployment/);
  });

  it('jwsim compare pairs battles game by game: the baseline plays the games jwsim run plays, whatever the threads', async () => {
    const variants = [
      { name: 'a', rules: '1.2.1' },
      { name: 'b', rules: '1.2.2' },
      { name: 'same', rules: '1.2.1' },
    ];
    const experiments = [{ id: 'std', kind: 'battle', scenario: scenario('standard-engagement.json'), trials: COMPARE_BATTLE_CHUNK, mirror: false }];
    const batch = loadBatch(batchFile({ variants, experiments }));
    const opts = { threads: 0, minChunks: 1, maxChunks: 1, battle: { minChunks: 1, maxChunks: 1 }, settle: 0.01 };
    const diffs = await compareBatch(batch, opts);
    // One chunk of COMPARE_BATTLE_CHUNK games per variant, every battle metric compared.
    const win = diffs.filter((d) => d.metric === 'a_win_rate');
    expect(win.map((d) => [d.to, d.trials, d.chunks])).toEqual([[1, COMPARE_BATTLE_CHUNK, 1], [2, COMPARE_BATTLE_CHUNK, 1]]);
    const engines = buildEngines(batch);
    const units = engines[0].battleUnits;
    const unitFigures = ['destroyed_rate', 'crippled_rate', 'withdrawn_rate', 'captured_rate', 'damage_dealt', 'damage_per_100_tv'];
    expect(new Set(diffs.filter((d) => d.to === 1).map((d) => d.metric))).toEqual(new Set([...METRIC_NAMES.battle, ...units.flatMap((u) => unitFigures.map((f) => `unit:${u.id}:${f}`))]));
    // Each unit type's damage shift, worked out here game by game from the two variants' games.
    const z = compareZ({ minChunks: 1, maxChunks: 1 }).interval;
    units.forEach((u, i) => {
      const per = (v: number) =>
        Array.from({ length: COMPARE_BATTLE_CHUNK }, (_, t) => {
          const c = new Array<number>(engines[v].countsLength).fill(0);
          engines[v].battleTrial!(batch.seed, t, c);
          return (100 * c[B_UNITS + U_STRIDE * i + U_DAMAGE]) / (u.tv * u.models);
        });
      const a = per(0), b = per(1);
      const d = b.map((x, t) => x - a[t]);
      const mean = d.reduce((x, y) => x + y, 0) / d.length;
      const sd = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (d.length - 1));
      const row = diffs.find((x) => x.to === 1 && x.metric === `unit:${u.id}:damage_per_100_tv`)!;
      expect(row.difference, u.id).toBeCloseTo(mean, 9);
      expect(row.high - row.difference, u.id).toBeCloseTo((z * sd) / Math.sqrt(d.length), 9);
    });
    // The same games as jwsim run: the baseline's figures are the run's, to the bit.
    const run = await runBatch(batch, { threads: 0, shard: null, checkpoint: null });
    const runWin = (v: number) => run.slots[v].metrics().find((m) => m.name === 'a_win_rate')!.value;
    expect(win[0].valueFrom).toBe(runWin(0));
    expect(win[0].valueTo).toBe(runWin(1));
    // A variant with the same rules plays the same games: no shift and no noise at all.
    for (const d of diffs.filter((x) => x.to === 2)) {
      expect(d.difference, d.metric).toBe(0);
      expect(d.high - d.low, d.metric).toBe(0);
      expect(d.distinguishable).toBe(false);
    }
    // v1.2.1 against v1.2.2: a real shift, with an interval of some width around it.
    const shift = win[0];
    expect(shift.low).toBeLessThan(shift.difference);
    expect(shift.high).toBeGreaterThan(shift.difference);
    // Threads change nothing.
    const threaded = await compareBatch(batch, { ...opts, threads: 2 });
    expect(threaded.map((d) => [d.metric, d.to, d.difference, d.low, d.high])).toEqual(diffs.map((d) => [d.metric, d.to, d.difference, d.low, d.high]));
  }, 120_000);

  it('jwsim compare: a mirrored battle trial is two games, its paired interval from the per-pair differences', async () => {
    const variants = [
      { name: 'a', rules: '1.2.1' },
      { name: 'b', rules: '1.2.2' },
    ];
    const batch = loadBatch(batchFile({ variants, experiments: [{ id: 'std', kind: 'battle', scenario: scenario('standard-engagement.json'), trials: 1 }] }));
    const diffs = await compareBatch(batch, { threads: 0, minChunks: 1, maxChunks: 1, battle: { minChunks: 1, maxChunks: 1 }, settle: 0.01 });
    const engines = buildEngines(batch);
    const z = compareZ({ minChunks: 1, maxChunks: 1 }).interval;
    // Worked out here pair by pair: each trial's two games summed, per game (halved).
    const perPair = (v: number, figure: (c: number[]) => number) =>
      Array.from({ length: COMPARE_BATTLE_CHUNK }, (_, t) => {
        const c = new Array<number>(engines[v].countsLength).fill(0);
        engines[v].battleTrial!(batch.seed, t, c);
        expect(c[B_N]).toBe(2);
        return figure(c) / 2;
      });
    const check = (metric: string, figure: (c: number[]) => number) => {
      const a = perPair(0, figure), b = perPair(1, figure);
      const d = b.map((x, t) => x - a[t]);
      const mean = d.reduce((x, y) => x + y, 0) / d.length;
      const sd = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (d.length - 1));
      const row = diffs.find((x) => x.metric === metric)!;
      expect(row.trials, metric).toBe(COMPARE_BATTLE_CHUNK);
      expect(row.difference, metric).toBeCloseTo(mean, 9);
      expect(row.high - row.difference, metric).toBeCloseTo((z * sd) / Math.sqrt(d.length), 9);
    };
    check('a_win_rate', (c) => c[B_WIN_A]);
    const i = engines[0].battleUnits.findIndex((u) => u.id === 'jovian.alexander');
    const alexander = engines[0].battleUnits[i];
    check('unit:jovian.alexander:destroyed_rate', (c) => c[B_UNITS + U_STRIDE * i + U_DESTROYED] / alexander.models);
    const win = diffs.find((d) => d.metric === 'a_win_rate')!;
    expect(win.valueFrom).toBeGreaterThan(0);
    expect(win.valueFrom).toBeLessThan(1);
  }, 120_000);

  it('the report renders a battle cell: a win-rate table and fleet warnings', async () => {
    const dir = join(root, 'fleetfix');
    mkdirSync(dir);
    // Side A doubled: over the 250-point level, run anyway with allow_invalid_fleets.
    const big = join(dir, 'big.json');
    const s = JSON.parse(readFileSync(scenario('standard-engagement.json'), 'utf8')) as { sides: { a: { fleet: Array<{ unit: string; count: number }> } } };
    s.sides.a.fleet = s.sides.a.fleet.map((f) => ({ ...f, count: f.count * 2 }));
    writeFileSync(big, JSON.stringify({ ...s, units: [UNITS] }));
    // Without allow_invalid_fleets the batch is refused, naming the key that runs it anyway.
    const refused = batchFile({ experiments: [{ id: 'big', kind: 'battle', scenario: big, trials: 1, mirror: false }] });
    expect(errorText(() => loadBatch(refused))).toMatch(/over the 250-point level \(fleet rules v1\.2\.2; "allow_invalid_fleets": true in the experiment runs it anyway\)/);
    const file = batchFile({ experiments: [{ id: 'big', kind: 'battle', scenario: big, trials: 1, mirror: false, allow_invalid_fleets: true }] });
    const batch = loadBatch(file);
    const r = await runBatch(batch, { threads: 0, shard: null, checkpoint: null });
    expect(r.slots[0].engine.warnings.join('\n')).toMatch(/over the 250-point level/);
    const out = join(root, 'report');
    mkdirSync(out);
    writeAtomically(out, [
      ['results.csv', resultsCsv(batch, r.slots)],
      ['results.json', resultsJson(batch, r.slots)],
      ['manifest.json', manifest(batch, r.slots, { threads: 0, shard: null, wallSeconds: 1, commandLine: ['run'], resumed: false })],
    ]);
    const html = readFileSync(await renderReport(out), 'utf8');
    expect(html).toContain('<section id="battles">');
    expect(html).toContain('big/standard-engagement');
    expect(html).toMatch(/over the 250-point level/);
  }, 30_000);
});
