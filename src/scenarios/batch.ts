// Batch files: load, validate everything before anything runs, and expand generators into
// cells (one concrete engagement each). Every cell runs under every variant.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { failOnProblems, isObject, readJsonFile, schemaProblems } from '../io/json.js';
import { sampleRosterFiles } from '../paths.js';
import { DEFAULT_SEED } from '../rng/stream.js';
import { optionScope, outOfScopeText } from '../rules/interpretations.js';
import { loadOverlay, overlayVersionProblem, type Overlay } from '../rules/overlay.js';
import { loadRoster, looseUnitFiles, looseUnitProblems, unknownUnitMessage } from '../units/load.js';
import { loadScenario } from './scenario.js';
import type { Scenario } from './scenarioTypes.js';
import type { Roster } from '../units/types.js';
import { BATCH_SCHEMA, MAX_CELLS, MAX_RUNS } from './batchSchema.js';

export type Kind = 'attack' | 'volley' | 'ram' | 'duel' | 'battle';
export type Aspect = 'front' | 'side' | 'rear';
export type ArcChoice = 'F' | 'P' | 'S' | 'R' | 'auto';

export interface Precision {
  readonly metric: string;
  readonly halfWidth: number;
  readonly minTrials: number;
  readonly maxTrials: number;
}

/** One concrete engagement of a batch. */
export interface Cell {
  /** Unique: "<experiment>/<unit ids...>" (battles: "<experiment>/<scenario id>"); names the random streams, so versions share dice. */
  readonly id: string;
  readonly experiment: string;
  readonly kind: Kind;
  /** A = attacker, rammer or duel side A; B = target or side B (battles: the sides' names). */
  readonly a: string;
  readonly b: string;
  readonly weapon: string | null;
  readonly range: number;
  readonly aspect: Aspect;
  readonly bAspect: Aspect;
  /** Attacks and volleys: the attacker's arc the target is in (auto: the most firepower). */
  readonly aArc: ArcChoice;
  readonly until: 'destroyed' | 'crippled';
  readonly rounds: number;
  readonly first: 'a' | 'b' | 'random';
  /** Computed exactly (no chunks). */
  readonly exact: boolean;
  /** Trials to run, or the maximum under a precision target. */
  readonly trials: number;
  readonly precision: Precision | null;
  /** Battles: the scenario file (absolute path). */
  readonly scenario?: string;
  /** Battles: every trial is a pair of games with the fleets' positions swapped. */
  readonly mirror?: boolean;
  /** Battles: run fleets that break the fleet-building rules (their problems become warnings). */
  readonly allowInvalidFleets?: boolean;
  /** Battles: unit files that replace the scenario's own list (the batch's `units`, when it has them). */
  readonly units?: readonly string[];
}

export interface Variant {
  readonly name: string;
  readonly rules: string;
  /** Interpretation options as NAME=VALUE. */
  readonly options: readonly string[];
  readonly overlay: Overlay | null;
}

export interface Batch {
  readonly file: string;
  readonly sha256: string;
  readonly description: string | null;
  readonly seed: string;
  readonly roster: Roster;
  readonly unitFiles: ReadonlyArray<{ path: string; sha256: string }>;
  readonly variants: readonly Variant[];
  readonly cells: readonly Cell[];
  /** Files battle cells read (scenarios, their fleet files, their unit files); part of inputsSha256. */
  readonly scenarioFiles?: ReadonlyArray<{ path: string; sha256: string }>;
}

export const DEFAULT_TRIALS = { attack: 100_000, volley: 100_000, ram: 100_000, duel: 20_000, battle: 2000 } as const;
export const DEFAULT_METRIC = { attack: 'mean_structure_damage', volley: 'mean_structure_damage', ram: 'mean_structure_damage', duel: 'a_win_rate', battle: 'a_win_rate' } as const;

