// Battle-engine test helpers: rules per version, the sample scenarios, small in-memory
// scenarios built from sample-roster cards, and a model placed by hand.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Battle, type Trace } from '../../src/engine/battle/game.js';
import { battleRules, type BattleRules } from '../../src/engine/battle/battleRules.js';
import type { Gunnery, ShotMods } from '../../src/engine/battle/gunnery.js';
import { BattleModel } from '../../src/engine/battle/model.js';
import type { AttackPlan } from '../../src/engine/attackPlan.js';
import { sampleRosterFiles } from '../../src/paths.js';
import type { CompiledRules } from '../../src/rules/compile.js';
import type { RulesVersionId } from '../../src/rules/registry.js';
import { loadScenario } from '../../src/scenarios/scenario.js';
import type { PolicyName, Scenario, ZoneKind } from '../../src/scenarios/scenarioTypes.js';
import { loadRoster } from '../../src/units/load.js';
import type { Policy } from '../../src/policies/types.js';
import type { Roster, UnitCard, WeaponLine } from '../../src/units/types.js';
import { rulesFor } from './units.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const SAMPLE_SCENARIOS = ['standard-engagement', 'beacon-assault', 'corner-escalation'] as const;
export type SampleScenario = (typeof SAMPLE_SCENARIOS)[number];

export function scenarioPath(name: string): string {
  return join(ROOT, 'scenarios', 'battles', `${name}.json`);
}

const scenarioCache = new Map<string, Scenario>();
/** A sample scenario file, loaded (and cached) for a rules version. */
export function sampleScenario(name: SampleScenario, version: RulesVersionId): Scenario {
  const key = `${name}@${version}`;
  let s = scenarioCache.get(key);
  if (!s) {
    s = loadScenario(scenarioPath(name), { rulesVersion: version, allowInvalidFleets: false });
    scenarioCache.set(key, s);
  }
  return s;
}

const rulesCache = new Map<string, CompiledRules>();
/** Compiled rules of a version with the default interpretations. */
export function rules(version: RulesVersionId): CompiledRules {
  let r = rulesCache.get(version);
  if (!r) {
    r = rulesFor(version);
    rulesCache.set(version, r);
  }
  return r;
}

export function brOf(version: RulesVersionId): BattleRules {
  return battleRules(rules(version));
}

let roster: Roster | null = null;
/** The sample roster (scenarios/units/sample-roster.json). */
export function sampleRoster(): Roster {
  roster ??= loadRoster(sampleRosterFiles());
  return roster;
}

export function card(id: string): UnitCard {
  const u = sampleRoster().units.get(id);
  if (!u) throw new Error(`no unit ${id} in the sample roster`);
  return u;
}

/** A copy of a roster card with some ratings replaced (e.g. Speed and Thrusters). */
export function cardWith(id: string, patch: Partial<UnitCard>): UnitCard {
  return { ...card(id), ...patch };
}

export interface MiniScenarioSpec {
  /** Unit ids of the sample roster, or cards. */
  a: Array<string | UnitCard>;
  b: Array<string | UnitCard>;
  zone?: ZoneKind;
  deployment?: 'fleet' | 'escalating';
  turns?: number;
  policyA?: PolicyName;
  policyB?: PolicyName;
  initiative?: 'a' | 'b' | 'random';
}

/** A Scenario object built in memory (no file), fleets from sample-roster unit ids. */
export function miniScenario(spec: MiniScenarioSpec): Scenario {
  const toCard = (u: string | UnitCard) => (typeof u === 'string' ? card(u) : u);
  const fleetA = spec.a.map(toCard);
  const fleetB = spec.b.map(toCard);
  return {
    file: '(test scenario)',
    sha256: '0'.repeat(64),
    id: 'test-mini',
    description: null,
    table: { width: 48, height: 48 },
    points: 250,
    zone: spec.zone ?? 'standard',
    deployment: spec.deployment ?? 'fleet',
    stripDepth: 12,
    turns: spec.turns ?? 7,
    initiative: spec.initiative ?? 'a',
    objectives: [],
    earlyEnd: { noCapitalShips: false, opAtLeast: null },
    sides: [
      { name: 'A', fleet: fleetA, policy: { name: spec.policyA ?? 'aggressive', params: {} }, tv: fleetA.reduce((s, u) => s + u.tv, 0) },
      { name: 'B', fleet: fleetB, policy: { name: spec.policyB ?? 'aggressive', params: {} }, tv: fleetB.reduce((s, u) => s + u.tv, 0) },
    ],
    roster: sampleRoster(),
    fleetWarnings: [],
  };
}

/** A scenario with its policies replaced (both sides, or each side its own). */
export function withPolicies(s: Scenario, a: PolicyName, b: PolicyName): Scenario {
  return {
    ...s,
    sides: [
      { ...s.sides[0], policy: { name: a, params: {} } },
      { ...s.sides[1], policy: { name: b, params: {} } },
    ],
  };
}

/** A lone model of a card, placed on the table at a pose (not part of any Battle). */
export function placed(u: UnitCard, x: number, y: number, heading = 0, side: 0 | 1 = 0, index = 0): BattleModel {
  const m = new BattleModel(side, index, u, 0, 'hex');
  m.side = side;
  m.where = 'table';
  m.base.set(x, y, heading);
  return m;
}

export function emptyTrace(): Trace {
  return { initiative: '', beacons: [], deployments: [], activations: [], endPhases: [] };
}

