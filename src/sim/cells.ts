// The unit of work: one chunk of trials of one cell (engagement) under one variant (rules).
// Built the same way in the main thread (to validate and to compute exact cells) and in
// each worker; a chunk returns integer counts only.
import { Roller } from '../dice/roll.js';
import { exactAttack, rollPlan } from '../engine/attack.js';
import { firstArc, planAttack, type AttackPlan, type Situation } from '../engine/attackPlan.js';
import { DamageTally, applyResults } from '../engine/damage.js';
import { DUEL_DRAW, DUEL_WIN_A, DUEL_WIN_B, Duel, whyNobodyFires } from '../engine/duel.js';
import { exactRam, planRam, rollRam, type RamPlan } from '../engine/ram.js';
import { CombatState } from '../engine/state.js';
import type { DamageSummary } from '../engine/stats.js';
import { PlaceholderUsage, noteTargetDamageFields } from '../engine/usage.js';
import { fireVolley, skippedText } from '../engine/volley.js';
import { arcFacing, bestVolley } from '../engine/arcs.js';
import { Battle } from '../engine/battle/game.js';
import { UserError } from '../errors.js';
import { compileRules, type CompiledRules } from '../rules/compile.js';
import { DEFAULT_INTERPRETATIONS, applyRuleAssignments, changedOptions, withoutEffect, type InterpretationOptions } from '../rules/interpretations.js';
import { applyOverlay } from '../rules/overlay.js';
import { getRulesVersion } from '../rules/registry.js';
import type { RulesVersion } from '../rules/types.js';
import { openStream, type RandomStream } from '../rng/stream.js';
import type { Cell, Variant } from '../scenarios/batch.js';
import { loadScenario, type LoadScenarioOptions } from '../scenarios/scenario.js';
import type { Scenario } from '../scenarios/scenarioTypes.js';
import { weaponLine, weaponLines } from '../units/load.js';
import type { Roster, UnitCard } from '../units/types.js';
import { BATTLE_CHUNK_TRIALS, battleCountsLength, battleStreams, battleUnitsOf, checkDeployment, playTrial, runBattleChunk, type BattleStreams } from './battles.js';
import * as C from './counts.js';

/**
 * A variant's rules version (its overlay applied) and interpretation options (the overlay's,
 * then its own); `where` names its own options in errors.
 */
function variantRules(v: Variant, where = `variant ${v.name}: options`): { version: RulesVersion; options: InterpretationOptions } {
  let version = getRulesVersion(v.rules);
  let options = DEFAULT_INTERPRETATIONS;
  if (v.overlay) {
    version = applyOverlay(version, v.overlay);
    options = applyRuleAssignments(v.overlay.options, options, `${v.overlay.file}: options`);
  }
  return { version, options: applyRuleAssignments(v.options, options, where) };
}

/**
 * A variant's compiled rules. Its overlay's version was checked where the variant was made
 * (loadBatch, compare); applyOverlay checks it again. `where`: as in variantRules (jwsim
 * battle's own options come from --rule).
 */
export function compileVariant(v: Variant, where?: string): CompiledRules {
  const { version, options } = variantRules(v, where);
  return compileRules(version, options);
}

/**
 * The options of variant `v` (its overlay's and its own, where they differ from the defaults)
 * that can change nothing in this batch, with why: read by no experiment kind of the batch
 * (an overlay is a shared house-rule set; a variant's own such options are refused when the
 * batch is read), or idle under the variant's rules.
 */
export function variantOptionsWithoutEffect(batch: { cells: readonly Cell[] }, v: Variant): Array<{ option: string; why: string }> {
  const kinds = [...new Set(batch.cells.map((c) => c.kind))];
  const { version, options } = variantRules(v);
  return withoutEffect(changedOptions(options), kinds, version.data, options, `any experiment of this batch, ${kinds.length > 1 ? `of kinds ${kinds.join(', ')}` : `all of kind ${kinds[0]}`}`);
}

