// The nightly history: one SQLite file (better-sqlite3) with a row per nightly run and its
// units' efficiency, so reports can draw trends across nights. Every run is recorded in one
// transaction (a killed run leaves the file as it was); WAL mode and a busy timeout let
// concurrent nightly runs take turns; a corrupted or locked file, or another program's database
// with tables of the same names, is a clear error.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { UserError } from '../errors.js';
import type { UnitEfficiency } from './efficiency.js';

export const HISTORY_BUSY_TIMEOUT_MS = 15_000;

/**
 * What makes nights of "the same batch" for trends: the SHA-256 of the batch file's JSON
 * with every "description" and "$schema" left out and keys in sorted order, so rewording a
 * description, reformatting or reordering keys keeps the trend, while any change to what is
 * run (units, variants, experiments, seed) starts a new one. Unit files are not part of it:
 * a trend is meant to show what edits to the cards did, night after night. The text must be
 * valid JSON (the batch has been loaded before).
 */
export function batchTrendKey(text: string): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if (k !== 'description' && k !== '$schema') out[k] = canonical((v as Record<string, unknown>)[k]);
    return out;
  };
  return createHash('sha256').update(JSON.stringify(canonical(JSON.parse(text)))).digest('hex');
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  recorded_at TEXT NOT NULL,
  run_dir TEXT NOT NULL,
  batch_sha256 TEXT NOT NULL,
  seed TEXT NOT NULL,
  git_commit TEXT,
  baseline_dir TEXT,
  gate_failures INTEGER NOT NULL,
  shifts_checked INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS unit_efficiency (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  variant TEXT NOT NULL,
  unit_id TEXT NOT NULL,
  unit_name TEXT NOT NULL,
  tv REAL NOT NULL,
  score REAL NOT NULL,
  score_low REAL NOT NULL,
  score_high REAL NOT NULL,
  fair_tv REAL,
  damage_per_100_tv REAL NOT NULL,
  PRIMARY KEY (run_id, variant, unit_id)
);`;

export interface RunRecord {
  runDir: string;
  /** batchTrendKey of the batch (kept in the runs table's batch_sha256 column). */
  batchSha256: string;
  seed: string;
  gitCommit: string | null;
  baselineDir: string | null;
  gateFailures: number;
  shiftsChecked: number;
  efficiency: ReadonlyMap<string, readonly UnitEfficiency[]>;
}

export interface TrendRow {
  run: number;
  recordedAt: string;
  variant: string;
  unit: string;
  score: number;
  low: number;
  high: number;
}

/**
 * The columns SCHEMA gives each table, read from a scratch in-memory database so that the list
 * cannot drift from the CREATE statements.
 */
function schemaColumns(): Map<string, string[]> {
  const scratch = new Database(':memory:');
  try {
    scratch.exec(SCHEMA);
    const tables = scratch.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
    return new Map(tables.map(({ name }) => [name, (scratch.pragma(`table_info(${name})`) as Array<{ name: string }>).map((c) => c.name)]));
  } finally {
    scratch.close();
  }
}

/**
 * A table of ours that already exists must have our columns: a database of another program that
 * happens to have a "runs" table would otherwise pass open() and fail only when the run is
 * recorded, after the batch has run and written its results.
 */
function checkTables(db: Database.Database): void {
  const ours = schemaColumns();
  // Another program's database (tables, none of them ours) is not made into a history by adding ours to it.
  const present = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name);
  if (present.length && !present.some((t) => ours.has(t))) {
    throw Object.assign(new Error(`it holds other tables (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', ...' : ''}) and none of a history's`), { code: 'JWSIM_NOT_HISTORY' });
  }
  for (const [table, columns] of ours) {
    const have = new Set((db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name));
    if (have.size === 0) continue; // not there yet: SCHEMA creates it
    const missing = columns.filter((c) => !have.has(c));
    if (missing.length) throw Object.assign(new Error(`its table ${table} lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`), { code: 'JWSIM_NOT_HISTORY' });
  }
}

/**
 * SQLite keeps whatever a hand edit stores, so the columns the trends read are checked for their
 * kind: a text score would otherwise reach nightly.json and be refused there, after the batch
 * has run and the run has been recorded.
 */