export { Battle };

// ------------------------------------------------------------------ hand-built activations

import type { Base } from '../../src/engine/geometry.js';
import { TrialStreams, type RandomStream } from '../../src/rng/stream.js';

/** Private parts of a Battle that tests reach through a cast. */
export interface BattleInternals {
  turn: number;
  dice: RandomStream;
  pol: RandomStream;
  trace: Trace | null;
  activate(m: BattleModel): void;
  resolveOverlaps(mover: BattleModel, fireFirst: () => void, rec: { notes: string[] } | null): void;
  inZoneRect(b: Base, x0: number, y0: number, x1: number, y1: number): boolean;
  moveTiers(m: BattleModel, allowStationKeep: boolean): Array<Array<{ pose: { x: number; y: number; heading: number }; action: string; travelled: number }>>;
  /** The two sides' policies (tests replace methods on them to script a choice). */
  policies: [Policy, Policy];
  gunnery: Gunnery;
}

/** The policies of a battle, to script their choices in a test. */
export function policiesOf(battle: Battle): [Policy, Policy] {
  return (battle as unknown as BattleInternals).policies;
}

/**
 * Calls `keep` with every attack plan the battle's Gunnery hands out from now on, with the
 * weapon, the target and the situation it was asked for (plans come from cache or are made).
 */
export function watchShots(battle: Battle, keep: (plan: AttackPlan, weapon: WeaponLine, target: BattleModel, mods: ShotMods) => void): void {
  const g = (battle as unknown as BattleInternals).gunnery;
  // Gunnery.watch sees every entry handed out: by entry() (the policies' estimates) and by
  // fire() (the attacks made), which looks its entries up without calling entry().
  const outer = g.watch;
  g.watch = (e, att, w, tgt, band, asp, arc, mods) => {
    if (outer) outer(e, att, w, tgt, band, asp, arc, mods);
    if (e) keep(e.plan, w, tgt, mods);
  };
}

/**
 * A Battle set up by hand for single activations: every model reset, on its fleet's table
 * position and In Reserve until placed with put(); seeded dice and policy streams; an empty trace.
 */
export function handBattle(battle: Battle, seed = 'hand'): BattleInternals {
  const inner = battle as unknown as BattleInternals;
  for (const m of battle.models) {
    m.reset();
    m.side = m.fleet;
  }
  inner.turn = 1;
  inner.dice = new TrialStreams({ seed, experiment: 'hand', purpose: 'battle-dice', chunk: 0 }).at(0);
  inner.pol = new TrialStreams({ seed, experiment: 'hand', purpose: 'battle-policy', chunk: 0 }).at(0);
  inner.trace = emptyTrace();
  return inner;
}

/** Puts a model of a hand-built Battle on the table at a pose. */
export function put(m: BattleModel, x: number, y: number, heading = 0): BattleModel {
  m.where = 'table';
  m.base.set(x, y, heading);
  return m;
}

// ------------------------------------------------------------------ independent scoring

/** End state of a model, worked out without Battle.fate(). */
export function endState(m: BattleModel): 'reserve' | 'intact' | 'crippled' | 'destroyed' | 'withdrawn' | 'captured' {
  if (m.captured && m.where !== 'destroyed' && !m.state.destroyed) return 'captured';
  if (m.where === 'withdrawn') return 'withdrawn';
  if (m.where === 'destroyed' || m.state.destroyed) return 'destroyed';
  if (m.where === 'reserve') return 'reserve';
  return m.state.crippled ? 'crippled' : 'intact';
}

/**
 * VP per fleet (0 = side a) recomputed from the end states: §12.2 (v1.2.2) or §12.1 with GM-93
 * (v1.2.1), GM-94 rounding; a captured ship x1.5 to the captor, 0 to its owner (seed 000).
 */
export function expectedVp(battle: Battle, version: RulesVersionId): [number, number] {
  const vp: [number, number] = [0, 0];
  for (const m of battle.models) {
    const s = endState(m);
    const tv = m.unit.tv;
    const enemy = 1 - m.fleet;
    if (s === 'captured') vp[enemy] += Math.ceil(tv * 1.5);
    else if (version === '1.2.2') {
      if (s === 'intact' || s === 'reserve') vp[m.fleet] += tv;
      else if (s === 'withdrawn') vp[m.fleet] += Math.ceil(tv / 2);
    } else if (s === 'destroyed' || (s === 'crippled' && m.unit.isCapital)) vp[enemy] += tv;
    else if (s === 'withdrawn') vp[enemy] += Math.ceil(tv / 2);
  }
  return vp;
}

/**
 * The winner a game's OP and VP call for: v1.2.2 most OP, then most VP (seed 000, GM-33);
 * v1.2.1 most VP with OP counted as VP (§12.1 "objectives: as the scenario sets", GM-33);
 * else a draw (2).
 */
export function expectedWinner(r: { op: readonly [number, number] | number[]; vp: readonly [number, number] | number[] }, version: RulesVersionId): 0 | 1 | 2 {
  if (version === '1.2.1') {
    const a = r.vp[0] + r.op[0], b = r.vp[1] + r.op[1];
    return a !== b ? (a > b ? 0 : 1) : 2;
  }
  return r.op[0] !== r.op[1] ? (r.op[0] > r.op[1] ? 0 : 1) : r.vp[0] !== r.vp[1] ? (r.vp[0] > r.vp[1] ? 0 : 1) : 2;
}
