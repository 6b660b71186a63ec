// Damaged run folders: results.json and manifest.json are checked in full before the report
// (or the nightly gate) reads them, every problem a UserError naming the file and the field;
// and a report that cannot be finished leaves the folder as it was (no chart files, no
// index.html, no temporary files), keeping an earlier report whole.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { damagedCopy, type Json } from '../helpers/runFolders.js';
import { UserError } from '../../src/errors.js';
import { renderReport } from '../../src/report/report.js';
import { readRunFolder } from '../../src/report/runFolder.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../../src/report/runOutput.js';
import { loadBatch } from '../../src/scenarios/batch.js';
import { runBatch } from '../../src/sim/runner.js';
import { userError } from '../helpers/errors.js';

// Chart rendering can be made to fail after a number of charts, to interrupt a report midway.
const renderFault = vi.hoisted(() => ({ failAfter: Infinity }));
vi.mock('../../src/report/render.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/report/render.js')>();
  return {
    ...actual,
    render: async (spec: Parameters<typeof actual.render>[0]) => {
      if (renderFault.failAfter-- <= 0) throw new Error('injected rendering failure');
      return actual.render(spec);
    },
  };
});

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-report-inputs-'));
const good = join(root, 'good');
const RUN_FILES = ['manifest.json', 'results.csv', 'results.json'];