/** Metrics each kind reports (src/sim/counts.ts computes them; a test keeps the lists equal). */
const DAMAGE_METRICS = ['p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_defense_damage', 'mean_sensors_damage', 'mean_thrusters_damage', 'mean_criticals', 'damage_per_100_tv'];
export const METRIC_NAMES: Record<Kind, readonly string[]> = {
  attack: DAMAGE_METRICS,
  volley: [...DAMAGE_METRICS, 'mean_attacks'],
  ram: [...DAMAGE_METRICS, 'p_rams'],
  duel: ['a_win_rate', 'b_win_rate', 'draw_rate', 'mean_rounds', 'mean_damage_by_a', 'mean_damage_by_b'],
  battle: ['a_win_rate', 'b_win_rate', 'draw_rate', 'mean_turns', 'mean_op_a', 'mean_op_b', 'mean_vp_a', 'mean_vp_b', 'mean_surviving_tv_a', 'mean_surviving_tv_b'],
};

type Json = Record<string, unknown>;

/** A duel cell with the batch-file defaults (front aspects, auto arcs, 20 rounds, random first shot). */
export function duelCell(experiment: string, a: string, b: string, range: number, trials: number, precision: Precision | null = null): Cell {
  return { id: `${experiment}/${a}/${b}`, experiment, kind: 'duel', a, b, weapon: null, range, aspect: 'front', bAspect: 'front', aArc: 'auto', until: 'destroyed', rounds: 20, first: 'random', exact: false, trials, precision };
}

/** A batch made in code (jwsim costs): one variant, the given cells, no file behind it. */
export function generatedBatch(description: string, roster: Roster, seed: string, variant: Variant, cells: Cell[]): Batch {
  const spec = JSON.stringify({ description, seed, variant: { ...variant, overlay: variant.overlay?.sha256 ?? null }, cells, units: [...roster.units.keys()] });
  return {
    file: '(generated)',
    sha256: createHash('sha256').update(spec).digest('hex'),
    description,
    seed,
    roster,
    unitFiles: roster.files.map((path) => ({ path, sha256: existsSync(path) ? sha256(path) : '' })),
    variants: [variant],
    cells,
  };
}
const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? (v as string[]) : [v as string]);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The unit-id fields of every experiment whose kind is readable, with their message prefixes (as loadBatch words them). */
function looseUnitRefs(file: string, data: unknown): Array<[string, unknown]> {
  if (!isObject(data) || !Array.isArray(data.experiments)) return [];
  const refs: Array<[string, unknown]> = [];
  data.experiments.forEach((e: unknown, i) => {
    if (!isObject(e)) return;
    const at = (field: string) => `${file}: experiments[${i}].${field}`;
    if (e.kind === 'duel') {
      if (Array.isArray(e.units)) refs.push([at('units'), e.units]);
      if (Array.isArray(e.matchups)) e.matchups.forEach((m: unknown, k) => Array.isArray(m) && m.slice(0, 2).forEach((u, j) => refs.push([at(`matchups[${k}][${j}]`), u])));
    } else if (e.kind === 'attack' || e.kind === 'volley' || e.kind === 'ram') {
      refs.push([at(e.kind === 'ram' ? 'rammer' : 'attacker'), e.kind === 'ram' ? e.rammer : e.attacker], [at('target'), e.target]);
    }
  });
  return refs;
}

