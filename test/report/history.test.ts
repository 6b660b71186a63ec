// The nightly history: all-or-nothing records, clear errors for corrupted, locked, foreign or
// hand-damaged files, and no corruption when nightly runs write at the same time.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { History, batchTrendKey } from '../../src/report/history.js';
import { unitEfficiency } from '../../src/report/efficiency.js';
import { fixtureResults } from './fixture.js';

const root = mkdtempSync(join(tmpdir(), 'jwsim-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const results = fixtureResults();
const efficiency = new Map(results.variants.map((v) => [v.name, unitEfficiency(results, v.name)]));
const record = (runDir: string) => ({ runDir, batchSha256: 'abc', seed: 's', gitCommit: null, baselineDir: null, gateFailures: 0, shiftsChecked: 10, efficiency });

describe('history', () => {
  it('records runs and returns each unit\'s trend, oldest first', () => {
    const h = History.open(join(root, 'h.sqlite'));
    h.record(record('run-1'));
    h.record(record('run-2'));
    const t = h.trends('abc');
    expect(t.length).toBe(2 * 2 * 3); // runs x variants x units
    expect(t[0].run).toBeLessThan(t[t.length - 1].run);
    expect(h.trends('other')).toEqual([]);
    expect(h.runCount()).toBe(2);
    // Runs recorded under an older key (the batch file's own hash) still belong to the trend.
    h.record({ ...record('run-3'), batchSha256: 'file-hash' });
    expect(h.trends('abc', 'file-hash').length).toBe(3 * 2 * 3);
    expect(h.trends('abc').length).toBe(2 * 2 * 3);
    h.close();
  });

  it('the trend key ignores descriptions, $schema, layout and key order, and nothing else', () => {
    const batch = { $schema: './schemas/batch.schema.json', format: 'jwsim-batch/1', description: 'nightly', seed: 'n', units: ['units/a.json'], experiments: [{ id: 'd', kind: 'duel', description: 'all pairs', units: 'all', range: 6, trials: 8192 }] };
    const key = batchTrendKey(JSON.stringify(batch));
    const reworded = { ...batch, description: 'the nightly batch', $schema: 'other.json', experiments: [{ ...batch.experiments[0], description: 'every pair' }] };
    expect(batchTrendKey(JSON.stringify(reworded, null, 2))).toBe(key);
    const reordered = Object.fromEntries(Object.entries(batch).reverse());
    expect(batchTrendKey(JSON.stringify(reordered))).toBe(key);
    expect(batchTrendKey(JSON.stringify({ ...batch, seed: 'm' }))).not.toBe(key);
    expect(batchTrendKey(JSON.stringify({ ...batch, experiments: [{ ...batch.experiments[0], range: 3 }] }))).not.toBe(key);
    expect(batchTrendKey(JSON.stringify({ ...batch, units: ['units/b.json'] }))).not.toBe(key);
  });

  it('a corrupted file is a clear error and is left untouched', () => {
    const file = join(root, 'corrupt.sqlite');
    writeFileSync(file, 'this is not a database, it is a note someone saved here'.repeat(100));
    const before = readFileSync(file);
    expect(() => History.open(file)).toThrow(UserError);
    expect(() => History.open(file)).toThrow(/corrupted.*Move it aside/);
    expect(readFileSync(file)).toEqual(before);
  });

  it('another program\'s database with a table of the same name is refused and left untouched', () => {
    const file = join(root, 'foreign.sqlite');
    const other = new Database(file);
    other.exec('CREATE TABLE runs (name TEXT, started TEXT)');
    other.close();
    expect(() => History.open(file)).toThrow(new UserError(`${file}: not a jwsim nightly history (its table runs lacks columns id, recorded_at, run_dir, batch_sha256, seed, git_commit, baseline_dir, gate_failures, shifts_checked); nothing was written. Give --history a new file name or an existing jwsim history`));
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'runs' }]);
    db.close();
  });

  it('another program\'s database with tables of its own only is refused and left untouched', () => {
    const file = join(root, 'foreign-other.sqlite');
    const other = new Database(file);
    other.exec('CREATE TABLE notes (body TEXT); CREATE TABLE tags (name TEXT)');
    other.close();
    expect(() => History.open(file)).toThrow(new UserError(`${file}: not a jwsim nightly history (it holds other tables (notes, tags) and none of a history's); nothing was written. Give --history a new file name or an existing jwsim history`));
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()).toEqual([{ name: 'notes' }, { name: 'tags' }]);
    db.close();
  });

  it('a hand-edited score that is not a number is refused when the history is opened', () => {
    const file = join(root, 'edited.sqlite');
    const h = History.open(file);
    h.record(record('run-1'));
    h.close();
    const db = new Database(file);
    db.exec("UPDATE unit_efficiency SET score = 'high'");
    db.close();
    expect(() => History.open(file)).toThrow(/edited\.sqlite: the history holds a damaged row \(run 1, unit \S+: .*score, score_low and score_high numbers\); nothing was written\./);
  });

  it('a file locked by another writer past the timeout is a clear error', async () => {
    const file = join(root, 'locked.sqlite');
    History.open(file).close();
    const other = new Database(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const h = History.open(file, 1000);
      const started = Date.now();
      expect(() => h.record(record('blocked'))).toThrow(/locked by another process \(waited 1 s\)/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      h.close();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 20_000);

  it('concurrent writers take turns: every record lands, the file stays sound', async () => {
    const file = join(root, 'concurrent.sqlite');
    History.open(file).close();
    const script = join(root, 'writer.mjs');
    const dist = fileURLToPath(new URL('../../dist/src/report/history.js', import.meta.url));
    writeFileSync(
      script,
      `import { History } from ${JSON.stringify(dist)};
       const h = History.open(process.argv[2]);
       const eff = new Map([['v', [{ id: 'u', name: 'U', tv: 10, duels: 1, score: { value: 0.5, low: 0.4, high: 0.6 }, tvWeightedScore: { value: 0.5, low: 0.4, high: 0.6 }, damagePer100Tv: { value: 1, low: 1, high: 1 }, fairTv: { value: 10, low: 9, high: 11 }, verdict: 'fair', fairTvReplicates: [] }]]]);
       for (let i = 0; i < 40; i++) h.record({ runDir: process.argv[3] + i, batchSha256: 'x', seed: 's', gitCommit: null, baselineDir: null, gateFailures: 0, shiftsChecked: 1, efficiency: eff });
       h.close();`,
    );
    const run = (tag: string) => new Promise<number | null>((r) => spawn(process.execPath, [script, file, tag], { stdio: 'inherit' }).on('close', r));
    expect(await Promise.all([run('a'), run('b'), run('c')])).toEqual([0, 0, 0]);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n).toBe(120);
    expect((db.prepare('SELECT COUNT(*) AS n FROM unit_efficiency').get() as { n: number }).n).toBe(120);
    db.close();
  }, 60_000);
});