function checkTrendValues(db: Database.Database): void {
  const bad = db
    .prepare(
      `SELECT r.id AS run, u.unit_id AS unit FROM runs r JOIN unit_efficiency u ON u.run_id = r.id
       WHERE typeof(r.recorded_at) <> 'text' OR typeof(u.variant) <> 'text' OR typeof(u.unit_name) <> 'text'
          OR typeof(u.score) NOT IN ('integer', 'real') OR typeof(u.score_low) NOT IN ('integer', 'real') OR typeof(u.score_high) NOT IN ('integer', 'real')
       ORDER BY r.id LIMIT 1`,
    )
    .get() as { run: number; unit: string } | undefined;
  if (bad) throw Object.assign(new Error(`run ${bad.run}, unit ${bad.unit}: recorded_at, variant and unit_name must be text, score, score_low and score_high numbers`), { code: 'JWSIM_BAD_ROW' });
}

function explain(file: string, err: unknown, waitedMs = HISTORY_BUSY_TIMEOUT_MS): UserError {
  const e = err as { code?: string; message?: string };
  if (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED') {
    return new UserError(`${file}: the history is locked by another process (waited ${waitedMs / 1000} s); try again when the other nightly run has finished`);
  }
  if (e.code === 'SQLITE_NOTADB' || e.code === 'SQLITE_CORRUPT') {
    return new UserError(`${file}: the history file is corrupted (${e.message}); nothing was written. Move it aside to start a new history, or restore it from a backup`);
  }
  if (e.code === 'JWSIM_BAD_ROW') {
    return new UserError(`${file}: the history holds a damaged row (${e.message}); nothing was written. Move it aside to start a new history, or restore it from a backup`);
  }
  if (e.code === 'JWSIM_NOT_HISTORY') {
    return new UserError(`${file}: not a jwsim nightly history (${e.message}); nothing was written. Give --history a new file name or an existing jwsim history`);
  }
  return new UserError(`${file}: cannot use the history file: ${e.message ?? String(err)}`);
}

export class History {
  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Opens (creating if needed) the history; waits up to busyTimeoutMs for other writers. */
  static open(file: string, busyTimeoutMs = HISTORY_BUSY_TIMEOUT_MS): History {
    let db: Database.Database | null = null;
    try {
      db = new Database(file, { timeout: busyTimeoutMs });
      db.pragma('journal_mode = WAL');
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw Object.assign(new Error(String(check)), { code: 'SQLITE_CORRUPT' });
      checkTables(db);
      db.exec(SCHEMA);
      checkTrendValues(db);
      return new History(db, file, busyTimeoutMs);
    } catch (err) {
      db?.close();
      throw explain(file, err, busyTimeoutMs);
    }
  }

  /** Records one run and its efficiency figures, all or nothing. */
  record(r: RunRecord): number {
    try {
      const insertRun = this.db.prepare(
        'INSERT INTO runs (recorded_at, run_dir, batch_sha256, seed, git_commit, baseline_dir, gate_failures, shifts_checked) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const insertUnit = this.db.prepare(
        'INSERT INTO unit_efficiency (run_id, variant, unit_id, unit_name, tv, score, score_low, score_high, fair_tv, damage_per_100_tv) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      return this.db.transaction(() => {
        const id = Number(insertRun.run(new Date().toISOString(), r.runDir, r.batchSha256, r.seed, r.gitCommit, r.baselineDir, r.gateFailures, r.shiftsChecked).lastInsertRowid);
        for (const [variant, units] of r.efficiency) {
          for (const u of units) insertUnit.run(id, variant, u.id, u.name, u.tv, u.score.value, u.score.low, u.score.high, Number.isFinite(u.fairTv.value) ? u.fairTv.value : null, u.damagePer100Tv.value);
        }
        return id;
      }).immediate();
    } catch (err) {
      throw explain(this.file, err, this.busyTimeoutMs);
    }
  }

  /**
   * Every unit's score vs field in every recorded run of this batch, oldest first: the runs
   * recorded under any of `keys` (its batchTrendKey, and the file's own SHA-256, under which
   * histories before the trend key recorded their runs).
   */
  trends(...keys: string[]): TrendRow[] {
    try {
      return this.db
        .prepare(
          `SELECT r.id AS run, r.recorded_at AS recordedAt, u.variant AS variant, u.unit_name AS unit, u.score AS score, u.score_low AS low, u.score_high AS high
           FROM runs r JOIN unit_efficiency u ON u.run_id = r.id WHERE r.batch_sha256 IN (${keys.map(() => '?').join(', ')}) ORDER BY r.id, u.variant, u.unit_name`,
        )
        .all(...keys) as TrendRow[];
    } catch (err) {
      throw explain(this.file, err, this.busyTimeoutMs);
    }
  }

  runCount(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