export function loadBatch(file: string, seedOverride?: string): Batch {
  const data = readJsonFile(file) as Json;
  const shape = schemaProblems(BATCH_SCHEMA, data, file);
  // Unit ids are checked even then, where readable, so every problem shows in one round.
  if (shape.length) failOnProblems(file, [...shape, ...looseUnitProblems(() => looseUnitFiles(file, data), looseUnitRefs(file, data))]);
  const base = dirname(resolve(file));
  const unitFiles = data.units ? list(data.units).map((f) => resolve(base, f)) : sampleRosterFiles();
  let roster: Roster;
  try {
    roster = loadRoster(unitFiles);
  } catch (e) {
    // Say which batch named the unit file, as the scenario loader does.
    if (!(e instanceof UserError)) throw e;
    throw new UserError(`${file}: units: ${e.message}`, e.details);
  }
  const problems: string[] = [];
  const variants: Variant[] = ((data.variants as Json[] | undefined) ?? [{ name: 'v1.2.2', rules: '1.2.2' }]).map((v, i) => {
    const rules = (v.rules as string).replace(/^v/, '');
    let overlay: Overlay | null = null;
    if (v.overlay) {
      try {
        overlay = loadOverlay(resolve(base, v.overlay as string));
      } catch (e) {
        problems.push(`${file}: variants[${i}].overlay: ${(e as Error).message}`, ...((e as UserError).details ?? []));
      }
      const clash = overlay && overlayVersionProblem(overlay, rules, { uses: `variants[${i}].rules is`, allowed: (w) => `set variants[${i}].rules to "${w}" or use an overlay written for v${rules}` });
      if (clash) problems.push(`${file}: variants[${i}].overlay: ${clash}`);
    }
    return { name: v.name as string, rules, options: Object.entries((v.options ?? {}) as Json).map(([k, x]) => `${k}=${x}`), overlay };
  });
  const names = new Set<string>();
  variants.forEach((v, i) => {
    if (names.has(v.name)) problems.push(`${file}: variants[${i}].name: duplicate variant name "${v.name}"`);
    names.add(v.name);
  });
  const cells: Cell[] = [];
  const scenarioFiles = new Map<string, string>(); // path -> sha256
  const expIds = new Set<string>();
  (data.experiments as Json[]).forEach((e, i) => {
    const where = `${file}: experiments[${i}]`;
    const id = e.id as string;
    if (expIds.has(id)) problems.push(`${where}.id: duplicate experiment id "${id}"`);
    expIds.add(id);
    const known = (u: string, field: string) => {
      if (!roster.units.has(u)) problems.push(`${where}.${field}: ${unknownUnitMessage(roster, u)}`);
      return u;
    };
    const kind = e.kind as Kind;
    if (kind === 'battle') {
      if (cells.length + 1 > MAX_CELLS) {
        problems.push(`${where}: one engagement more than the ${MAX_CELLS} allowed in one batch`);
        return;
      }
      const precision = precisionOf(e, kind, where, false, problems);
      const cell = battleCell({ where, id, e, base, variants, units: data.units ? unitFiles : undefined, precision, problems, files: scenarioFiles });
      if (cell) cells.push(cell);
      return;
    }
    // Count before expanding: a short file can name millions of combinations.
    const size =
      kind === 'duel'
        ? e.matchups
          ? (e.matchups as unknown[]).length
          : ((n) => (e.pairs === 'unordered' ? (n * (n - 1)) / 2 : n * (n - 1)))(e.units === undefined || e.units === 'all' ? roster.units.size : (e.units as string[]).length)
        : list(kind === 'ram' ? e.rammer : e.attacker).length * list(e.target).length;
    if (cells.length + size > MAX_CELLS) {
      problems.push(`${where}: expands to ${size} engagements, ${cells.length + size} with those before it; at most ${MAX_CELLS} are allowed in one batch`);
      return;
    }
    const pairs: Array<[string, string]> = [];
    if (kind === 'duel') {
      if (e.matchups) {
        if (e.units !== undefined || e.pairs !== undefined) problems.push(`${where}: give either "matchups" or "units"${e.pairs !== undefined ? '/"pairs"' : ''} (a matrix), not both`);
        (e.matchups as string[][]).forEach(([a, b], k) => {
          if (a === b) problems.push(`${where}.matchups[${k}]: a unit cannot duel itself ("${a}")`);
          else pairs.push([known(a, `matchups[${k}][0]`), known(b, `matchups[${k}][1]`)]);
        });
      }
      else {
        const us = e.units === undefined || e.units === 'all' ? [...roster.units.keys()] : (e.units as string[]).map((u) => known(u, 'units'));
        us.forEach((a, x) => us.forEach((b, y) => (e.pairs === 'unordered' ? x < y : x !== y) && pairs.push([a, b])));
      }
    } else {
      const as = list(kind === 'ram' ? e.rammer : e.attacker).map((u) => known(u, kind === 'ram' ? 'rammer' : 'attacker'));
      for (const a of as) for (const b of list(e.target).map((u) => known(u, 'target'))) pairs.push([a, b]);
    }
    const exact = (kind === 'attack' || kind === 'ram') && e.exact !== false && e.trials === undefined;
    const precision = precisionOf(e, kind, where, exact, problems);
    for (const [a, b] of pairs) {
      cells.push({
        id: `${id}/${a}/${b}`,
        experiment: id,
        kind,
        a,
        b,
        weapon: (e.weapon as string | undefined) ?? null,
        range: (e.range as number | undefined) ?? 0,
        aspect: (e.aspect as Aspect | undefined) ?? 'front',
        bAspect: (e.b_aspect as Aspect | undefined) ?? 'front',
        aArc: (e.firing_arc as ArcChoice | undefined) ?? 'auto',
        until: (e.until as 'destroyed' | 'crippled' | undefined) ?? 'destroyed',
        rounds: (e.rounds as number | undefined) ?? 20,
        first: (e.first as 'a' | 'b' | 'random' | undefined) ?? 'random',
        exact,
        trials: precision ? precision.maxTrials : ((e.trials as number | undefined) ?? DEFAULT_TRIALS[kind]),
        precision,
      });
    }
    if (pairs.length === 0) problems.push(`${where}: expands to no engagements`);
  });
  problems.push(...unreadOptions(file, variants, data.experiments as Json[]));
  // Every engagement is built, checked and kept once per variant: bound that product too.
  if (cells.length * variants.length > MAX_RUNS) {
    problems.push(`${file}: variants: ${cells.length} engagements x ${variants.length} variants = ${cells.length * variants.length} engagement runs; at most ${MAX_RUNS} are allowed in one batch (split the experiments over several batches, or compare fewer variants at once)`);
  }
  const seen = new Set<string>();
  for (const c of cells) {
    if (seen.has(c.id)) problems.push(`${file}: engagement ${c.id} appears twice (two experiments with the same id and units?)`);
    seen.add(c.id);
  }
  failOnProblems(file, problems);
  return {
    file,
    sha256: sha256(file),
    description: (data.description as string | undefined) ?? null,
    seed: seedOverride ?? (data.seed as string | undefined) ?? DEFAULT_SEED,
    roster,
    unitFiles: unitFiles.map((path) => ({ path, sha256: sha256(path) })),
    variants,
    cells,
    ...(scenarioFiles.size ? { scenarioFiles: [...scenarioFiles].map(([path, sha]) => ({ path, sha256: sha })) } : {}),
  };
}