beforeAll(async () => {
  const batch = loadBatch(SMALL);
  const r = await runBatch(batch, { threads: 0, shard: null, checkpoint: null });
  mkdirSync(good);
  writeAtomically(good, [
    ['results.csv', resultsCsv(batch, r.slots)],
    ['results.json', resultsJson(batch, r.slots)],
    ['manifest.json', manifest(batch, r.slots, { threads: 0, shard: null, wallSeconds: 1, commandLine: ['run'], resumed: false })],
  ]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the run folder with results.json (r) and manifest.json (m) edited. */
const damaged = (edit: (r: Json, m: Json) => void): string => damagedCopy(good, root, edit);

/** The UserError renderReport rejects with. */
async function reportError(dir: string): Promise<UserError> {
  const err = await renderReport(dir).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof UserError)) throw new Error(`expected a UserError, got ${String(err)}`);
  return err;
}

const files = (dir: string) => readdirSync(dir).sort();

describe('results.json and manifest.json are checked before anything is written', () => {
  const cases: Array<[string, (r: Json, m: Json) => void, (dir: string) => string]> = [
    ['a metric value that is not a number', (r) => (r.experiments[0].metrics.a_win_rate.value = 'high'), (d) => `${d}/results.json: experiments[0].metrics.a_win_rate.value: "high" must be number`],
    ['no experiments', (r) => delete r.experiments, (d) => `${d}/results.json: (top level): missing required field "experiments"`],
    ['an empty experiments list', (r) => (r.experiments = []), (d) => `${d}/results.json: experiments: the list is empty; a finished run has at least one engagement`],
    ['an experiment naming an unknown variant', (r) => (r.experiments[3].variant = 'zzz'), (d) => `${d}/results.json: experiments[3].variant: "zzz" is not one of the run's variants ("v1.2.1", "v1.2.2")`],
    ['a negative rate', (r) => (r.experiments[0].metrics.a_win_rate.value = -5), (d) => `${d}/results.json: experiments[0].metrics.a_win_rate.value: -5 must be >= 0`],
    ['a negative mean', (r) => (r.experiments[0].metrics.mean_rounds.value = -5), (d) => `${d}/results.json: experiments[0].metrics.mean_rounds.value: -5 must be >= 0`],
    ['a rate above 1', (r) => (r.experiments[0].metrics.draw_rate.high = 1.5), (d) => `${d}/results.json: experiments[0].metrics.draw_rate.high: 1.5 must be <= 1`],
    ['a value outside its interval', (r) => (r.experiments[0].metrics.mean_rounds = { value: 9, low: 1, high: 2 }), (d) => `${d}/results.json: experiments[0].metrics.mean_rounds: value 9 is outside its interval 1 .. 2; low <= value <= high is required`],
    ['a metric the kind needs is missing', (r) => delete r.experiments[0].metrics.b_win_rate, (d) => `${d}/results.json: experiments[0].metrics: missing required field "b_win_rate"`],
    ['an unknown kind', (r) => (r.experiments[0].kind = 'brawl'), (d) => `${d}/results.json: experiments[0].kind: "brawl" is not one of attack, volley, ram, duel, battle`],
    ['a distribution of the wrong length', (r) => r.experiments[0].distribution.p.pop(), (d) => `${d}/results.json: experiments[0].distribution.p: 40 entries; a duel's has 41 (P(decided in r rounds), r = 0..40)`],
    ['an engagement twice', (r) => (r.experiments[2] = r.experiments[0]), (d) => `${d}/results.json: experiments[2]: engagement "duels/cega.wyvern/jovian.pathfinder" under variant "v1.2.1" is also experiments[0]; each appears once`],
    ['a unit of TV 0', (r) => (r.units['cega.fury'].tv = 0), (d) => `${d}/results.json: units.cega.fury.tv: 0 must be > 0`],
    ['a results format of another file', (r) => (r.format = 'jwsim-comparison/1'), (d) => `${d}/results.json: format: "jwsim-comparison/1" is not "jwsim-results/1": not a jwsim results file`],
    ['a manifest format of another file', (_r, m) => (m.format = 'nope'), (d) => `${d}/manifest.json: format: "nope" is not "jwsim-manifest/1": not a jwsim run manifest`],
    ['a manifest without variants', (_r, m) => delete m.variants, (d) => `${d}/manifest.json: (top level): missing required field "variants"`],
    ['a manifest that does not describe a variant', (_r, m) => (m.variants[1].name = 'other'), (d) => `${d}/results.json: variants[1].name: "v1.2.2" is not described in ${d}/manifest.json (its variants: "v1.2.1", "other")`],
    ['files of two runs', (_r, m) => (m.seed = 'another'), (d) => `${d}/manifest.json: seed: "another" differs from ${d}/results.json's seed "small"; the two files are from different runs`],
  ];
  for (const [name, edit, message] of cases) {
    it(`${name}: a UserError naming the file and field, and nothing written`, async () => {
      const dir = damaged(edit);
      const err = await reportError(dir);
      expect(err.message).toBe(message(dir));
      expect(err.details).toEqual([]);
      expect(files(dir)).toEqual(RUN_FILES);
    });
  }

  it('a metric set to {}: every missing field listed at once', async () => {
    const dir = damaged((r) => (r.experiments[0].metrics.a_win_rate = {}));
    const err = await reportError(dir);
    expect(err.message).toBe(`${dir}: damaged run folder: 3 problems`);
    expect(err.details).toEqual(['value', 'low', 'high'].map((f) => `${dir}/results.json: experiments[0].metrics.a_win_rate: missing required field "${f}"`));
    expect(files(dir)).toEqual(RUN_FILES);
  });

  it('many problems: the count, and the first 40 listed', async () => {
    let metrics = 0;
    const dir = damaged((r) => r.experiments.forEach((e: Json) => Object.values(e.metrics).forEach((m) => ((m as Json).value = 'x') && metrics++)));
    const err = await reportError(dir);
    expect(metrics).toBeGreaterThan(40);
    expect(err.message).toBe(`${dir}: damaged run folder: ${metrics} problems (the first 40 below)`);
    expect(err.details).toHaveLength(40);
    for (const d of err.details) expect(d).toMatch(/\/results\.json: experiments\[\d+\]\.metrics\.\w+\.value: "x" must be number$/);
    expect(files(dir)).toEqual(RUN_FILES);
  });

  it('a number too large for a double (1e999) is named, not shown as null', async () => {
    const dir = damaged(() => {});
    const file = join(dir, 'results.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"value": 0\.0412\b/, '"value": 1e999'));
    expect((await reportError(dir)).message).toBe(`${file}: experiments[0].metrics.a_win_rate.value: the number is too large (beyond the range of a double)`);
    expect(files(dir)).toEqual(RUN_FILES);
  });

  it('readRunFolder (the nightly baseline) refuses the same folders', () => {
    const dir = damaged((r) => delete r.experiments);
    expect(userError(() => readRunFolder(dir)).message).toBe(`${dir}/results.json: (top level): missing required field "experiments"`);
    expect(readRunFolder(good).results.experiments.length).toBeGreaterThan(0);
  });
});

describe('the report is written all or nothing', () => {
  it('index.html being a folder, or charts a file: refused before anything is written', async () => {
    const a = damaged(() => {});
    mkdirSync(join(a, 'index.html'));
    expect((await reportError(a)).message).toBe(`${a}/index.html: is a folder; the report writes its page there: move or remove that folder, then run jwsim report again`);
    expect(files(a)).toEqual(['index.html', ...RUN_FILES]);
    expect(readdirSync(join(a, 'index.html'))).toEqual([]);
    const b = damaged(() => {});
    writeFileSync(join(b, 'charts'), 'mine\n');
    expect((await reportError(b)).message).toBe(`${b}/charts: is a file, not a folder; the report writes its chart files there: move or remove that file, then run jwsim report again`);
    expect(files(b)).toEqual(['charts', ...RUN_FILES]);
    expect(readFileSync(join(b, 'charts'), 'utf8')).toBe('mine\n');
  });

  it('a failure midway leaves no chart files, no index.html and no temporary folder', async () => {
    const dir = damaged(() => {});
    renderFault.failAfter = 3;
    try {
      await expect(renderReport(dir)).rejects.toThrow('injected rendering failure');
    } finally {
      renderFault.failAfter = Infinity;
    }
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(RUN_FILES);
  }, 60_000);

  it('a failed rebuild keeps the earlier report whole; a finished one replaces it, stale chart files included', async () => {
    const dir = damaged(() => {});
    const index = await renderReport(dir);
    expect(index).toBe(join(dir, 'index.html'));
    const snapshot = () => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort().map((f) => [f, statSync(join(dir, f)).isDirectory() ? 'folder' : readFileSync(join(dir, f)).toString('base64')]);
    writeFileSync(join(dir, 'charts', 'stale.txt'), 'from an older report\n');
    const before = snapshot();
    renderFault.failAfter = 5;
    try {
      await expect(renderReport(dir)).rejects.toThrow('injected rendering failure');
    } finally {
      renderFault.failAfter = Infinity;
    }
    expect(snapshot()).toEqual(before);
    await renderReport(dir);
    expect(existsSync(join(dir, 'charts', 'stale.txt'))).toBe(false);
    expect(existsSync(join(dir, 'charts', 'matchups-v1.2.1.svg'))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
  }, 60_000);
});