export interface CellEngine {
  readonly placeholders: readonly string[];
  /** Battles: the unit types of the scenario, in the order of the counts' per-unit blocks (empty otherwise). */
  readonly battleUnits: readonly C.BattleUnit[];
  /** Length of the counts a chunk returns (battles: depends on the scenario). */
  readonly countsLength: number;
  /** Problems the engagement runs in spite of (battles: fleets accepted by allow_invalid_fleets). */
  readonly warnings: readonly string[];
  readonly attackerTv: number;
  /** Metrics of an exact cell; null when the cell is sampled in chunks. */
  readonly exact: C.Metric[] | null;
  /** An exact cell's P(k Structure lost), k = 0..10. */
  readonly exactDistribution: number[] | null;
  /** Counts of `n` trials of chunk `chunk` on the stream (seed, cell id, kind, chunk). */
  runChunk(seed: string, chunk: number, n: number): number[];
  /** Adds one trial, drawn from `rng`, to the counts `c` (not for battles: a game needs two streams). */
  trial(rng: RandomStream, c: number[]): void;
  /** Battles: adds trial `t` (its game, or mirrored pair) on the cell's streams for `seed` to `c`: the game chunks play as trial t. */
  battleTrial?(seed: string, t: number, c: number[]): void;
}

/** A cell engine from its one-trial function: chunks are runs of trials on one stream. */
function engine(cell: Cell, parts: Omit<CellEngine, 'runChunk' | 'countsLength' | 'warnings' | 'battleUnits'> & { warnings?: readonly string[] }): CellEngine {
  return {
    ...parts,
    battleUnits: [],
    countsLength: C.countsLength(cell.kind),
    warnings: parts.warnings ?? [],
    runChunk(seed, chunk, n) {
      const c = new Array<number>(C.countsLength(cell.kind)).fill(0);
      const rng = openStream({ seed, experiment: cell.id, purpose: cell.kind, chunk });
      for (let t = 0; t < n; t++) parts.trial(rng, c);
      return c;
    },
  };
}

function exactMetrics(kind: Cell['kind'], s: DamageSummary, tv: number, pRams?: number): C.Metric[] {
  const m = (name: string, value: number): C.Metric => ({ name, value, low: value, high: value });
  const out = [
    m('p_destroyed', s.pDestroyed),
    m('p_crippled', s.pCrippled),
    m('mean_structure_damage', s.meanStructureDamage),
    m('mean_defense_damage', s.meanRatingDamage.defense),
    m('mean_sensors_damage', s.meanRatingDamage.sensors),
    m('mean_thrusters_damage', s.meanRatingDamage.thrusters),
    m('mean_criticals', s.meanCriticals),
    m('damage_per_100_tv', (100 * s.meanStructureDamage) / tv),
  ];
  if (kind === 'ram') out.push(m('p_rams', pRams ?? 0));
  return out;
}

/** P(k Structure lost), k = 0..10, the same buckets as sampled counts. */
function histOf(s: DamageSummary): number[] {
  const h = new Array<number>(11).fill(0);
  s.structureDamage.forEach((p, k) => (h[Math.min(k, 10)] += p));
  return h;
}

/** Adds one trial's damage to the counts. */
function addTrial(c: number[], t: CombatState, tally: DamageTally): void {
  c[C.C_N]++;
  if (t.destroyed) c[C.C_DESTROYED]++;
  else if (t.crippled) c[C.C_CRIPPLED]++;
  const sq = (i: number, x: number) => {
    c[i] += x;
    c[i + 1] += x * x;
  };
  sq(C.C_STRUCTURE, tally.structure);
  sq(C.C_DEFENSE, tally.defense);
  sq(C.C_SENSORS, tally.sensors);
  sq(C.C_THRUSTERS, tally.thrusters);
  sq(C.C_CRITICALS, tally.criticals);
  c[C.C_HIST + Math.min(tally.structure, 10)]++;
}