/**
 * A variant's options apply to every experiment of the batch; one that no experiment's kind
 * reads (a battle-only option in a batch of attacks) would change nothing, so it is refused.
 */
function unreadOptions(file: string, variants: readonly Variant[], experiments: readonly Json[]): string[] {
  const kinds = experiments.map((e) => e.kind as Kind);
  const distinct = [...new Set(kinds)].map((k) => `"${k}" (experiments[${kinds.indexOf(k)}].kind)`);
  const which = distinct.length === 1 ? `every experiment is of kind ${distinct[0]}` : `its experiments are of kinds ${distinct.join(', ')}`;
  const problems: string[] = [];
  variants.forEach((v, i) => {
    for (const a of v.options) {
      const name = a.slice(0, a.indexOf('='));
      const scope = optionScope(name);
      if (kinds.some((k) => scope.includes(k))) continue;
      problems.push(`${file}: variants[${i}].options.${name}: ${outOfScopeText(name)}; no experiment of this batch reads it (${which})`);
    }
  });
  return problems;
}

/** An experiment's precision target, checked against what its kind reports. */
function precisionOf(e: Json, kind: Kind, where: string, exact: boolean, problems: string[]): Precision | null {
  const p = e.precision as Json | undefined;
  if (!p) return null;
  // Under a target, max_trials bounds the run: a "trials" beside it would be ignored.
  if (e.trials !== undefined) problems.push(`${where}: give either "trials" or "precision" (its max_trials caps the run), not both`);
  const precision: Precision = { metric: (p.metric as string | undefined) ?? DEFAULT_METRIC[kind], halfWidth: p.half_width as number, minTrials: (p.min_trials as number | undefined) ?? 1, maxTrials: p.max_trials as number };
  if (exact) problems.push(`${where}.precision: an exact experiment needs no precision target (set "exact": false to sample)`);
  if (!METRIC_NAMES[kind].includes(precision.metric)) problems.push(`${where}.precision.metric: "${precision.metric}" is not one of ${METRIC_NAMES[kind].join(', ')}`);
  if (precision.minTrials > precision.maxTrials) problems.push(`${where}.precision.min_trials: ${precision.minTrials} is above max_trials (${precision.maxTrials})`);
  return precision;
}

