// Reading a finished run folder (results.json + manifest.json) for the report.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { failOnProblems, readJsonFile } from '../io/json.js';
import { manifestProblems, resultsProblems, runFolderProblems, type BattleUnitFigure } from './runFolderSchema.js';

export interface MetricValue {
  value: number;
  low: number;
  high: number;
}

export interface Engagement {
  experiment: string;
  engagement: string;
  kind: 'attack' | 'volley' | 'ram' | 'duel' | 'battle';
  a: string;
  b: string;
  variant: string;
  rules: string;
  method: 'exact' | 'monte-carlo';
  trials: number | null;
  metrics: Record<string, MetricValue>;
  distribution: { name: string; p: number[] };
  placeholders: string[];
  /** Battles: the scenario file and problems the run accepted (allow_invalid_fleets). */
  scenario?: string;
  mirror?: boolean;
  games?: number;
  warnings?: string[];
  /** Battles: per unit type of the scenario (absent in results written before they were reported). */
  units?: BattleUnitResult[];
}

/** A battle's figures for one unit type; every model of the type in every game is one appearance. */
export interface BattleUnitResult {
  id: string;
  name: string;
  tv: number;
  /** Models of the type in one game, both fleets together. */
  models_per_game: number;
  sides: Array<'a' | 'b'>;
  appearances: number;
  destroyed_rate: number;
  crippled_rate: number;
  withdrawn_rate: number;
  /** Captured by the enemy (older results files: absent). */
  captured_rate?: number;
  /** Structure taken off enemies, mean per appearance. */
  damage_dealt: number;
  /** damage_dealt per 100 TV, with a 95% normal interval. */
  damage_per_100_tv: MetricValue;
  /** Each figure's 95% interval (older results files: absent). */
  intervals?: Record<BattleUnitFigure, { low: number; high: number }>;
}

export interface UnitInfo {
  name: string;
  faction: string;
  type: string;
  tv: number;
  tv_placeholder: boolean;
}

export interface RunResults {
  format: 'jwsim-results/1';
  seed: string;
  variants: Array<{ name: string; rules: string }>;
  units: Record<string, UnitInfo>;
  experiments: Engagement[];
}

export interface RunFolder {
  dir: string;
  results: RunResults;
  manifest: Record<string, unknown> & {
    seed: string;
    placeholders_used: string[];
    variants: Array<{ name: string; rules: string; rules_changes: string[]; options: string[]; overlay: { path: string; sha256: string; options?: string[] } | null; options_without_effect?: Array<{ option: string; why: string }> }>;
    /** The batch's unit files (the sample roster when it names none). */
    units?: Array<{ path: string; sha256: string }>;
    /** Files battle cells read (scenarios, fleets, units), absent in runs without battles. */
    scenario_inputs?: Array<{ path: string; sha256: string }>;
  };
}

export function readRunFolder(dir: string): RunFolder {
  if (!existsSync(dir)) throw new UserError(`${dir}: no such run folder`);
  if (!statSync(dir).isDirectory()) throw new UserError(`${dir}: a file, not a run folder; give the folder jwsim run, merge or nightly wrote (it holds manifest.json and results.json)`);
  if (existsSync(join(dir, 'comparison.json')) && !existsSync(join(dir, 'results.json'))) {
    throw new UserError(`${dir}: a comparison folder (written by jwsim compare), not a run folder: compare wrote its report already, ${join(dir, 'index.html')}; jwsim report and nightly --baseline take run folders (written by jwsim run, merge or nightly)`);
  }
  if (!existsSync(join(dir, 'manifest.json'))) {
    const partial = existsSync(join(dir, 'partial.json'));
    const interrupted = existsSync(join(dir, 'checkpoint.jsonl'));
    throw new UserError(
      `${dir}: not a finished run folder (no manifest.json)${partial ? '; it holds one shard: merge the shards first (jwsim merge)' : interrupted ? '; the run was interrupted: finish it with the command it printed (jwsim run BATCH --out DIR --resume, or jwsim nightly with --resume)' : ''}`,
    );
  }
  if (!existsSync(join(dir, 'results.json'))) {
    throw new UserError(`${dir}: no results.json in this run folder${existsSync(join(dir, 'partial.json')) ? '; it holds one shard: merge all shards first (jwsim merge DIR... --out DIR), then report the merged folder' : ''}`);
  }
  // Both files are checked in full before anything reads a field: a damaged or hand-edited
  // file is a clear error naming the file and the field, never a crash or a silent gate.
  const resultsFile = join(dir, 'results.json');
  const manifestFile = join(dir, 'manifest.json');
  const results = readJsonFile(resultsFile);
  const manifest = readJsonFile(manifestFile);
  const problems = [...resultsProblems(results, resultsFile), ...manifestProblems(manifest, manifestFile)];
  if (problems.length === 0) problems.push(...runFolderProblems(results as RunResults, resultsFile, manifest as RunFolder['manifest'], manifestFile));
  failOnProblems(`${dir}: damaged run folder`, problems, 40);
  return { dir, results: results as RunResults, manifest: manifest as RunFolder['manifest'] };
}