function fail(cell: Cell, v: Variant, why: string): never {
  throw new UserError(`experiment ${cell.id} (variant ${v.name}): ${why}`);
}

function findWeapon(cell: Cell, v: Variant, u: UnitCard) {
  return weaponLine(u, cell.weapon ?? '') ?? fail(cell, v, `${u.name} has no weapon line "${cell.weapon}"; its lines: ${weaponLines(u)}`);
}

/**
 * The battle of `scenarioFile` under variant `v` (jwsim battle's and a batch's battle cells):
 * its compiled rules, the scenario (fleets validated for `opts.rulesVersion`) and the Battle.
 * `check`: refuse zones that cannot take the fleets (checkDeployment), made once in the main
 * thread before a run, not again by workers that rebuild the battle. `where`: as in compileVariant.
 */
export function loadBattle(v: Variant, scenarioFile: string, opts: LoadScenarioOptions, check: boolean, where?: string): { rules: CompiledRules; scenario: Scenario; battle: Battle } {
  const rules = compileVariant(v, where);
  const scenario = loadScenario(scenarioFile, opts);
  const battle = new Battle(rules, scenario);
  if (check) checkDeployment(battle);
  return { rules, scenario, battle };
}

/**
 * A battle cell: the scenario is loaded from its file (workers too), and chunk k plays trials
 * k * BATTLE_CHUNK_TRIALS onwards, each on its own pair of streams named by the cell id, so
 * counts never depend on how chunks are spread over threads or shards.
 */
function battleEngine(cell: Cell, v: Variant, check: boolean): CellEngine {
  if (!cell.scenario) throw new Error(`battle cell ${cell.id} has no scenario file`);
  const { scenario, battle } = loadBattle(v, cell.scenario, { rulesVersion: v.rules, allowInvalidFleets: cell.allowInvalidFleets === true, units: cell.units }, check);
  const mirror = cell.mirror !== false;
  // battleTrial's streams, made once per seed.
  let paired: { seed: string; streams: BattleStreams } | null = null;
  const battleUnits = battleUnitsOf(battle);
  return {
    placeholders: battle.usage.list(),
    battleUnits,
    countsLength: battleCountsLength(battle.units.length),
    warnings: scenario.fleetWarnings.map((w) => `${scenario.file}: ${w} (fleet rules v${v.rules}; run anyway: allow_invalid_fleets)`),
    attackerTv: scenario.sides[0].tv,
    exact: null,
    exactDistribution: null,
    runChunk(seed, chunk, n) {
      return runBattleChunk(battle, battleStreams(seed, cell.id), chunk * BATTLE_CHUNK_TRIALS, n, mirror);
    },
    trial() {
      throw new Error(`experiment ${cell.id}: a battle trial needs two random streams; battles cannot run one trial on a single stream`);
    },
    battleTrial(seed, t, c) {
      if (!paired || paired.seed !== seed) paired = { seed, streams: battleStreams(seed, cell.id) };
      playTrial(battle, paired.streams, t, mirror, c);
    },
  };
}

/**
 * The engine of one engagement under one variant. `check`: the one-time checks of its inputs
 * (a battle's deployment zones); buildEngines makes them before a run, and workers, which
 * rebuild the same engines, skip them.
 */