interface BattleInput {
  /** "<batch file>: experiments[i]" */
  where: string;
  id: string;
  e: Json;
  /** The batch file's folder: scenario paths are relative to it. */
  base: string;
  variants: readonly Variant[];
  /** The batch's unit files when it names any (they replace the scenario's own list). */
  units: readonly string[] | undefined;
  precision: Precision | null;
  problems: string[];
  /** Collects every file the battle reads, with its sha256. */
  files: Map<string, string>;
}

/**
 * The one cell of a battle experiment. The scenario is loaded and checked under the rules
 * of every variant now (fleets are validated per rules version), so a bad scenario fails
 * the batch before anything runs; workers load it again from the same files.
 */
function battleCell(x: BattleInput): Cell | null {
  const at = `${x.where}.scenario`;
  const file = resolve(x.base, x.e.scenario as string);
  if (!existsSync(file)) {
    x.problems.push(`${at}: no such scenario file: ${file} (paths are relative to the batch file)`);
    return null;
  }
  const allowInvalidFleets = x.e.allow_invalid_fleets === true;
  const versions = [...new Set(x.variants.map((v) => v.rules))];
  // Problems per distinct message, so one that every rules version shares is reported once.
  const failures = new Map<string, { rules: string[]; error: UserError }>();
  let scenario: Scenario | null = null;
  for (const rules of versions) {
    try {
      scenario = loadScenario(file, { rulesVersion: rules, allowInvalidFleets, units: x.units, allowInvalidHow: '"allow_invalid_fleets": true in the experiment' });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      const key = [err.message, ...err.details].join('\n');
      const seen = failures.get(key);
      if (seen) seen.rules.push(rules);
      else failures.set(key, { rules: [rules], error: err });
    }
  }
  for (const { rules, error } of failures.values()) {
    const tag = rules.length < versions.length ? ` (rules ${rules.map((r) => `v${r}`).join(', ')})` : '';
    x.problems.push(`${at}${tag}: ${error.message}`, ...error.details);
  }
  if (failures.size || !scenario) return null;
  x.files.set(file, sha256(file));
  for (const side of scenario.sides) if (side.fleetFile) x.files.set(side.fleetFile, sha256(side.fleetFile));
  for (const path of scenario.roster.files) if (existsSync(path)) x.files.set(path, sha256(path));
  const precision = x.precision;
  return {
    id: `${x.id}/${scenario.id}`,
    experiment: x.id,
    kind: 'battle',
    a: scenario.sides[0].name,
    b: scenario.sides[1].name,
    weapon: null,
    range: 0,
    aspect: 'front',
    bAspect: 'front',
    aArc: 'auto',
    until: 'destroyed',
    rounds: scenario.turns,
    first: scenario.initiative,
    exact: false,
    trials: precision ? precision.maxTrials : ((x.e.trials as number | undefined) ?? DEFAULT_TRIALS.battle),
    precision,
    scenario: file,
    mirror: x.e.mirror !== false,
    allowInvalidFleets,
    ...(x.units ? { units: [...x.units] } : {}),
  };
}

/**
 * One hash of everything a run's numbers depend on besides the seed: the batch, the unit
 * files, the overlays and the jwsim version. Resume and merge refuse to mix runs whose
 * inputs differ.
 */
export function inputsSha256(batch: Batch, jwsimVersion: string): string {
  const h = createHash('sha256').update(`jwsim ${jwsimVersion}\n${batch.sha256}\n`);
  for (const u of batch.unitFiles) h.update(`${u.sha256}\n`);
  for (const v of batch.variants) h.update(`${v.name}:${v.rules}:${v.options.join(',')}:${v.overlay?.sha256 ?? ''}\n`);
  // Battles also read scenario, fleet and unit files (none for batches without battles).
  for (const f of batch.scenarioFiles ?? []) h.update(`scenario-input ${f.sha256}\n`);
  return h.digest('hex');
}