export function buildCellEngine(cell: Cell, v: Variant, roster: Roster, check = true): CellEngine {
  if (cell.kind === 'battle') {
    try {
      return battleEngine(cell, v, check);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      throw new UserError(`experiment ${cell.id} (variant ${v.name}): ${e.message}`, e.details);
    }
  }
  const rules = compileVariant(v);
  const a = roster.units.get(cell.a)!;
  const b = roster.units.get(cell.b)!;
  const usage = new PlaceholderUsage(rules).unit(a, 'tv');
  const tally = new DamageTally();
  const kind = cell.kind;

  if (kind === 'duel') {
    // A stands at B's `aspect`, B at A's `bAspect`; each presents its better broadside to a side.
    const arcOfA = arcFacing(rules, new CombatState(a), new CombatState(b), cell.range, cell.bAspect, cell.aspect);
    const arcOfB = arcFacing(rules, new CombatState(b), new CombatState(a), cell.range, cell.aspect, cell.bAspect);
    const duel = new Duel(rules, { a, b, rangeInches: cell.range, arcOfA, arcOfB, until: cell.until, maxRounds: cell.rounds, first: cell.first });
    const rounds = new Int32Array(1);
    // Accepted (a matrix may hold pairs out of each other's reach), but said: every such duel is a draw.
    const silent = whyNobodyFires(rules, duel);
    return engine(cell, {
      warnings: silent ? [`neither side can fire at ${cell.range} in, so every duel is a draw: ${silent.reasons.join('; ')}`] : [],
      placeholders: duel.usage.list(),
      attackerTv: a.tv,
      exact: null,
      exactDistribution: null,
      trial(rng, c) {
        const w = duel.play(rng, rounds);
        const r = rounds[0];
        c[C.D_N]++;
        c[w === DUEL_WIN_A ? C.D_A_WINS : w === DUEL_WIN_B ? C.D_B_WINS : C.D_DRAWS]++;
        c[C.D_ROUNDS] += r;
        c[C.D_ROUNDS + 1] += r * r;
        const dealt = duel.damageDealt();
        c[C.D_A_DAMAGE] += dealt.byA;
        c[C.D_A_DAMAGE + 1] += dealt.byA * dealt.byA;
        c[C.D_B_DAMAGE] += dealt.byB;
        c[C.D_B_DAMAGE + 1] += dealt.byB * dealt.byB;
        if (w !== DUEL_DRAW) c[C.D_HIST + Math.min(r, C.ROUNDS_HIST_MAX)]++;
      },
    });
  }

  if (kind === 'ram') {
    let plan: RamPlan;
    try {
      plan = planRam(rules, a, b, cell.aspect, usage);
    } catch (e) {
      return fail(cell, v, (e as Error).message.replace(/^--target: /, ''));
    }
    const exact = cell.exact ? exactRam(rules, plan, a, b) : null;
    const roller = new Roller(rules.dice);
    const r = new CombatState(a);
    const t = new CombatState(b);
    return engine(cell, {
      placeholders: usage.list(),
      attackerTv: a.tv,
      exact: exact ? exactMetrics('ram', exact.target, a.tv, exact.pRams) : null,
      exactDistribution: exact ? histOf(exact.target) : null,
      trial(rng, c) {
        r.reset();
        t.reset();
        tally.reset();
        const roll = rollRam(rules, plan, r, t, roller, rng, tally);
        c[roll.result === 'rammed' ? C.C_RAMS : roll.result === 'shot-down' ? C.C_SHOT_DOWN : C.C_SKILL_FAILS]++;
        addTrial(c, t, tally);
      },
    });
  }

  const attacker = new CombatState(a);
  const target = new CombatState(b);
  if (kind === 'attack') {
    const weapon = findWeapon(cell, v, a);
    const arc = cell.aArc === 'auto' ? firstArc(weapon) : cell.aArc;
    const at: Situation = { rangeInches: cell.range, aspect: cell.aspect, targetArc: arc };
    const planned = planAttack(rules, attacker, weapon, target, at, usage);
    if (!planned.ok) fail(cell, v, `cannot attack: ${planned.reason}`);
    const plan: AttackPlan = planned.plan;
    noteTargetDamageFields(usage, b);
    const roller = new Roller(rules.dice);
    const summary = cell.exact ? exactAttack(rules, plan, target).summary : null;
    return engine(cell, {
      placeholders: usage.list(),
      attackerTv: a.tv,
      exact: summary ? exactMetrics('attack', summary, a.tv) : null,
      exactDistribution: summary ? histOf(summary) : null,
      trial(rng, c) {
        target.reset();
        tally.reset();
        applyResults(rules, target, rollPlan(rules, roller, plan, rng), tally);
        addTrial(c, target, tally);
      },
    });
  }

  // volley
  const { plan } = bestVolley(rules, attacker, target, cell.range, cell.aspect, cell.aArc, usage);
  if (plan.attacks.length === 0) fail(cell, v, `no weapon of ${a.name} can fire at ${b.name}: ${skippedText(plan.skipped)}`);
  noteTargetDamageFields(usage, b);
  return engine(cell, {
    placeholders: usage.list(),
    attackerTv: a.tv,
    exact: null,
    exactDistribution: null,
    trial(rng, c) {
      target.reset();
      tally.reset();
      const shots = fireVolley(rules, plan, attacker, target, rng, tally);
      c[C.C_ATTACKS] += shots;
      c[C.C_ATTACKS + 1] += shots * shots;
      addTrial(c, target, tally);
    },
  });
}

/**
 * Every engagement's engine under every variant, in slot order (cell by cell, variants in
 * order), built before anything runs: every problem of every engagement is reported at
 * once, as one UserError.
 */
export function buildEngines(batch: { file: string; cells: readonly Cell[]; variants: readonly Variant[]; roster: Roster }): CellEngine[] {
  const engines: CellEngine[] = [];
  const problems: string[] = [];
  batch.cells.forEach((cell) => {
    const failed: Array<{ variant: string; message: string }> = [];
    batch.variants.forEach((v) => {
      try {
        engines.push(buildCellEngine(cell, v, batch.roster));
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        failed.push({ variant: v.name, message: e.message });
      }
    });
    // An engagement that runs under some variants only: every experiment runs under every variant, so say what to do.
    const hint = failed.length && failed.length < batch.variants.length
      ? ` (every experiment runs under every variant of a batch; this one runs under ${batch.variants.filter((v) => !failed.some((f) => f.variant === v.name)).map((v) => v.name).join(', ')}: put it in a batch of its own without ${failed.map((f) => f.variant).join(', ')})`
      : '';
    for (const f of failed) if (!problems.includes(f.message + hint)) problems.push(f.message + hint);
  });
  if (problems.length === 1) throw new UserError(`${batch.file}: ${problems[0]}`);
  if (problems.length) throw new UserError(`${batch.file}: ${problems.length} engagements cannot run`, problems);
  return engines;
}

/** An engagement under one variant with its engine (a Slot, or buildEngines' output paired up by `enginesByRun`). */
export interface EngineRun {
  readonly cell: Cell;
  readonly variant: number;
  readonly engine: CellEngine;
}

/** buildEngines' engines (each cell under each variant, in that order) with their cell and variant. */
export function enginesByRun(batch: { cells: readonly Cell[]; variants: readonly Variant[] }, engines: readonly CellEngine[]): EngineRun[] {
  return engines.map((engine, i) => ({ cell: batch.cells[Math.floor(i / batch.variants.length)], variant: i % batch.variants.length, engine }));
}

/**
 * What a batch runs in spite of, as lines: each variant's options without effect, then the
 * engines' warnings naming the engagement and the variants each holds under, each once.
 */
export function batchWarnings(batch: { cells: readonly Cell[]; variants: readonly Variant[] }, runs: readonly EngineRun[]): string[] {
  const lines = batch.variants.flatMap((v) => variantOptionsWithoutEffect(batch, v).map((x) => `variant ${v.name}: ${x.option} is without effect: ${x.why}`));
  const where = new Map<string, { id: string; text: string; variants: string[] }>();
  for (const { cell, variant, engine } of runs) {
    const name = batch.variants[variant].name;
    for (const text of engine.warnings) {
      const key = `${cell.id}\n${text}`;
      const seen = where.get(key);
      if (seen) seen.variants.push(name);
      else where.set(key, { id: cell.id, text, variants: [name] });
    }
  }
  return [...lines, ...[...where.values()].map((w) => `${w.id} (${w.variants.length > 1 ? 'variants' : 'variant'} ${w.variants.join(', ')}): ${w.text}`)];
}
