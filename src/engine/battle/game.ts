// One battle, start to end (game.md §4): Initiative, Deployment Phase, alternating
// activations, End Phase, for the scenario's number of Game Turns or until an early end.
// A Battle object is built once per (rules, scenario) and plays any number of games; each
// game depends only on its two streams (dice, policy) and whether the fleets are mirrored.
import { BEST_MAG, MAG_D } from '../../dice/outcome.js';
import { resolvePool, type Pool } from '../../dice/pool.js';
import { Roller } from '../../dice/roll.js';
import { UserError } from '../../errors.js';
import { makePolicy } from '../../policies/index.js';
import type { ActionName, DeployCandidate, MoveOption, Policy, PolicyView } from '../../policies/types.js';
import type { CompiledRules } from '../../rules/compile.js';
import type { RandomStream } from '../../rng/stream.js';
import type { Scenario } from '../../scenarios/scenarioTypes.js';
import { SYSTEM_TRAITS } from '../../units/catalogue.js';
import type { UnitCard, WeaponLine } from '../../units/types.js';
import type { Situation } from '../attackPlan.js';
import { DamageTally } from '../damage.js';
import { GEOM_EPSILON, type Base, baseInRect, bearing, cosDeg, hypotAtLeast, normalizeDeg, onTable, guidedBisection, BISECTED, overlapSpan, overlapping, pointDistance, segmentDistance, separation, separationAbove, separationBelow, shortestLine, sinDeg } from '../geometry.js';
import { aspect, contactInArc, headOn, longRangeMax, rangeBand, type FacingArc } from '../geometryArcs.js';
import { planRam, rollRam, type RamPlan } from '../ram.js';
import { PlaceholderUsage, noteTargetDamageFields } from '../usage.js';
import { battleRules, type BattleRules } from './battleRules.js';
import { Gunnery, type AttackRecord, type ShotMods } from './gunnery.js';
import type { ProcedureHooks } from './procedures.js';
import { boardedFight, initiateBoarding } from './boarding.js';
import { dogfight, mayIntercept, type DogfightChooser, type DogfightResult } from './dogfight.js';
import { assault, bombing, engagePointDefence, pointDefenceAttack, type InterceptFn } from './strike.js';
import { BattleModel, MovingBase } from './model.js';
import { baseAt, capitalLimits, capitalMoves, followCapitalMove, legalEnd, nearestLegal, squadronDestinations, type Pose } from './movement.js';

export type Fate = 'intact' | 'crippled' | 'destroyed' | 'withdrawn' | 'reserve' | 'captured';

export interface GameResult {
  /** Per fleet (0 = scenario side a): Objective Points, Victory Points, TV still fighting. */
  readonly op: [number, number];
  readonly vp: [number, number];
  readonly survivingTv: [number, number];
  /** 0 or 1: the winning fleet; 2: a draw. */
  readonly winner: 0 | 1 | 2;
  readonly turns: number;
  readonly activations: number;
  /** The fleet that held Initiative. */
  readonly initiative: 0 | 1;
  readonly endReason: string;
  /** The game ended before its last turn was played out (endReason says why). */
  readonly endedEarly: boolean;
}

export interface TraceActivation {
  turn: number;
  model: string;
  action: ActionName;
  test?: string;
  before: { x: number; y: number; heading: number };
  after: { x: number; y: number; heading: number };
  fired: 'before-move' | 'after-move' | 'none';
  attacks: AttackRecord[];
  ram?: { target: string; result: string; rammerAfter: string; targetAfter: string };
  notes: string[];
}

export interface Trace {
  initiative: string;
  beacons: Array<{ side: string; x: number; y: number }>;
  deployments: Array<{ turn: number; model: string; x: number; y: number; heading: number }>;
  activations: TraceActivation[];
  /** `notes`: what happened in the End Phase besides scoring (only when something did, e.g. a boarded fight). */
  endPhases: Array<{ turn: number; op: [number, number]; scored: string[]; notes?: string[] }>;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const poseOf = (b: { x: number; y: number; heading: number }) => ({ x: r3(b.x), y: r3(b.y), heading: r3(b.heading) });
const NO_MODS: ShotMods = { flex: 0, rerolls: 0 };
const ARC_OF_REL = (rel: number): FacingArc => (rel <= 45 || rel >= 315 ? 'F' : rel < 135 ? 'S' : rel <= 225 ? 'R' : 'P');
const ASPECT_OF: Record<FacingArc, Situation['aspect']> = { F: 'front', P: 'side', S: 'side', R: 'rear' };
const ARCS: readonly FacingArc[] = ['F', 'P', 'S', 'R'];

/** Scratch for overlapSpan: where a straight search starts and stops overlapping. */
const SPAN_OUT = new Float64Array(2);

/** A deployment spot offered to a policy, with its zone test. */
type DeploySpot = DeployCandidate & { inZone: (p: Pose) => boolean; zoneOk: number };

export class Battle implements PolicyView {
  readonly br: BattleRules;
  readonly usage: PlaceholderUsage;
  readonly models: BattleModel[] = [];
  /** Whether any unit in the game has the Barrier trait (else no target looks for a Barrier model to defend it). */
  private anyBarrier = false;
  readonly units: UnitCard[] = [];
  readonly width: number;
  readonly height: number;
  readonly turns: number;
  readonly objectives: Scenario['objectives'];
  turn = 0;
  private readonly policies: [Policy, Policy];
  private readonly gunnery: Gunnery;
  private readonly roller: Roller;
  private readonly tally = new DamageTally();
  private readonly testPools = new Map<number, Pool>();
  private readonly ramPlans = new Map<string, RamPlan>();
  private readonly volleyCache = new Map<number, number>();
  /** Per (attacker type, target type): the situation table in use and the signature it is for. */
  private readonly estTables: Float64Array[];
  private readonly estSig: Float64Array;
  /** Every situation table made this run, by pair and signature (states recur from game to game). */
  private readonly estSaved = new Map<number, Float64Array>();
  private readonly enemyLists: [BattleModel[], BattleModel[]] = [[], []];
  private enemyListsTurnStamp = -1;
  private dice!: RandomStream;
  private pol!: RandomStream;
  private trace: Trace | null = null;
  /** The trace record of the activation in progress (for notes from bookkeeping), or null. */
  private currentRec: TraceActivation | null = null;
  private ended: string | null = null;
  private activations = 0;
  private beacons: Array<{ side: 0 | 1; x: number; y: number }> = [];
  private sideOfFleet: [0 | 1, 0 | 1] = [0, 1];
  /** The side holding Initiative: it takes the first zone (y = 0 strip, origin quadrant; GM-81, GM-84). */
  private initSide: 0 | 1 = 0;
  /** Bumped whenever a model appears, leaves or is damaged: keys the enemy-list caches. */
  private epoch = 0;

  constructor(
    readonly rules: CompiledRules,
    readonly scenario: Scenario,
  ) {
    this.br = battleRules(rules);
    if (scenario.deployment === 'escalating' && !this.br.escalatingDeployment) {
      throw new UserError(`${scenario.file}: deployment.type: Escalating Deployment is not in ${rules.version.title}; only Fleet Deployment is supported under it (game.md GM-95)`);
    }
    this.width = scenario.table.width;
    this.height = scenario.table.height;
    this.turns = scenario.turns;
    this.objectives = scenario.objectives;
    this.usage = new PlaceholderUsage(rules);
    this.gunnery = new Gunnery(rules, this.usage);
    this.roller = new Roller(rules.dice);
    this.policies = [makePolicy(scenario.sides[0].policy, `${scenario.file}: sides.a.policy`), makePolicy(scenario.sides[1].policy, `${scenario.file}: sides.b.policy`)];
    scenario.sides.forEach((side, f) => {
      side.fleet.forEach((u, i) => {
        let ui = this.units.indexOf(u);
        if (ui < 0) {
          ui = this.units.length;
          this.units.push(u);
          this.usage.unit(u, 'tv', 'speed', 'fire_control', 'sensors', 'skill');
          if (u.isCapital) this.usage.unit(u, 'thrusters', 'turns', 'base.width_in', 'base.length_in');
          noteTargetDamageFields(this.usage, u);
          // Plans are built lazily (in workers too): note every weapon field up front.
          for (const w of u.weapons) this.usage.unit(u, `weapons[${w.index}].ac`, `weapons[${w.index}].as`, `weapons[${w.index}].macro`);
          // A Barrier model's Defense may defend its friends (combat.md §7.2-7.3).
          if (u.traits.has('Barrier')) {
            this.usage.unit(u, 'traits.Barrier', 'defense');
            this.anyBarrier = true;
          }
        }
        this.models.push(new BattleModel(f as 0 | 1, i, u, ui, this.br.squadronBase));
      });
    });
    if (this.units.length > 64) throw new UserError(`${scenario.file}: at most 64 distinct unit types per battle; this one has ${this.units.length}`);
    this.estTables = Array.from({ length: this.units.length * this.units.length }, () => new Float64Array(32).fill(-1));
    this.estSig = new Float64Array(this.units.length * this.units.length).fill(-1);
  }

  // ------------------------------------------------------------------ PolicyView

  enemiesOf(side: 0 | 1): readonly BattleModel[] {
    if (this.enemyListsTurnStamp !== this.epoch) {
      this.enemyLists[0].length = 0;
      this.enemyLists[1].length = 0;
      // A side's own models first, then ships it captured (mirror-symmetric order, as for activations).
      for (const own of [false, true]) for (const m of this.models) if (m.captured === own && m.fights(this.br.inertHulks)) this.enemyLists[1 - m.side].push(m);
      this.enemyListsTurnStamp = this.epoch;
    }
    return this.enemyLists[side];
  }

  private reachStamp = -1;
  private readonly reachList: BattleModel[] = [];
  reachable(m: BattleModel): readonly BattleModel[] {
    if (this.reachStamp === this.epoch && this.reachOwner === m) return this.reachList;
    this.reachOwner = m;
    this.reachStamp = this.epoch;
    this.reachList.length = 0;
    const move = m.unit.isCapital ? capitalLimits(this.br, m, false).max : m.unit.speed;
    for (const e of this.enemiesOf(m.side)) {
      const range = this.maxRange(m, e.unit.isCapital);
      const far = move + range + m.reach + e.reach + 0.01;
      const dx = e.base.x - m.base.x, dy = e.base.y - m.base.y;
      if (dx * dx + dy * dy <= far * far) this.reachList.push(e);
    }
    return this.reachList;
  }
  private reachOwner: BattleModel | null = null;
  private nearStamp = -1;
  private nearOwner: BattleModel | null = null;
  private nearList: BattleModel[] = [];
  nearestEnemies(m: BattleModel): readonly BattleModel[] {
    if (this.nearStamp === this.epoch && this.nearOwner === m) return this.nearList;
    this.nearStamp = this.epoch;
    this.nearOwner = m;
    const d2 = (e: BattleModel) => (e.base.x - m.base.x) ** 2 + (e.base.y - m.base.y) ** 2;
    this.nearList = this.enemiesOf(m.side).slice().sort((a, b) => d2(a) - d2(b)).slice(0, 3);
    return this.nearList;
  }

  /** Boosting halves this model's Fire Control (GM-60: capital ships always; squadrons unless boost_halves_fc=CAPITAL_ONLY). */
  boostHalvesFc(m: BattleModel): boolean {
    return m.unit.isCapital || this.br.squadronBoostHalvesFc;
  }

  maxRange(m: BattleModel, vsCapital: boolean): number {
    return longRangeMax(this.rules.combat, vsCapital ? 'capital' : 'squadron', m.state.sensors);
  }

  /**
   * Expected Structure damage of the best `fc` attacks `att` could make on `tgt` in this
   * situation: every instance of every weapon line `arcOf` lets fire (through the arc it names).
   */
  private bestVolley(att: BattleModel, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arcOf: (w: WeaponLine) => FacingArc | null, fc: number): number {
    const values: number[] = [];
    for (const w of att.unit.weapons) {
      const arc = arcOf(w);
      if (!arc) continue;
      const e = this.gunnery.entry(att, w, tgt, band, asp, arc, NO_MODS);
      if (e) for (let k = 0; k < w.count; k++) values.push(e.expected);
    }
    values.sort((a, b) => b - a);
    let s = 0;
    for (let i = 0; i < values.length && i < fc; i++) s += values[i];
    return s;
  }

  /**
   * The attacker's arc towards the target (0 unless a capital ship) times 4, plus the target's
   * arc the attack comes in through (0 unless a capital ship): estimate's situation index.
   */
  private arcsOf(att: BattleModel, pose: Pose, tgt: BattleModel, dx: number, dy: number): number {
    let myArc = 0;
    if (att.unit.isCapital) {
      if (pose.heading !== this.trigHeading) {
        this.trigHeading = pose.heading;
        this.trigSin = sinDeg(pose.heading);
        this.trigCos = cosDeg(pose.heading);
      }
      myArc = Battle.arcOfDir(dx, dy, this.trigSin, this.trigCos);
    }
    let aspArc = 0;
    if (tgt.unit.isCapital) {
      const f = tgt.base.forward();
      aspArc = Battle.arcOfDir(-dx, -dy, f.sin, f.cos);
    }
    return myArc * 4 + aspArc;
  }

  /** Which of a ship's arcs (forward vector hx, hy) the direction (dx, dy) lies in; GM-46 wedges, lines to F/R. */
  private static arcOfDir(dx: number, dy: number, hx: number, hy: number): number {
    const f = dx * hx + dy * hy, st = dx * hy - dy * hx;
    const a = st < 0 ? -st : st;
    return f >= a ? 0 : -f >= a ? 3 : st > 0 ? 2 : 1; // F, R, S, P as ARCS indices
  }

  private trigHeading = NaN;
  private trigSin = 0;
  private trigCos = 1;

  estimate(att: BattleModel, pose: Pose, tgt: BattleModel): number {
    const dx = tgt.base.x - pose.x, dy = tgt.base.y - pose.y;
    const c = this.rules.combat;
    const vsCap = tgt.unit.isCapital;
    const short = vsCap ? c.shortRangeAC : c.shortRangeAS;
    const longMax = this.maxRange(att, vsCap) + GEOM_EPSILON;
    const reach = longMax + att.bulk + tgt.bulk;
    const d2 = dx * dx + dy * dy;
    if (d2 > reach * reach) return 0; // out of range: no square root needed
    const d = Math.sqrt(d2) - att.bulk - tgt.bulk;
    const band = d <= short + GEOM_EPSILON ? 'short' : 'long';
    const arcs = this.arcsOf(att, pose, tgt, dx, dy);
    const myArc = arcs >> 2, aspArc = arcs & 3;
    const t = tgt.state;
    const fc = att.state.fireControl();
    // A table per (attacker type, target type) of 32 situations, valid for one signature of the
    // states the values depend on (attacker Fire Control; target Defense, Evading, systems).
    const pair = att.unitIndex * this.units.length + tgt.unitIndex;
    if (!(fc < 16 && t.defense < 32 && t.disabledSystems < 2 ** 15)) return this.volleyAt(att, tgt, band, myArc, aspArc, fc); // beyond the signature's fields
    const sig = fc + 16 * (t.defense + 32 * ((tgt.evading ? 1 : 0) + 2 * t.disabledSystems));
    const table = this.estTable(pair, sig);
    const slot = (band === 'long' ? 16 : 0) + arcs;
    const cached = table[slot];
    if (cached >= 0) return cached;
    const v = this.volleyAt(att, tgt, band, myArc, aspArc, fc);
    table[slot] = v;
    return v;
  }

  /** The situation table of (attacker type, target type) `pair` for state signature `sig`. */
  private estTable(pair: number, sig: number): Float64Array {
    if (this.estSig[pair] === sig) return this.estTables[pair];
    this.estSig[pair] = sig;
    const key = pair * 2 ** 26 + sig;
    let saved = this.estSaved.get(key);
    if (!saved) {
      if (this.estSaved.size >= 100_000) this.estSaved.clear(); // bounded memory
      this.estSaved.set(key, (saved = new Float64Array(32).fill(-1)));
    }
    this.estTables[pair] = saved;
    return saved;
  }

  // firepower(): for the model scoring its moves, the per-enemy values `estimate` works out
  // that do not depend on the pose, kept while the epoch (no damage, no new activation) and the
  // model stay the same. Entry i belongs to reachable(m)[i].
  private fpStamp = -1;
  private fpOwner: BattleModel | null = null;
  /** The owner's Fire Control the signatures were made with. */
  private fpFc = -1;
  private fpReach = new Float64Array(64);
  private fpShort = new Float64Array(64);
  /** Each enemy's Structure (at least 1) and TV: the focus weighting. */
  private fpDiv = new Float64Array(64);
  private fpTv = new Float64Array(64);
  /** Each enemy's situation table (estTable), or null outside the signature's fields. */
  private fpTable: Array<Float64Array | null> = [];

  /**
   * PolicyView.firepower: max over reachable(m) of estimate(m, pose, e), with `focus` divided by
   * the target's Structure (at least 1) and times its TV / 10. The same arithmetic as estimate,
   * with what does not depend on the pose computed once per epoch.
   */
  firepower(m: BattleModel, pose: Pose, focus: number): number {
    const list = this.reachable(m);
    const n = list.length;
    const fc = m.state.fireControl();
    if (this.fpStamp !== this.epoch || this.fpOwner !== m || this.fpFc !== fc || n > this.fpReach.length) return this.firepowerSetup(m, pose, focus, list);
    let best = 0;
    for (let i = 0; i < n; i++) {
      const tgt = list[i];
      const dx = tgt.base.x - pose.x, dy = tgt.base.y - pose.y;
      const reach = this.fpReach[i];
      const d2 = dx * dx + dy * dy;
      let x = 0;
      if (!(d2 > reach * reach)) {
        const table = this.fpTable[i];
        if (!table) x = this.estimate(m, pose, tgt); // outside the table's signature fields
        else {
          const d = Math.sqrt(d2) - m.bulk - tgt.bulk;
          const long = d > this.fpShort[i];
          const arcs = this.arcsOf(m, pose, tgt, dx, dy);
          const slot = (long ? 16 : 0) + arcs;
          x = table[slot];
          if (x < 0) x = table[slot] = this.volleyAt(m, tgt, long ? 'long' : 'short', arcs >> 2, arcs & 3, fc);
        }
      }
      const v = focus ? x / this.fpDiv[i] * this.fpTv[i] / 10 : x;
      if (v > best) best = v;
    }
    return best;
  }

  private firepowerSetup(m: BattleModel, pose: Pose, focus: number, list: readonly BattleModel[]): number {
    let best = 0;
    const n = list.length;
    if (n > this.fpReach.length) {
      const size = 2 * n;
      this.fpReach = new Float64Array(size);
      this.fpShort = new Float64Array(size);
      this.fpDiv = new Float64Array(size);
      this.fpTv = new Float64Array(size);
    }
    const c = this.rules.combat;
    const fc = m.state.fireControl();
    for (let i = 0; i < n; i++) {
      const tgt = list[i];
      const vsCap = tgt.unit.isCapital;
      const longMax = this.maxRange(m, vsCap) + GEOM_EPSILON;
      this.fpReach[i] = longMax + m.bulk + tgt.bulk;
      this.fpShort[i] = (vsCap ? c.shortRangeAC : c.shortRangeAS) + GEOM_EPSILON;
      const t = tgt.state;
      this.fpDiv[i] = Math.max(1, t.structure);
      this.fpTv[i] = tgt.unit.tv;
      const pair = m.unitIndex * this.units.length + tgt.unitIndex;
      this.fpTable[i] = fc < 16 && t.defense < 32 && t.disabledSystems < 2 ** 15 ? this.estTable(pair, fc + 16 * (t.defense + 32 * ((tgt.evading ? 1 : 0) + 2 * t.disabledSystems))) : null;
      const x = this.estimate(m, pose, tgt);
      const v = focus ? x / this.fpDiv[i] * this.fpTv[i] / 10 : x;
      if (v > best) best = v;
    }
    this.fpStamp = this.epoch;
    this.fpOwner = m;
    this.fpFc = fc;
    return best;
  }

  private volleyAt(att: BattleModel, tgt: BattleModel, band: 'short' | 'long', myArc: number, aspArc: number, fc: number): number {
    const arc = ARCS[myArc];
    return this.bestVolley(att, tgt, band, ASPECT_OF[ARCS[aspArc]], (w) => (!att.unit.isCapital || w.arcs.includes('T') || w.arcs.includes(arc) ? arc : null), fc);
  }

  /** Best-case volley of `att` on `tgt` (all weapons bear), cached by unit types, band and target Defense. */
  private volleyValue(att: BattleModel, tgt: BattleModel, band: 'short' | 'long'): number {
    // Keyed by everything Gunnery.entry reads that changes: Defense, Evading, knocked-out systems, Fire Control.
    let key = ((att.unitIndex * 64 + tgt.unitIndex) * 2 + (band === 'long' ? 1 : 0)) * 32 + Math.min(31, tgt.state.defense);
    key = ((key * 16 + Math.min(15, att.state.fireControl())) * 2 + (tgt.evading ? 1 : 0)) * 4096 + (tgt.state.disabledSystems & 4095);
    let v = this.volleyCache.get(key);
    if (v === undefined) {
      v = this.bestVolley(att, tgt, band, 'front', (w) => (w.arcs.find((a) => a !== 'T') ?? 'F') as FacingArc, att.state.fireControl());
      this.volleyCache.set(key, v);
    }
    return v;
  }

  threat(m: BattleModel, pose: Pose): number {
    let t = 0;
    for (const e of this.enemiesOf(m.side)) {
      if (e.activated) continue;
      const d = Math.max(0, Math.hypot(e.base.x - pose.x, e.base.y - pose.y) - e.bulk - m.bulk - e.unit.speed);
      const band = rangeBand(this.rules.combat, d, m.unit.isCapital ? 'capital' : 'squadron', e.state.sensors);
      if (band !== 'out') t += this.volleyValue(e, m, band);
    }
    return t;
  }

  // ------------------------------------------------------------------ the game

  /** Plays one game. `mirrored` swaps the fleets' table positions (and Initiative slot). */
  play(dice: RandomStream, pol: RandomStream, mirrored: boolean, trace: Trace | null = null): GameResult {
    this.dice = dice;
    this.pol = pol;
    this.trace = trace;
    this.ended = null;
    this.activations = 0;
    this.epoch++;
    this.enemyListsTurnStamp = -1;
    this.reachStamp = -1;
    this.nearStamp = -1;
    this.beacons = [];
    this.beaconSpotCache.clear();
    this.sideOfFleet = mirrored ? [1, 0] : [0, 1];
    for (const m of this.models) {
      m.reset();
      m.side = this.sideOfFleet[m.fleet];
    }
    const s = this.scenario;
    const initSide: 0 | 1 = s.initiative === 'a' ? 0 : s.initiative === 'b' ? 1 : dice.next() < 0.5 ? 0 : 1;
    this.initSide = initSide;
    const initFleet = (this.sideOfFleet[0] === initSide ? 0 : 1) as 0 | 1;
    if (trace) trace.initiative = `${initFleet === 0 ? 'A' : 'B'} (${s.sides[initFleet].name})`;
    if (s.zone === 'beacon') this.placeBeacons(initSide);
    const op: [number, number] = [0, 0];
    let turn = 1;
    for (; turn <= s.turns; turn++) {
      this.turn = turn;
      this.deploymentPhase(turn, initSide);
      this.activationPhase(initSide);
      if (this.ended) break;
      this.endPhase(turn, op);
      if (this.ended) break;
    }
    const turnsPlayed = Math.min(turn, s.turns);
    const vp = this.victoryPoints();
    const sideOp: [number, number] = [op[this.sideOfFleet[0]], op[this.sideOfFleet[1]]];
    const fleetVp: [number, number] = [vp[this.sideOfFleet[0]], vp[this.sideOfFleet[1]]];
    let winner: 0 | 1 | 2;
    if (this.br.scoring === 'enemy_losses') {
      // v1.2.1 §12.1: objectives give Victory Points "as the scenario sets", and the side with
      // more VP wins (GM-33): the winner is decided on VP + OP (both still reported apart).
      const a = fleetVp[0] + sideOp[0], b = fleetVp[1] + sideOp[1];
      winner = a !== b ? (a > b ? 0 : 1) : 2;
    } else {
      // v1.2.2 (seed 000): OP first, ties by VP.
      winner = sideOp[0] !== sideOp[1] ? (sideOp[0] > sideOp[1] ? 0 : 1) : fleetVp[0] !== fleetVp[1] ? (fleetVp[0] > fleetVp[1] ? 0 : 1) : 2;
    }
    const surviving: [number, number] = [0, 0];
    for (const m of this.models) if (this.fate(m) === 'intact' || this.fate(m) === 'reserve') surviving[m.fleet] += m.unit.tv;
    return { op: sideOp, vp: fleetVp, survivingTv: surviving, winner, turns: turnsPlayed, activations: this.activations, initiative: initFleet, endReason: this.ended ?? `${s.turns} turns played`, endedEarly: this.ended !== null };
  }

  fate(m: BattleModel): Fate {
    if (m.captured && m.where !== 'destroyed' && !m.state.destroyed) return 'captured';
    if (m.where === 'withdrawn') return 'withdrawn';
    if (m.where === 'destroyed' || m.state.destroyed) return 'destroyed';
    if (m.state.crippled) return 'crippled';
    return m.where === 'reserve' ? 'reserve' : 'intact'; // Embarked counts x1 while its carrier survives (GM-31, VP-02)
  }

  // ------------------------------------------------------------------ deployment

  private placeBeacons(initSide: 0 | 1): void {
    // Seed 000: four beacons each, alternating from the Initiative player, each at least 12" from every other.
    for (let k = 0; k < 8; k++) {
      const side = (k % 2 === 0 ? initSide : 1 - initSide) as 0 | 1;
      const home = { x: this.width / 2, y: this.zoneOf(side) === 0 ? 0 : this.height };
      const cands: Array<{ x: number; y: number }> = [];
      for (let tries = 0; tries < 200 && cands.length < 16; tries++) {
        const x = this.pol.next() * this.width, y = this.pol.next() * this.height;
        if (this.beacons.every((b) => hypotAtLeast(b.x - x, b.y - y, 12 - GEOM_EPSILON))) cands.push({ x, y });
      }
      if (!cands.length) continue; // the table is full: fewer beacons (noted in the trace)
      const owner = this.policyOfSide(side);
      const c = cands[owner.pickBeacon(this, side, home, cands, this.pol)];
      this.beacons.push({ side, x: c.x, y: c.y });
      this.trace?.beacons.push({ side: this.fleetLabel(side), x: r3(c.x), y: r3(c.y) });
    }
  }

  private readonly zoneRect = new MovingBase('rect', 0, 0, 0, 1, 1);
  /** GM-82: the whole base inside the zone rectangle, or (ANY_PART) some of it. */
  private inZoneRect(b: Base, x0: number, y0: number, x1: number, y1: number): boolean {
    if (!this.br.zoneAnyPart) return baseInRect(b, x0, y0, x1, y1);
    const z = this.zoneRect;
    z.length = y1 - y0;
    z.width = x1 - x0;
    z.set((x0 + x1) / 2, (y0 + y1) / 2, 0);
    return separationBelow(b, z, 0);
  }

  /** "A" or "B" for the fleet at a table position this game. */
  private fleetLabel(side: 0 | 1): string {
    return this.sideOfFleet[0] === side ? 'A' : 'B';
  }

  /** Which zone a side deploys in and withdraws to: 0 for the Initiative side. */
  private zoneOf(side: 0 | 1): 0 | 1 {
    return side === this.initSide ? 0 : 1;
  }

  private policyOfSide(side: 0 | 1): Policy {
    return this.policies[this.sideOfFleet[0] === side ? 0 : 1];
  }

  /**
   * Strip and quadrant candidates depend only on the unit type and the zone, so they are made
   * once per Battle, with whether each lies in the zone (zoneOk: -1 not yet known, 0 no, 1 yes).
   */
  private readonly deployCache = new Map<number, DeploySpot[]>();

  /** Spots in the side's zone for this model, with how far forward each is. */
  private deployCandidates(m: BattleModel, side: 0 | 1, coverBeacons: boolean): DeploySpot[] {
    const z = this.zoneOf(side);
    if (this.scenario.zone === 'beacon') return this.makeDeployCandidates(m, z, coverBeacons, side);
    const key = m.unitIndex * 2 + z;
    let list = this.deployCache.get(key);
    if (!list) this.deployCache.set(key, (list = this.makeDeployCandidates(m, z, coverBeacons, side)));
    return list;
  }

  /** Whether a candidate spot lies in its zone (remembered on cached spots). */
  private static spotInZone(c: DeploySpot): boolean {
    if (c.zoneOk < 0) c.zoneOk = c.inZone(c.pose) ? 1 : 0;
    return c.zoneOk === 1;
  }

  private makeDeployCandidates(m: BattleModel, z: 0 | 1, coverBeacons: boolean, side: 0 | 1): DeploySpot[] {
    const W = this.width, H = this.height, out: DeploySpot[] = [];
    const tryPose = (x: number, y: number, heading: number, front: number, inZone: (p: Pose) => boolean) => {
      const p = { x, y, heading };
      out.push({ pose: p, front, inZone, zoneOk: -1 });
    };
    const zone = this.scenario.zone;
    if (zone === 'standard') {
      const depth = this.scenario.stripDepth;
      const heading = z === 0 ? 0 : 180;
      const y0 = z === 0 ? 0 : H - depth;
      const inZone = (p: Pose) => this.inZoneRect(baseAt(m, p), 0, y0, W, y0 + depth);
      for (let row = 0; row <= 4; row++) {
        const f = row / 4;
        const y = z === 0 ? m.reach + f * (depth - 2 * m.reach) : H - m.reach - f * (depth - 2 * m.reach);
        for (let x = W / 2, k = 0; k < 2 * Math.ceil(W / 3); k++) {
          const xx = W / 2 + (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 3;
          if (xx < 0 || xx > W) continue;
          tryPose(xx, y, heading, f, inZone);
          void x;
        }
      }
    } else if (zone === 'corner') {
      const qx = z === 0 ? 0 : W / 2, qy = z === 0 ? 0 : H / 2;
      const heading = z === 0 ? 45 : 225;
      const inZone = (p: Pose) => this.inZoneRect(baseAt(m, p), qx, qy, qx + W / 2, qy + H / 2);
      for (let i = 0; i <= 8; i++) {
        for (let j = 0; j <= 8; j++) {
          const x = qx + m.reach + (i / 8) * (W / 2 - 2 * m.reach), y = qy + m.reach + (j / 8) * (H / 2 - 2 * m.reach);
          const dFront = z === 0 ? (x - qx + y - qy) / (W / 2 + H / 2) : (qx + W / 2 - x + qy + H / 2 - y) / (W / 2 + H / 2);
          tryPose(x, y, heading, dFront, inZone);
        }
      }
    } else {
      const own = this.beacons.filter((b) => b.side === side);
      const targets = coverBeacons ? own.filter((b) => !this.models.some((o) => o.side === side && o.where === 'table' && pointDistance(b.x, b.y, o.base) <= 3 + GEOM_EPSILON)) : own;
      for (const b of targets.length ? targets : own) for (const spot of this.beaconSpots(m, b)) out.push(spot);
    }
    return out;
  }

  /**
   * The spots around one beacon for this unit type (0" to 3" out, every 45°), made once per
   * game: the beacons are placed anew each game, the spots and their zone checks then stay.
   */
  private readonly beaconSpotCache = new Map<number, DeploySpot[]>();
  private beaconSpots(m: BattleModel, b: (typeof this.beacons)[number]): DeploySpot[] {
    const key = m.unitIndex * 64 + this.beacons.indexOf(b);
    let spots = this.beaconSpotCache.get(key);
    if (spots) return spots;
    spots = [];
    const W = this.width, H = this.height;
    const diag = Math.hypot(W, H) / 2;
    const heading = bearing(b.x, b.y, W / 2, H / 2);
    const inZone = (p: Pose) => pointDistance(b.x, b.y, baseAt(m, p)) <= 3 + GEOM_EPSILON;
    for (let r = 0; r <= 3; r += 1) {
      for (let a = 0; a < 360; a += r === 0 ? 360 : 45) {
        const x = b.x + r * sinDeg(a), y = b.y + r * cosDeg(a);
        spots.push({ pose: { x, y, heading }, front: 1 - Math.hypot(x - W / 2, y - H / 2) / diag, inZone, zoneOk: -1 });
      }
    }
    this.beaconSpotCache.set(key, spots);
    return spots;
  }

  /**
   * A carrier this squadron may deploy Embarked on (seed 000, GM-86): Fleet Deployment from the
   * first phase on any friendly capital ship with room whose base lies in the zone (in later
   * phases, option reserve_embark_rule: or anywhere, or never); Escalating Deployment never in
   * the first phase, later only on ships deployed in that same phase.
   */
  private embarkCarrier(m: BattleModel, turn: number): BattleModel | null {
    if (m.unit.isCapital) return null;
    const want = this.policyOfSide(m.side).holdBack().embark ?? 0;
    if (want < 1) return null;
    let already = 0;
    for (const x of this.models) if (x.side === m.side && x.where === 'embarked') already++;
    if (already >= want) return null;
    if (this.scenario.deployment === 'escalating' && turn === 1) return null;
    const fleetLater = turn > 1 && this.scenario.deployment === 'fleet';
    if (fleetLater && this.br.reserveEmbark === 'table_only') return null;
    const anyCarrier = fleetLater && this.br.reserveEmbark === 'any_carrier';
    for (const c of this.models) {
      if (c.side !== m.side || !c.unit.isCapital || c.where !== 'table' || !c.fights(this.br.inertHulks) || c.unit.hangers < 1 || this.aboard(c) >= c.unit.hangers) continue;
      if (this.scenario.deployment === 'escalating' && c.deployedTurn !== turn) continue;
      if (turn > 1 && !anyCarrier && !this.inOwnZone(c)) continue; // GM-86 carrier_in_zone
      return c;
    }
    return null;
  }

  /** A beacon of this side with none of its models within 3" yet (GM-83), if any. */
  private uncoveredBeacon(side: 0 | 1): boolean {
    return this.beacons.some((b) => b.side === side && !this.models.some((o) => o.side === side && o.where === 'table' && pointDistance(b.x, b.y, o.base) <= 3 + GEOM_EPSILON));
  }

  /** The model's base lies in its side's deployment zone (GM-82; Beacon zones: within 3" of an own beacon, GM-36). */
  private inOwnZone(c: BattleModel): boolean {
    const W = this.width, H = this.height, z = this.zoneOf(c.side);
    if (this.scenario.zone === 'beacon') return this.beacons.some((b) => b.side === c.side && pointDistance(b.x, b.y, c.base) <= 3 + GEOM_EPSILON);
    if (this.scenario.zone === 'corner') return z === 0 ? this.inZoneRect(c.base, 0, 0, W / 2, H / 2) : this.inZoneRect(c.base, W / 2, H / 2, W, H);
    const d = this.scenario.stripDepth;
    return z === 0 ? this.inZoneRect(c.base, 0, 0, W, d) : this.inZoneRect(c.base, 0, H - d, W, H);
  }

  private deployOne(m: BattleModel, turn: number, coverBeacons: boolean): boolean {
    const carrier = coverBeacons && this.uncoveredBeacon(m.side) ? null : this.embarkCarrier(m, turn);
    if (carrier) {
      m.where = 'embarked';
      m.carrier = carrier;
      m.deployedTurn = turn;
      this.epoch++;
      this.trace?.deployments.push({ turn, model: `${m.label} (Embarked on ${carrier.label})`, x: carrier.base.x, y: carrier.base.y, heading: 0 });
      return true;
    }
    const cands = this.deployCandidates(m, m.side, coverBeacons);
    if (!cands.length) {
      this.trace?.deployments.push({ turn, model: `${m.label}: no legal spot in its zone, stays In Reserve`, x: NaN, y: NaN, heading: NaN });
      return false;
    }
    const legal = (i: number) => Battle.spotInZone(cands[i]) && legalEnd(this.br, m, cands[i].pose, this.models, this.width, this.height);
    const pick = this.policyOfSide(m.side).pickDeployment(this, m, cands, legal, this.pol);
    if (pick < 0) {
      this.trace?.deployments.push({ turn, model: `${m.label}: no legal spot in its zone, stays In Reserve`, x: NaN, y: NaN, heading: NaN });
      return false;
    }
    const c = cands[pick];
    m.base.set(c.pose.x, c.pose.y, c.pose.heading);
    m.where = 'table';
    m.deployedTurn = turn;
    this.epoch++;
    this.trace?.deployments.push({ turn, model: m.label, ...poseOf(m.base) });
    return true;
  }

  private reserves(side: 0 | 1, capital: boolean): BattleModel[] {
    return this.models.filter((m) => m.side === side && m.where === 'reserve' && m.unit.isCapital === capital && !m.state.destroyed);
  }

  /**
   * Deploys one model at a time, each side up to its limit (and past it while `coverBeacons` and
   * one of its beacons is still uncovered, GM-83); a side out of models passes. The sides
   * alternate, starting with the Initiative side, or (`blocks`, v1.2.1 §12.1) the Initiative
   * side deploys all it will before the other starts.
   */
  private deployInTurn(initSide: 0 | 1, capital: boolean, limit: readonly [number, number], turn: number, coverBeacons = false, blocks = false): void {
    const done: [number, number] = [0, 0];
    const failed = new Set<BattleModel>();
    const step = (side: 0 | 1): boolean => {
      if (done[side] >= limit[side] && !(coverBeacons && this.uncoveredBeacon(side))) return false;
      const m = this.reserves(side, capital).find((x) => !failed.has(x));
      if (!m) return false;
      if (this.deployOne(m, turn, this.scenario.zone === 'beacon' && turn === 1)) done[side]++;
      else failed.add(m); // no legal spot: it stays In Reserve
      return true;
    };
    const sides = [initSide, (1 - initSide) as 0 | 1] as const;
    if (blocks) {
      for (const side of sides) while (step(side));
      return;
    }
    for (let any = true; any; ) {
      any = false;
      for (const side of sides) if (step(side)) any = true;
    }
  }

  /** Squadrons a side may deploy in this phase: its reserves less those its policy holds back (In Reserve). */
  private squadronAllowance(side: 0 | 1, turn: number): number {
    const hold = this.policyOfSide(side).holdBack();
    const held = turn < hold.untilTurn ? hold.squadrons : 0;
    return Math.max(0, this.reserves(side, false).length - held);
  }

  private deploymentPhase(turn: number, initSide: 0 | 1): void {
    const all: [number, number] = [Infinity, Infinity];
    const squads: [number, number] = [this.squadronAllowance(0, turn), this.squadronAllowance(1, turn)];
    if (this.scenario.deployment === 'fleet') {
      // Fleet Deployment: every capital ship in the first phase; squadrons held In Reserve come later (GM-86).
      const beacon = this.scenario.zone === 'beacon';
      if (turn === 1) {
        // Capital ships in blocks (v1.2.1 §12.1: the attacker's, then the defender's) or one at a
        // time, alternating (GM-85; option fleet_deploy_capitals). Squadrons likewise (v1.2.1
        // §12.1 steps 3-4). GM-83: no side stops while one of its beacons is uncovered and a
        // model could cover it, whatever squadrons its policy meant to hold back.
        this.deployInTurn(initSide, true, all, turn, false, this.br.fleetDeployBlocks);
        this.deployInTurn(initSide, false, squads, turn, beacon, this.br.squadronDeployBlocks);
        return;
      }
      this.deployInTurn(initSide, false, squads, turn);
      return;
    }
    // Escalating (seed 000, GM-87): first phase one capital ship and two squadrons each (counts
    // mandatory for the models a side has: nothing is held back from them), then the rest.
    if (turn === 1) {
      this.deployInTurn(initSide, true, [1, 1], turn);
      this.deployInTurn(initSide, false, [Math.min(2, this.reserves(0, false).length), Math.min(2, this.reserves(1, false).length)], turn);
    } else {
      this.deployInTurn(initSide, true, all, turn);
      this.deployInTurn(initSide, false, squads, turn);
    }
  }

  // ------------------------------------------------------------------ activations

  private activationPhase(initSide: 0 | 1): void {
    for (const m of this.models) m.activated = false;
    let side = initSide;
    const cands: BattleModel[] = [];
    for (;;) {
      if (this.ended) return;
      const pick = (s: 0 | 1) => {
        cands.length = 0;
        // The side's own models first, then ships it captured: the same order whichever fleet
        // holds which table position, so mirrored games stay mirror images.
        // Embarked models are eligible to launch in their own activation (GM-18), unless they
        // launch with their carrier (embarked_activation=CARRIER_ACTIVATION) and the carrier can
        // still activate (an inert hulk never does: then they launch on their own).
        const launchOwn = !this.br.launchWithCarrier;
        const mayLaunch = (m: BattleModel) => m.where === 'embarked' && (launchOwn || !m.carrier!.fights(this.br.inertHulks));
        for (const own of [false, true]) for (const m of this.models) if (m.captured === own && m.side === s && !m.activated && (m.fights(this.br.inertHulks) || mayLaunch(m))) cands.push(m);
        return cands.length;
      };
      if (!pick(side)) {
        side = (1 - side) as 0 | 1;
        if (!pick(side)) return; // GM-03: the other side activates the rest one after another
      }
      const m = cands[this.policyOfSide(side).pickActivation(this, cands, this.pol)];
      this.activate(m);
      side = (1 - side) as 0 | 1;
    }
  }

  private skillTest(dice: number): boolean {
    const n = Math.max(0, Math.min(dice, 10));
    if (n === 0) return false;
    let pool = this.testPools.get(n);
    if (!pool) {
      pool = resolvePool(this.rules.dice, { base: n });
      this.testPools.set(n, pool);
    }
    return BEST_MAG[this.roller.unopposed(pool, this.dice)] >= MAG_D;
  }

  /**
   * The move menu of a model this activation, in tiers: normal moves whose path stays on the
   * table; if none of those may legally end where it does, moves clamped at the table edge
   * (GM-15); if none of those either, forced minimum moves (GM-66, `forcedMoves`) whose
   * overlap is resolved afterwards. End positions are checked only when a policy asks
   * (`legal`), best first.
   */
  private moveTiers(m: BattleModel, allowStationKeep: boolean, allowBoost = true): MoveOption[][] {
    const W = this.width, H = this.height, out: MoveOption[] = [];
    if (!m.unit.isCapital) {
      const goals: Array<{ x: number; y: number; keep: number }> = [];
      // The three nearest enemies (each distance worked out once; a stable sort keeps ties in list order).
      const byDistance = this.enemiesOf(m.side).map((e) => ({ e, d: Math.hypot(e.base.x - m.base.x, e.base.y - m.base.y) }));
      byDistance.sort((a, b) => a.d - b.d);
      for (const { e } of byDistance.slice(0, 3)) {
        const kind = e.unit.isCapital ? 'capital' : 'squadron';
        const short = e.unit.isCapital ? this.rules.combat.shortRangeAC : this.rules.combat.shortRangeAS;
        goals.push({ x: e.base.x, y: e.base.y, keep: short - 0.5 + e.bulk + m.bulk });
        goals.push({ x: e.base.x, y: e.base.y, keep: longRangeMax(this.rules.combat, kind, m.state.sensors) - 0.5 + e.bulk + m.bulk });
      }
      for (const o of this.objectives) goals.push({ x: o.x, y: o.y, keep: 0 });
      for (const p of squadronDestinations(m, m.unit.speed, goals, W, H)) {
        const d = Math.hypot(p.x - m.base.x, p.y - m.base.y);
        if (d <= m.unit.speed + 1e-9) out.push({ pose: p, action: 'none', travelled: d });
      }
      // Boost (§6.4, GM-61): x2 Speed for 1 Fuel or x3 for 2, not when crippled; offered to close
      // in when no enemy is within reach at normal Speed.
      if (allowBoost && !m.state.crippled && m.fuel >= 1 && this.reachable(m).length === 0) {
        for (const fuel of m.fuel >= 2 ? [1, 2] : [1]) {
          const speed = m.unit.speed * (fuel + 1);
          for (const p of squadronDestinations(m, speed, goals.filter((_, i) => i % 2 === 1 || i >= 6), W, H)) {
            const d = Math.hypot(p.x - m.base.x, p.y - m.base.y);
            if (d > m.unit.speed + 1e-9 && d <= speed + 1e-9) out.push({ pose: p, action: 'boost', travelled: d, fuel });
          }
        }
      }
      // The fallback (the nearest legal spot within Speed) is searched only when needed: chooseMove.
      return [out];
    }
    const from = { x: m.base.x, y: m.base.y, heading: m.base.heading };
    const lim = capitalLimits(this.br, m, false);
    const end: Pose = { x: 0, y: 0, heading: 0 };
    const clamped: MoveOption[] = [];
    const add = (limMoves: ReturnType<typeof capitalMoves>, action: ActionName) => this.followMoves(m, limMoves, action, out, clamped);
    add(capitalMoves(lim), 'none');
    if (this.br.capitalMove === 'thrusters_band' && lim.turns === 0 && m.state.thrusters === 0 && m.unit.turns >= 1) {
      // GM-12: at Thrusters 0 one turn is possible after a passed Skill Test; each such move
      // carries the pose the ship reaches going straight when the test fails.
      const straight: Pose = { x: 0, y: 0, heading: 0 };
      for (const mv of capitalMoves({ ...lim, turns: 1 })) {
        if (mv.turn1 === 0 && mv.turn2 === 0) continue;
        const r = followCapitalMove(m, from, mv, W, H, end, this.br.pivotOnCentre);
        if (r.clamped) continue;
        const travelled = r.travelled; // read before the next call reuses the result object
        followCapitalMove(m, from, { pre: mv.pre + mv.mid + mv.post, turn1: 0, mid: 0, turn2: 0, post: 0 }, W, H, straight, this.br.pivotOnCentre);
        out.push({ pose: { ...end }, action: 'none', travelled, failPose: { ...straight } });
      }
    }
    if (allowBoost && this.br.capitalBoostMode !== 'none' && m.state.thrusters >= 1 && this.reachable(m).length === 0) {
      if (this.br.capitalBoostMode === 'v121') {
        // v1.2.1 Boost: Speed doubled for the activation; the minimum is half the doubled Speed
        // (GM-56), or half the printed Speed under boost_min_move=HALF_PRINTED.
        const min = this.br.boostMinHalfPrinted ? m.unit.speed / 2 : m.unit.speed;
        add(capitalMoves({ min, max: 2 * m.unit.speed, turns: lim.turns, sluggish: lim.sluggish }), 'boost');
      } else {
        // GM-09 cap_boost_mode=DOUBLE_SPEED_HALF_FC: the version's own limits with Speed doubled
        // (v1.2.2: 2 Speed - Thrusters to 2 Speed + Thrusters).
        add(capitalMoves(capitalLimits(this.br, m, false, 2 * m.unit.speed)), 'boost');
      }
    }
    if (allowStationKeep && lim.min > 0) {
      const sk = capitalLimits(this.br, m, true);
      // Below the usual minimum, down to holding position (the minimum itself is a normal move).
      add(capitalMoves({ min: 0, max: lim.min / 2, turns: sk.turns, sluggish: sk.sluggish }), 'station_keep');
    }
    return [out, clamped];
  }

  /** A capital ship's forced minimum moves (GM-66), the menu's last tier: made only when no earlier tier has a legal move. */
  private forcedMoves(m: BattleModel): MoveOption[] {
    const lim = capitalLimits(this.br, m, false);
    const forced: MoveOption[] = [];
    this.followMoves(m, capitalMoves({ min: lim.min, max: lim.min, turns: lim.turns, sluggish: lim.sluggish }), 'none', forced, null);
    return forced;
  }

  /**
   * Follows each of a capital ship's moves from where it stands and adds the end pose to `out`,
   * or to `clamped` (when given) for a move stopped at the table edge (GM-15).
   */
  private followMoves(m: BattleModel, moves: ReturnType<typeof capitalMoves>, action: ActionName, out: MoveOption[], clamped: MoveOption[] | null): void {
    const from = this.followFrom;
    from.x = m.base.x;
    from.y = m.base.y;
    from.heading = m.base.heading;
    const end = this.followEnd;
    for (const mv of moves) {
      const r = followCapitalMove(m, from, mv, this.width, this.height, end, this.br.pivotOnCentre);
      (r.clamped && clamped ? clamped : out).push({ pose: { x: end.x, y: end.y, heading: end.heading }, action, travelled: r.travelled });
    }
  }
  private readonly followFrom: Pose = { x: 0, y: 0, heading: 0 };
  private readonly followEnd: Pose = { x: 0, y: 0, heading: 0 };

  /** The policy's move from the first tier that has a legal one; `forced` for the GM-66 tier. */
  private chooseMove(m: BattleModel, policy: Policy, actionMoves = true): { opt: MoveOption; fireBefore: boolean; forced: boolean; leaves: boolean } {
    const tiers = this.moveTiers(m, actionMoves && m.unit.isCapital, actionMoves);
    const W = this.width, H = this.height;
    for (let t = 0; t < tiers.length + (m.unit.isCapital ? 1 : 0); t++) {
      // A capital ship's last tier is the forced minimum move (GM-66): taken as it is, overlap resolved after.
      const forced = t === tiers.length;
      const options = forced ? this.forcedMoves(m) : tiers[t];
      if (!options.length) continue;
      const legal = forced ? () => true : (i: number) => legalEnd(this.br, m, options[i].pose, this.models, W, H);
      const c = policy.pickMove(this, m, options, legal, this.pol);
      if (c.index >= 0) return { opt: options[c.index], fireBefore: c.fireBefore, forced, leaves: t === 1 && m.unit.isCapital && this.br.offTable !== 'clamp' };
    }
    if (!m.unit.isCapital) {
      // No offered destination is legal: the nearest legal spot within Speed, else stay put.
      const p = nearestLegal(this.br, m, { x: m.base.x, y: m.base.y, heading: 0 }, this.models, W, H, m.unit.speed);
      if (p) return { opt: { pose: p, action: 'none', travelled: Math.hypot(p.x - m.base.x, p.y - m.base.y) }, fireBefore: false, forced: false, leaves: false };
    }
    return { opt: { pose: { x: m.base.x, y: m.base.y, heading: m.base.heading }, action: 'none', travelled: 0 }, fireBefore: false, forced: false, leaves: false };
  }

  /** Hooks through which the squadron and boarding procedures attack, roll and write the trace. */
  private procedureHooks(rec: TraceActivation | null): ProcedureHooks {
    return {
      rules: this.rules,
      roller: this.roller,
      rng: this.dice,
      tally: this.tally,
      attackWindow: (att, tgt, opts) => {
        const a = att as BattleModel, t = tgt as BattleModel;
        // GM-63: attacks on a ship that declared Station Keep get its Flex in every Attack Window.
        const mods: ShotMods = { flex: (opts.flex ?? 0) + (t.stationKeeping ? this.br.stationKeepFlex : 0), rerolls: 0, noMissileDefence: opts.noMissileDefence, ignoreArmor: opts.ignoreArmor, assault: opts.assault, window: opts.kind, noBombs: opts.noBombs, barrier: this.anyBarrier ? (m) => this.barrierCover(a, t, m) : undefined };
        const n = rec ? rec.attacks.length : 0;
        const left = this.gunnery.window(() =>
          this.gunnery.fire(a, [t], opts.fc, () => mods, this.dice, this.tally, rec ? rec.attacks : null, (hit) => {
            this.afterDamage(hit);
            return this.ended !== null;
          }),
        );
        if (rec && rec.attacks.length > n) rec.fired = rec.fired === 'none' ? 'after-move' : rec.fired;
        this.afterDamage(t);
        return opts.fc - left;
      },
      note: (line) => {
        rec?.notes.push(line);
      },
    };
  }

  /**
   * A Return to Base move (GM-17, GM-77): up to Speed towards the nearest friendly carrier with
   * room, Landing on it when it can reach base contact (not in an activation it Launched in),
   * or else towards its own table edge.
   */
  private returnToBase(m: BattleModel, rec: TraceActivation | null): void {
    const carrier = this.carrierFor(m);
    const landing = carrier && !m.launched ? this.contactPose(m, carrier, m.unit.speed) : null;
    if (carrier && landing) {
      m.base.set(landing.x, landing.y, 0);
      this.land(m, carrier, rec);
      return;
    }
    const p = this.rtbMove(m, carrier);
    m.base.set(p.x, p.y, 0);
  }

  /** The RTB move's end: straight towards `carrier` (when given) or the nearest own table edge, up to Speed, to a legal spot. */
  private rtbMove(m: BattleModel, carrier: BattleModel | null = null): Pose {
    const W = this.width, H = this.height;
    if (carrier) {
      const dx = carrier.base.x - m.base.x, dy = carrier.base.y - m.base.y, d = Math.hypot(dx, dy);
      const step = Math.min(m.unit.speed, Math.max(0, d - carrier.reach - m.reach - 0.05));
      const want = { x: m.base.x + (d > 0 ? (dx / d) * step : 0), y: m.base.y + (d > 0 ? (dy / d) * step : 0), heading: 0 };
      return nearestLegal(this.br, m, want, this.models, W, H, m.unit.speed) ?? { x: m.base.x, y: m.base.y, heading: 0 };
    }
    const edges = this.ownEdgePoints(m);
    let [tx, ty] = edges[0];
    for (const [x, y] of edges) if (Math.hypot(x - m.base.x, y - m.base.y) < Math.hypot(tx - m.base.x, ty - m.base.y)) [tx, ty] = [x, y];
    const d = Math.hypot(tx - m.base.x, ty - m.base.y);
    const step = Math.min(m.unit.speed, Math.max(0, d - m.reach));
    const want = { x: d > 0 ? m.base.x + ((tx - m.base.x) / d) * step : m.base.x, y: d > 0 ? m.base.y + ((ty - m.base.y) / d) * step : m.base.y, heading: 0 };
    return nearestLegal(this.br, m, want, this.models, W, H, m.unit.speed) ?? { x: m.base.x, y: m.base.y, heading: 0 };
  }

  /**
   * The nearest point of each of the side's own table edges (GM-16: Standard, its strip's edge;
   * Corner, both edges of its quadrant; Beacon, every edge). Withdraw and Return to Base head there.
   */
  private ownEdgePoints(m: BattleModel): Array<[number, number]> {
    const W = this.width, H = this.height, zone = this.scenario.zone, z = this.zoneOf(m.side);
    const edges: Array<[number, number]> = [];
    if (zone === 'beacon' || z === 0) edges.push([m.base.x, 0]);
    if (zone === 'beacon' || z === 1) edges.push([m.base.x, H]);
    if (zone === 'beacon' || (zone === 'corner' && z === 0)) edges.push([0, m.base.y]);
    if (zone === 'beacon' || (zone === 'corner' && z === 1)) edges.push([W, m.base.y]);
    return edges;
  }

  /** Own table edges for Withdraw (GM-16). */
  private touchesOwnEdge(m: BattleModel, p: Pose): boolean {
    const b = baseAt(m, p);
    const W = this.width, H = this.height, e = GEOM_EPSILON;
    const zone = this.scenario.zone;
    const inside = (x0: number, y0: number, x1: number, y1: number) => baseInRect(b, x0 + e * 2, y0 + e * 2, x1 - e * 2, y1 - e * 2, 0);
    if (zone === 'beacon') return !inside(0, 0, W, H);
    const z = this.zoneOf(m.side);
    if (zone === 'corner') return z === 0 ? !inside(0, 0, Infinity, Infinity) : !inside(-Infinity, -Infinity, W, H);
    return z === 0 ? !inside(-Infinity, 0, Infinity, Infinity) : !inside(-Infinity, -Infinity, Infinity, H);
  }

  /** A Withdraw move that reaches an own edge this activation, if one exists. */
  private withdrawMove(m: BattleModel): Pose | null {
    const speed = m.unit.speed;
    if (!m.unit.isCapital) {
      for (const [x, y] of this.ownEdgePoints(m)) if (Math.hypot(x - m.base.x, y - m.base.y) - m.reach <= speed + 1e-9) return { x, y, heading: 0 };
      return null;
    }
    const lim = capitalLimits(this.br, m, false);
    const start: Pose = { x: m.base.x, y: m.base.y, heading: m.base.heading };
    const pivoted: Pose = { x: 0, y: 0, heading: 0 };
    for (const turn of lim.turns >= 1 ? [0, -45, 45] : [0]) {
      // Straight ahead, or after one pivot (on an unbounded table: the path may leave it).
      followCapitalMove(m, start, { pre: 0, turn1: turn, mid: 0, turn2: 0, post: 0 }, Infinity, Infinity, pivoted, this.br.pivotOnCentre);
      const ux = sinDeg(pivoted.heading), uy = cosDeg(pivoted.heading);
      for (let d = 0; d <= lim.max + 1e-9; d += 0.5) {
        const p: Pose = { x: pivoted.x + d * ux, y: pivoted.y + d * uy, heading: pivoted.heading };
        if (d >= lim.min - 1e-9 && this.touchesOwnEdge(m, p)) return p;
      }
    }
    return null;
  }

  /**
   * A ram (§8.1): an enemy capital ship the rammer can reach with a legal move that ends with
   * its front arc in contact: straight ahead, or after one 45° pivot, up to its maximum move,
   * ending on the table and overlapping no other base (GM-54, GM-73). Nearest first.
   */
  private ramOption(m: BattleModel): { target: BattleModel; pose: Pose } | null {
    if (m.state.structure !== 1) return null;
    if (!m.unit.isCapital) return this.squadronRamOption(m);
    const lim = capitalLimits(this.br, m, false);
    const W = this.width, H = this.height;
    let best: { target: BattleModel; pose: Pose } | null = null;
    let bestD = Infinity;
    const start: Pose = { x: m.base.x, y: m.base.y, heading: m.base.heading };
    const p: Pose = { x: 0, y: 0, heading: 0 };
    for (const e of this.enemiesOf(m.side)) {
      if (!e.unit.isCapital) continue; // a capital ship may not ram a squadron
      if (Math.hypot(e.base.x - m.base.x, e.base.y - m.base.y) > lim.max + m.reach + e.reach) continue;
      // Ahead within a 45° pivot: the target must lie in the front half-plane at least.
      if ((e.base.x - m.base.x) * sinDeg(m.base.heading) + (e.base.y - m.base.y) * cosDeg(m.base.heading) < -(m.reach + e.reach)) continue;
      for (const turn of lim.turns >= 1 ? [0, -45, 45] : [0]) {
        followCapitalMove(m, start, { pre: 0, turn1: turn, mid: 0, turn2: 0, post: 0 }, W, H, p, this.br.pivotOnCentre);
        const b = baseAt(m, p);
        // First contact along the heading: step, then bisect to the touching distance.
        // Skip the stretch where the bases cannot meet yet (centres farther apart than both reaches).
        const along = (e.base.x - p.x) * sinDeg(p.heading) + (e.base.y - p.y) * cosDeg(p.heading);
        let from = Math.max(0, Math.floor((along - m.reach - e.reach) * 4) / 4);
        const firstHit = (start: number) => {
          for (let d = start; d <= lim.max + 1e-9; d += 0.25) {
            b.set(p.x + d * sinDeg(p.heading), p.y + d * cosDeg(p.heading), p.heading);
            if (!separationAbove(b, e.base, 0)) return d;
          }
          return -1;
        };
        let hit = firstHit(from);
        if (hit === from && from > 0) hit = firstHit((from = 0)); // in contact already: scan from the start
        if (hit < 0) continue;
        let lo = Math.max(0, hit - 0.25), hi = hit;
        for (let i = 0; i < 20; i++) {
          const mid = (lo + hi) / 2;
          b.set(p.x + mid * sinDeg(p.heading), p.y + mid * cosDeg(p.heading), p.heading);
          if (separationAbove(b, e.base, 0)) lo = mid;
          else hi = mid;
        }
        b.set(p.x + lo * sinDeg(p.heading), p.y + lo * cosDeg(p.heading), p.heading);
        if (lo < lim.min - 1e-9 || !contactInArc(b, 'F', e.base, 0.002) || !onTable(b, W, H)) continue; // a legal move: at least the minimum
        const clear = this.models.every((o) => o === m || o === e || o.where !== 'table' || separationAbove(b, o.base, GEOM_EPSILON));
        if (clear && lo < bestD) {
          bestD = lo;
          best = { target: e, pose: { x: b.x, y: b.y, heading: b.heading } };
        }
        break; // the straight approach, else the first pivot that reaches it
      }
    }
    return best;
  }

  /**
   * A squadron ram (§8.3, §8.4): any enemy model whose base it can reach within its Speed; it
   * moves straight at the target into base contact (free path, GM-58), ending on the table and
   * on top of no third base. Nearest first.
   */
  private squadronRamOption(m: BattleModel): { target: BattleModel; pose: Pose } | null {
    let best: { target: BattleModel; pose: Pose } | null = null;
    let bestD = Infinity;
    for (const e of this.enemiesOf(m.side)) {
      if (separationAbove(m.base, e.base, m.unit.speed)) continue;
      const gap = separation(m.base, e.base);
      if (gap >= bestD) continue;
      const pose = this.contactPose(m, e, m.unit.speed);
      if (!pose) continue;
      best = { target: e, pose };
      bestD = gap;
    }
    return best;
  }

  /**
   * Where a squadron moving straight at `e` first touches it, if that is within `reach` inches,
   * wholly on the table and clear of every third base (GM-58 free paths; GM-59: contact the
   * action requires). Null otherwise.
   */
  private contactPose(m: BattleModel, e: BattleModel, reach: number): Pose | null {
    const b = baseAt(m, { x: m.base.x, y: m.base.y, heading: 0 });
    const dx = e.base.x - m.base.x, dy = e.base.y - m.base.y, len = Math.hypot(dx, dy);
    if (len < 1e-9) return null;
    // The bases cannot touch before the centres are within both reaches: start the search there.
    const lo0 = Math.max(0, len - m.reach - e.reach - 0.01);
    if (lo0 > reach + 1e-9) return null;
    const ux = dx / len, uy = dy / len;
    const edge = overlapSpan(b, ux, uy, e.base, SPAN_OUT) ? SPAN_OUT[0] : NaN; // where contact begins
    const lo = guidedBisection(lo0, len, 18, edge, (t) => {
      b.set(m.base.x + ux * t, m.base.y + uy * t, 0);
      return separationAbove(b, e.base, 0);
    });
    b.set(m.base.x + ux * lo, m.base.y + uy * lo, 0);
    if (lo > reach + 1e-9 || !onTable(b, this.width, this.height)) return null;
    if (!this.models.every((o) => o === m || o === e || o.where !== 'table' || separationAbove(b, o.base, GEOM_EPSILON))) return null;
    return { x: b.x, y: b.y, heading: 0 };
  }

  private doRam(m: BattleModel, ram: { target: BattleModel; pose: Pose }, rec: TraceActivation | null): string {
    const tgt = ram.target;
    const save = { x: m.base.x, y: m.base.y, heading: m.base.heading };
    m.base.set(ram.pose.x, ram.pose.y, ram.pose.heading);
    const asp = ASPECT_OF[aspect(m.base, tgt.base)]; // the struck arc from the contact position (GM-80)
    // Head-on needs both front arcs (GM-22); a squadron rammer meets the target's current Defense.
    const facing = m.unit.isCapital && headOn(m.base, tgt.base);
    const defense = m.unit.isCapital ? tgt.unit.defense : tgt.state.defense;
    const key = `${m.unit.id}|${tgt.unit.id}|${asp}|${facing ? 1 : 0}|${defense}`;
    let plan = this.ramPlans.get(key);
    if (!plan) {
      plan = planRam(this.rules, m.unit, tgt.unit, asp, this.usage, { headOn: facing, targetDefense: defense });
      this.ramPlans.set(key, plan);
    }
    const roll = rollRam(this.rules, plan, m.state, tgt.state, this.roller, this.dice, this.tally);
    // A capital ship that fails its Skill Test may not contact the target and stays where it was;
    // a squadron moves into contact first (§8.3 step 1) and is destroyed whatever happens.
    if (roll.result !== 'rammed' && m.unit.isCapital) m.base.set(save.x, save.y, save.heading);
    if (rec) rec.ram = { target: tgt.label, result: roll.result, rammerAfter: this.stateText(m), targetAfter: this.stateText(tgt) };
    this.afterDamage(m);
    this.afterDamage(tgt);
    return roll.result;
  }

  private stateText(m: BattleModel): string {
    return m.state.destroyed ? 'destroyed' : m.state.crippled ? 'crippled' : `structure ${m.state.structure}`;
  }

  /** Bookkeeping after damage: removal of destroyed models; v1.2.1 immediate end (GM-52). */
  private afterDamage(m: BattleModel): boolean {
    this.epoch++;
    if (m.state.destroyed && m.where === 'table') m.where = 'destroyed';
    if (m.unit.isCapital && m.unit.hangers > 0) {
      if (m.where === 'destroyed') this.loseEmbarked(m); // GM-32 (a capture is handled in capture())
      else if (m.where === 'withdrawn') this.withdrawEmbarked(m);
    }
    if (this.br.immediateEndWithoutCapitals && this.objectives.length === 0 && !this.ended) {
      for (const side of [0, 1] as const) {
        const fleet = this.models.filter((x) => x.side === side && x.unit.isCapital);
        // GM-52: Crippled ships still count unless crippled_counts_as_lost=YES.
        const cripples = this.br.crippledCountsAsLost;
        if (fleet.length && fleet.every((x) => x.where === 'destroyed' || x.where === 'withdrawn' || x.state.destroyed || (cripples && x.state.crippled))) {
          this.ended = `fleet ${this.fleetLabel(side)} has no capital ship left (turn ${this.turn}; v1.2.1: the game ends at once)`;
          return true;
        }
      }
    }
    return false;
  }

  private fireFrom(m: BattleModel, fc: number, action: ActionName, cf: ShotMods | null, rec: TraceActivation | null): number {
    const enemies = this.enemiesOf(m.side);
    let order = this.policyOfSide(m.side).targetOrder(this, m, m.base, enemies, this.pol);
    if (cf) order = order.filter((e) => e.unit.isCapital).slice(0, 1); // Concentrated Fire: a single capital-ship target
    // Concentrated Fire's Flex goes to non-missile attacks only (combat.md §5.4).
    const missiles = m.unit.weapons.some((w) => w.cls === 'missile');
    const modsFor = (t: BattleModel): ShotMods => ({ flex: t.stationKeeping ? this.br.stationKeepFlex : 0, nonMissileFlex: cf ? cf.flex : 0, rerolls: cf ? cf.rerolls : 0, supporters: missiles ? () => this.missileSupporters(m, t) : undefined, barrier: this.anyBarrier ? (mods) => this.barrierCover(m, t, mods) : undefined });
    const log = rec ? rec.attacks : null;
    return this.gunnery.fire(m, order, fc, modsFor, this.dice, this.tally, log, (hit) => {
      this.afterDamage(hit);
      return this.ended !== null;
    });
  }

  /** GM-12: a move with a Thrusters-0 turn needs a Skill Test [D+]; on [N] the ship goes straight instead. */
  private thrustersZeroTurn(m: BattleModel, opt: MoveOption, forced: boolean, rec: TraceActivation | null): { opt: MoveOption; forced: boolean } {
    if (!opt.failPose) return { opt, forced };
    const pass = this.skillTest(m.unit.skill);
    if (rec) {
      const line = `Thrusters 0 turn: Skill Test (${m.unit.skill} dice) ${pass ? '[D+] passed' : '[N]: it goes straight'}`;
      rec.test = rec.test ? `${rec.test}; ${line}` : line; // after a Repair test, both are kept
    }
    if (pass) return { opt, forced };
    const straight = { ...opt, pose: opt.failPose };
    return { opt: straight, forced: forced || !legalEnd(this.br, m, straight.pose, this.models, this.width, this.height) };
  }

  /** GM-15 offtable_rule WITHDRAWN / DESTROYED: its path ran off the table and it is gone. */
  private leaveTable(m: BattleModel, rec: TraceActivation | null): void {
    if (this.br.offTable === 'destroyed') m.state.destroyed = true;
    m.where = this.br.offTable === 'destroyed' ? 'destroyed' : 'withdrawn';
    rec?.notes.push(`left the table: ${m.where} (GM-15 offtable_rule)`);
    this.afterDamage(m);
  }

  /**
   * Friendly models of `tgt` that help its missile defence against `att` (combat.md §4.3,
   * Assist122): on the table, not the target, Defense >= 1, and within 3" of the shortest line
   * between the two bases.
   */
  private missileSupporters(att: BattleModel, tgt: BattleModel): number {
    // Every point of that line lies within the larger base reach of the line between the
    // centres: models farther than that (plus 3" and their own reach) are left out unmeasured.
    const spread = Math.max(att.reach, tgt.reach);
    const cx = tgt.base.x - att.base.x, cy = tgt.base.y - att.base.y, len2 = cx * cx + cy * cy;
    let n = 0;
    for (const o of this.models) {
      if (!this.mayHelpDefend(o, att, tgt)) continue;
      let u = len2 > 0 ? ((o.base.x - att.base.x) * cx + (o.base.y - att.base.y) * cy) / len2 : 0;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      const ex = o.base.x - (att.base.x + u * cx), ey = o.base.y - (att.base.y + u * cy);
      const far = 3 + GEOM_EPSILON + spread + o.reach;
      if (ex * ex + ey * ey > far * far) continue;
      if (this.nearLineOfFire(o, att, tgt)) n++;
    }
    return n;
  }

  /** A friend of `tgt` that may help defend it against `att`: on the table and fighting (not an inert hulk, GM-21), Defense >= 1. */
  private mayHelpDefend(o: BattleModel, att: BattleModel, tgt: BattleModel): boolean {
    return o !== tgt && o !== att && o.side === tgt.side && o.where === 'table' && !o.state.destroyed && o.state.defense >= 1 && o.fights(this.br.inertHulks);
  }

  /**
   * Whether `o`'s base lies within 3" of the shortest line between the bases of `att` and `tgt`
   * (missile support). The line is measured once for a pair standing where they stand.
   */
  private nearLineOfFire(o: BattleModel, att: BattleModel, tgt: BattleModel): boolean {
    const a = att.base, t = tgt.base, k = this.lineKey;
    if (this.lineAtt !== att || this.lineTgt !== tgt || k[0] !== a.x || k[1] !== a.y || k[2] !== a.heading || k[3] !== t.x || k[4] !== t.y || k[5] !== t.heading) {
      shortestLine(a, t, this.line);
      this.lineAtt = att;
      this.lineTgt = tgt;
      k[0] = a.x;
      k[1] = a.y;
      k[2] = a.heading;
      k[3] = t.x;
      k[4] = t.y;
      k[5] = t.heading;
    }
    return segmentDistance(o.base, this.line[0], this.line[1], this.line[2], this.line[3]) <= 3 + GEOM_EPSILON;
  }
  private readonly line = new Float64Array(4);
  private readonly lineKey = new Float64Array(6);
  private lineAtt: BattleModel | null = null;
  private lineTgt: BattleModel | null = null;

  /**
   * The Barrier Defense `tgt` may defend with against `att` (combat.md §7.2-7.3): the highest
   * Defense among its friends on the table with a working Barrier within combat.barrierReach of
   * it, and whether every friend with that Defense is also one of its missile supporters (then,
   * under v1.2.1, it adds no support of its own). Several Barriers do not stack: the defender
   * takes the best. Its own Barrier, if any, is planAttack's.
   */
  private barrierCover(att: BattleModel, tgt: BattleModel, mods: ShotMods): void {
    let best = 0;
    let supporting = true;
    const reach = this.rules.combat.barrierReach + GEOM_EPSILON;
    for (const o of this.models) {
      if (!this.mayHelpDefend(o, att, tgt) || o.state.defense < best) continue;
      if (!o.state.hasWorking('Barrier') || separationAbove(o.base, tgt.base, reach)) continue;
      const supports = this.nearLineOfFire(o, att, tgt);
      supporting = o.state.defense > best ? supports : supporting && supports;
      best = o.state.defense;
    }
    mods.barrierDefense = best;
    mods.barrierSupporting = best > 0 && supporting;
  }

  private activate(m: BattleModel): void {
    m.activated = true;
    this.activations++;
    this.epoch++;
    this.gunnery.startActivation();
    let policy = this.policyOfSide(m.side);
    const rec: TraceActivation | null = this.trace
      ? { turn: this.turn, model: m.label, action: 'none', before: poseOf(m.base), after: poseOf(m.base), fired: 'none', attacks: [], notes: [] }
      : null;
    this.currentRec = rec;
    const side = m.side;
    const finish = () => {
      if (this.br.launchWithCarrier && m.unit.hangers > 0) this.launchAboard(m, side, rec);
      if (this.br.fuelAfterActivation && !m.unit.isCapital) m.fuel = m.unit.fuel; // §6.5 (GM-13)
      if (rec) {
        rec.after = poseOf(m.base);
        this.trace!.activations.push(rec);
      }
    };
    // Ram (§8): a capital ship at 1 Structure with an enemy capital ship ahead.
    m.launched = false;
    // Embarked (GM-18): Launch, placed touching the carrier, then carry on with the activation.
    if (m.where === 'embarked') {
      if (!this.launch(m, rec)) return finish();
    }
    // Return to Base (GM-77): it heads at full Speed for the nearest friendly carrier with room
    // (and Lands on reaching it) or else its own table edge; no attacks, nothing declared; the
    // state ends with this activation.
    if (m.rtb) {
      if (rec) rec.action = 'return_to_base';
      this.returnToBase(m, rec);
      m.rtb = false;
      return finish();
    }
    // Boarded (v1.2.2, GM-20): Boarders and Marines fight at the start of the ship's activation
    // (boarding_combat_timing=END_PHASE: in the End Phase instead).
    if (m.boarders > 0 && this.br.boarding.procedure === 'boarded_state' && !this.br.boardedFightInEndPhase) {
      this.resolveBoardedFight(m, rec);
      if (m.captured) {
        // GM-75: captured before its owner acts; the captor completes the activation.
        policy = this.policyOfSide(m.side);
        rec?.notes.push(`${m.label}: its captor completes the activation (GM-75)`);
      }
    }
    const ram = this.ramOption(m);
    if (ram && policy.wants(this, m, 'ram', this.pol)) {
      if (rec) rec.action = 'ram';
      const result = this.doRam(m, ram, rec);
      if (result !== 'rammed' && m.unit.isCapital && !m.state.destroyed && !this.ended) {
        // GM-90: a capital ship whose ram fails makes its normal move (at least its minimum
        // distance: Ram was its action, so no Station Keep or Boost), still without attacking.
        const choice = this.chooseMove(m, policy, false);
        const { opt, forced } = this.thrustersZeroTurn(m, choice.opt, choice.forced, rec);
        m.base.set(opt.pose.x, opt.pose.y, opt.pose.heading);
        if (choice.leaves) {
          this.leaveTable(m, rec);
          return finish();
        }
        this.carryAssaulters(m, rec);
        if (forced) this.resolveOverlaps(m, () => {}, rec);
      }
      return finish();
    }
    // Repair (GM-19 stub, option enable_repair): the declared action, resolved first; the model
    // then moves (no Station Keep or Boost: those are actions too) and attacks as usual.
    const repairing = this.br.repair && this.repairable(m) && policy.wants(this, m, 'repair', this.pol);
    if (repairing) this.repair(m, rec);
    // Squadron actions: staying Assaulting; interception, bombing, assault (game.md §7.5-7.7).
    if (!repairing && m.assaulting && this.assaultingTurn(m, policy, rec)) return finish();
    if (!repairing && !m.unit.isCapital && this.squadronStrike(m, policy, rec)) return finish();
    // Withdraw (GM-16): leaves by an own edge; no attacks unless withdraw_allows_attacks=YES.
    if (!repairing && policy.wants(this, m, 'withdraw', this.pol)) {
      const p = this.withdrawMove(m);
      if (p) {
        if (rec) rec.action = 'withdraw';
        if (this.br.withdrawAttacks) {
          // Its shots come from where it stands: the move ends at (or past) its own edge.
          this.fireFrom(m, m.state.fireControl(), 'withdraw', null, rec);
          if (rec && rec.attacks.length) rec.fired = 'before-move';
          if (this.ended) return finish();
        }
        m.base.set(p.x, p.y, p.heading);
        m.where = 'withdrawn';
        this.afterDamage(m);
        return finish();
      }
    }
    const choice = this.chooseMove(m, policy, !repairing);
    const { opt, forced } = this.thrustersZeroTurn(m, choice.opt, choice.forced, rec);
    let action: ActionName = repairing ? 'repair' : opt.action;
    let fc = m.state.fireControl();
    let cf: ShotMods | null = null;
    const firePose = choice.fireBefore ? m.base : opt.pose;
    const enemies = this.enemiesOf(m.side);
    const first = policy.targetOrder(this, m, firePose, enemies, this.pol)[0];
    if (action === 'none' && first && first.unit.isCapital && this.estimateShots(m, firePose, first) >= 2 && policy.wants(this, m, 'concentrated_fire', this.pol)) {
      action = 'concentrated_fire';
      // v1.2.1: Skill or Sensors (the player picks: the better); v1.2.2: Skill.
      const dice = this.br.concentratedFireDice === 'skill_or_sensors' ? Math.max(m.unit.skill, m.state.sensors) : m.unit.skill;
      const pass = this.skillTest(dice);
      cf = { flex: this.br.concentratedFireFlex ? 1 : 0, rerolls: pass ? 1 : 0 };
      if (rec) rec.test = `Concentrated Fire Skill Test (${dice} dice): ${pass ? '[D+] passed' : '[N]'}`;
    } else if (action === 'none' && !first && this.canEvade(m) && policy.wants(this, m, 'evade', this.pol)) {
      action = 'evade';
      m.evading = true;
      if (this.br.evadeTest) {
        const dice = Math.max(m.unit.skill, m.unit.isCapital ? m.state.thrusters : m.fuel);
        const pass = this.skillTest(dice);
        if (!pass) fc = Math.min(fc, 1);
        if (rec) rec.test = `Evade Skill Test (${dice} dice): ${pass ? '[D+] passed' : '[N]: Fire Control drops to 1'}`;
      }
    }
    if (action === 'none' && m.unit.isCapital && this.br.engagePointDefence && this.squadronsNear(m, opt.pose, 3).length && policy.wants(this, m, 'engage_point_defence', this.pol)) {
      action = 'engage_point_defence'; // combat.md §8.3 EngagePD: resolved after the move
    }
    const boardTarget = action === 'none' && m.unit.isCapital ? this.boardingTarget(m, opt.pose) : null;
    if (boardTarget && policy.wants(this, m, 'board', this.pol)) action = 'board';
    if (action === 'station_keep') m.stationKeeping = true;
    if (action === 'boost') {
      // Fire Control halved, rounded up (§6.4); squadrons too unless boost_halves_fc=CAPITAL_ONLY (GM-60).
      if (this.boostHalvesFc(m)) fc = Math.ceil(fc / 2);
      m.fuel = Math.max(0, m.fuel - (opt.fuel ?? 0));
    }
    if (rec) rec.action = action;
    if (choice.fireBefore) {
      fc = this.fireFrom(m, fc, action, cf, rec);
      if (rec && rec.attacks.length) rec.fired = 'before-move';
      if (this.ended) return finish();
    }
    m.base.set(opt.pose.x, opt.pose.y, opt.pose.heading);
    if (choice.leaves) {
      this.leaveTable(m, rec);
      return finish();
    }
    if (m.unit.isCapital) this.carryAssaulters(m, rec);
    // The declared special action, resolved where the ship stands after its move.
    const specialAction = () => {
      if (action === 'engage_point_defence' && !this.ended) {
        const targets = this.squadronsNear(m, m.base, 3);
        engagePointDefence(this.procedureHooks(rec), m, targets, { diminish: (sq) => (sq as BattleModel).assaulting !== null });
        for (const t of targets) this.afterDamage(t);
      }
      if (action === 'board' && boardTarget && !this.ended) this.board(m, boardTarget, rec);
    };
    let firedAtStop = false;
    if (forced) this.resolveOverlaps(m, () => {
      // GM-64 (seed 002): an active ship to be repositioned stops, makes its special actions and
      // uses its remaining Fire Control there; Fire Control it does not use then is lost.
      firedAtStop = true;
      specialAction();
      const n = rec ? rec.attacks.length : 0;
      if (!choice.fireBefore && !this.ended) this.fireFrom(m, fc, action, cf, rec);
      if (rec && rec.attacks.length > n) rec.fired = 'after-move';
      fc = 0;
    }, rec);
    if (!firedAtStop) specialAction();
    if (!choice.fireBefore && !firedAtStop && !this.ended) {
      const n = rec ? rec.attacks.length : 0;
      fc = this.fireFrom(m, fc, action, cf, rec);
      if (rec && rec.attacks.length > n) rec.fired = 'after-move';
    }
    return finish();
  }

  /** A model that may declare Repair (GM-19): the Repair trait, on the table, not Assaulting, with a lost box to restore. */
  private repairable(m: BattleModel): boolean {
    const t = m.state, u = m.unit;
    if (!u.traits.has('Repair') || m.where !== 'table' || t.destroyed || m.assaulting) return false;
    // A Crippled model gets no Structure back: Crippled is what its lost Structure made it.
    return t.disabledSystems !== 0 || t.defense < u.defense || t.sensors < u.sensors || t.thrusters < u.thrusters || t.fireControlLost > 0 || (t.structure < u.structure && !t.crippled);
  }

  /**
   * The Repair stub (GM-19): a Skill Test; on [D+] one lost box comes back: a knocked-out System
   * trait, else a lost point of Defense, Sensors, Thrusters or Fire Control (in that order),
   * else 1 Structure (not for a Crippled model, which stays Crippled).
   */
  private repair(m: BattleModel, rec: TraceActivation | null): void {
    const t = m.state, u = m.unit;
    this.usage.unit(u, 'traits.Repair');
    const pass = this.skillTest(u.skill);
    if (rec) rec.test = `Repair Skill Test (${u.skill} dice): ${pass ? '[D+] passed' : '[N]: nothing repaired'}`;
    if (!pass) return;
    let what: string;
    if (t.disabledSystems !== 0) {
      const i = Math.log2(t.disabledSystems & -t.disabledSystems);
      t.disabledSystems &= ~(1 << i);
      what = `its ${SYSTEM_TRAITS[i]} system`;
    } else if (t.defense < u.defense) {
      t.defense++;
      what = '1 Defense';
    } else if (t.sensors < u.sensors) {
      t.sensors++;
      what = '1 Sensors';
    } else if (t.thrusters < u.thrusters) {
      t.thrusters++;
      what = '1 Thrusters';
    } else if (t.fireControlLost > 0) {
      t.fireControlLost--;
      what = '1 Fire Control';
    } else if (!t.crippled) {
      t.structure++;
      what = '1 Structure';
    } else return;
    this.epoch++;
    rec?.notes.push(`${m.label} repairs ${what} (GM-19)`);
  }

  /** Enemy squadrons on the table whose bases lie within `inches` of `m` standing at `p`. */
  private squadronsNear(m: BattleModel, p: Pose, inches: number): BattleModel[] {
    const b = baseAt(m, p);
    const out: BattleModel[] = [];
    for (const e of this.enemiesOf(m.side)) {
      if (e.unit.isCapital) continue;
      const far = inches + m.reach + e.reach;
      if ((e.base.x - p.x) ** 2 + (e.base.y - p.y) ** 2 > far * far) continue;
      if (!separationAbove(b, e.base, inches + GEOM_EPSILON)) out.push(e);
    }
    return out;
  }

  /**
   * An enemy capital ship this ship could board from `p` (§7.4): within 1", Marines to commit,
   * not itself Boarded (GM-70), and more Marines than the target has (the odds the policies want).
   */
  private boardingTarget(m: BattleModel, p: Pose): BattleModel | null {
    if (m.marines < 1 || m.boarders > 0) return null;
    const b = baseAt(m, p);
    for (const e of this.enemiesOf(m.side)) {
      if (!e.unit.isCapital || e.marines >= m.marines) continue;
      if (e.boarders > 0 && e.boarderSide !== m.side) continue;
      const far = 1 + m.reach + e.reach;
      if ((e.base.x - p.x) ** 2 + (e.base.y - p.y) ** 2 > far * far) continue;
      if (!separationAbove(b, e.base, 1 + GEOM_EPSILON)) return e;
    }
    return null;
  }

  private board(m: BattleModel, t: BattleModel, rec: TraceActivation | null): void {
    const committed = m.marines;
    const r = initiateBoarding(this.procedureHooks(rec), this.br.boarding, m, t, committed, t.boarders > 0 ? { boarders: t.boarders, boarderSide: t.boarderSide } : null);
    if (r.boarded) {
      t.boarders = r.boarded.boarders;
      t.boarderSide = r.boarded.boarderSide;
    }
    this.afterDamage(t);
    if (r.captured) this.capture(t, m.side, rec);
  }

  private resolveBoardedFight(m: BattleModel, rec: TraceActivation | null): void {
    const r = boardedFight(this.procedureHooks(rec), this.br.boarding, m, { boarders: m.boarders, boarderSide: m.boarderSide });
    m.boarders = r.boarded ? r.boarded.boarders : 0;
    if (r.captured) this.capture(m, m.boarderSide, rec);
  }

  /** GM-32 / GM-76: squadrons aboard a carrier that is Destroyed or Captured are Destroyed. */
  private loseEmbarked(carrier: BattleModel): void {
    for (const x of this.models) {
      if (x.carrier !== carrier || x.where !== 'embarked') continue;
      x.where = 'destroyed';
      x.state.destroyed = true;
      x.carrier = null;
    }
  }

  /** INTERPRETATION: squadrons aboard a carrier that withdraws leave the table with it, as Withdrawn. */
  private withdrawEmbarked(carrier: BattleModel): void {
    for (const x of this.models) {
      if (x.carrier !== carrier || x.where !== 'embarked') continue;
      x.where = 'withdrawn';
      x.carrier = null;
      this.currentRec?.notes.push(`${x.label} withdraws aboard ${carrier.label}`);
    }
  }

  /**
   * GM-76 embarked_on_captured=PASS_TO_CAPTOR: the models aboard a captured carrier stay aboard
   * and change sides with it, Captured like the ship (x1.5 VP to the captor), serving the captor
   * from the next turn.
   */
  private passEmbarked(carrier: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    for (const x of this.models) {
      if (x.carrier !== carrier || x.where !== 'embarked') continue;
      x.captured = true;
      x.side = side;
      x.activated = true;
      rec?.notes.push(`${x.label} is captured aboard ${carrier.label}`);
    }
  }

  /** GM-75: the ship changes sides; VP x1.5 to the captor; it activates for the captor from the next turn. */
  private capture(t: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    if (this.br.embarkedPassToCaptor) this.passEmbarked(t, side, rec);
    else this.loseEmbarked(t); // GM-76 default
    t.captured = true;
    t.side = side;
    t.boarders = 0;
    t.activated = true;
    this.afterDamage(t); // GM-52: a fleet that lost its last capital ship to capture ends a v1.2.1 game at once
    rec?.notes.push(`${t.label} is captured by fleet ${this.fleetLabel(side)}`);
  }

  /** Picks a Dogfight action: Stay on Target when it can, else Engage, else Break Off, else pass (Return to Base: Break Off only). */
  private readonly dogfightChooser: DogfightChooser = (self, _other, _round, legal) => {
    // Return to Base (GM-77): no attacks, so an intercepted squadron heading home only tries to break off.
    if ((self as BattleModel).rtb) return legal.includes('break_off') ? 'break_off' : 'pass';
    return legal.includes('stay_on_target') ? 'stay_on_target' : legal.includes('engage') ? 'engage' : legal.includes('break_off') ? 'break_off' : 'pass';
  };

  private dogfightAftermath(r: DogfightResult, ...models: BattleModel[]): void {
    for (const p of r.rtb) (p as BattleModel).rtb = true;
    for (const x of models) this.afterDamage(x);
  }

  /**
   * The free move a dogfight survivor may make (v1.2.1; GM-72 for v1.2.2): up to its Speed in any
   * direction, chosen by its policy from its usual menu, with no attacks.
   */
  private freeMove(m: BattleModel, rec: TraceActivation | null): void {
    if (m.state.destroyed || m.where !== 'table' || m.rtb) return;
    // A Boost is an action, not part of a free move: the menu offers only moves within Speed.
    const { opt } = this.chooseMove(m, this.policyOfSide(m.side), false);
    m.base.set(opt.pose.x, opt.pose.y, 0);
    this.epoch++;
    rec?.notes.push(`${m.label} makes its free move after the dogfight`);
  }

  /** Passive interception (§7.5, §7.6, §7.7): a friendly squadron within 3" of `ship` dogfights the striker. */
  private interceptFor(ship: BattleModel, rec: TraceActivation | null): InterceptFn {
    return (striker) => {
      const s = striker as BattleModel;
      let best: BattleModel | null = null;
      let bestGap = Infinity;
      for (const d of this.models) {
        // A squadron Assaulting an enemy ship stays on it: it does not leave to intercept.
        if (d.side !== ship.side || d.unit.isCapital || !d.fights(this.br.inertHulks) || d.rtb || d.intercepted || d.assaulting || !mayIntercept(d)) continue;
        if (separationAbove(d.base, ship.base, 3 + GEOM_EPSILON)) continue;
        const gap = separation(d.base, ship.base);
        if (gap >= bestGap) continue;
        if (!this.policyOfSide(d.side).wants(this, d, 'intercept', this.pol)) continue;
        best = d;
        bestGap = gap;
      }
      if (!best) return 'none';
      const pose = this.contactPose(best, s, Infinity);
      if (pose) best.base.set(pose.x, pose.y, 0);
      best.intercepted = true;
      rec?.notes.push(`${best.label} intercepts ${s.label}`);
      const r = dogfight(this.procedureHooks(rec), this.br.dogfight, s, best, this.dogfightChooser);
      this.dogfightAftermath(r, s, best);
      return { survived: !s.state.destroyed, noMoreAttacks: r.noMoreAttacks.includes(s) };
    };
  }

  /**
   * A squadron's strike this activation, if its policy takes one: an active interception of an
   * enemy squadron it can reach, or a bombing run / assault on an enemy capital ship it can
   * reach. Returns true when the activation was spent on it. A dogfight survivor makes its free
   * move; under v1.2.2 the interceptor then carries on with its Attack Window (GM-72).
   */
  private squadronStrike(m: BattleModel, policy: Policy, rec: TraceActivation | null): boolean {
    if (m.state.crippled) return false; // crippled squadrons (v1.2.1; option crippled_squadrons): Repair or Withdraw only
    // Candidates ranked cheaply first; the exact contact position is found only for the best.
    const preys: Array<{ e: BattleModel; key: number }> = [];
    const ships: Array<{ e: BattleModel; key: number }> = [];
    const speed = m.unit.speed;
    for (const e of this.enemiesOf(m.side)) {
      const cd = Math.hypot(e.base.x - m.base.x, e.base.y - m.base.y);
      if (cd - m.reach - e.reach > speed) continue; // cannot reach it whatever the shapes
      if (separationAbove(m.base, e.base, speed)) continue;
      if (!e.unit.isCapital) {
        // Intercept the enemy squadron closest to one of our capital ships (the biggest threat).
        let threat = Infinity;
        for (const f of this.models) {
          if (f.side !== m.side || !f.unit.isCapital || !f.fights(this.br.inertHulks)) continue;
          threat = Math.min(threat, Math.hypot(e.base.x - f.base.x, e.base.y - f.base.y) - f.bulk);
        }
        preys.push({ e, key: threat });
      } else {
        // Bomb or assault the most exposed ship in reach: least point defence and Structure left
        // (crippled hulks first), then the nearest.
        ships.push({ e, key: e.state.defense + e.state.structure + separation(m.base, e.base) / 100 });
      }
    }
    const firstReachable = (list: Array<{ e: BattleModel; key: number }>): [BattleModel | null, Pose | null] => {
      list.sort((a, b) => a.key - b.key);
      for (const c of list) {
        const pose = this.contactPose(m, c.e, speed);
        if (pose) return [c.e, pose];
      }
      return [null, null];
    };
    const wantsIntercept = preys.length > 0 && mayIntercept(m) && policy.wants(this, m, 'intercept', this.pol);
    const [prey, preyPose] = wantsIntercept ? firstReachable(preys) : [null, null];
    const [ship, shipPose] = prey ? [null, null] : firstReachable(ships);
    const hooks = this.procedureHooks(rec);
    if (prey && preyPose) {
      if (rec) rec.action = 'intercept';
      if (prey.assaulting) {
        rec?.notes.push(`${prey.label} stops Assaulting ${prey.assaulting.label}: intercepted`);
        prey.assaulting = null; // interception cancels Assaulting (§11.4)
      }
      m.base.set(preyPose.x, preyPose.y, 0);
      const r = dogfight(hooks, this.br.dogfight, m, prey, this.dogfightChooser);
      this.dogfightAftermath(r, m, prey);
      if (r.freeMove.includes(m) && !this.ended) {
        this.freeMove(m, rec);
        // GM-72 (v1.2.2): the active model then carries on with its activation: its Attack Window.
        if (this.br.dogfight.afterwards === 'rtb_if_no_fuel' && !m.rtb && !this.ended) {
          const n = rec ? rec.attacks.length : 0;
          this.fireFrom(m, m.state.fireControl(), 'intercept', null, rec);
          if (rec && rec.attacks.length > n) rec.fired = 'after-move';
        }
      }
      return true;
    }
    if (!ship || !shipPose) return false;
    if (this.br.exoBoarding && m.unit.type === 'exo_armor' && policy.wants(this, m, 'board', this.pol)) {
      // v1.2.1 Exo-Armor boarding (INTERPRETATION ExoBoard121): the ship's point defence, then the
      // squadron's attacks at its Fire Control with +1 Flex, Belt ignored; then a Return to Base move.
      if (rec) rec.action = 'board';
      m.base.set(shipPose.x, shipPose.y, 0);
      rec?.notes.push(`${m.label} boards ${ship.label} (Exo-Armor)`);
      pointDefenceAttack(hooks, ship, m);
      this.afterDamage(m);
      if (!m.state.destroyed && !this.ended) hooks.attackWindow(m, ship, { kind: 'boarding', fc: m.state.fireControl(), flex: 1, ignoreArmor: true, noMissileDefence: true });
      this.afterDamage(ship);
      if (!m.state.destroyed) this.returnToBase(m, rec);
      return true;
    }
    if (this.br.assault && m.unit.type === 'exo_armor' && policy.wants(this, m, 'assault', this.pol)) {
      if (rec) rec.action = 'assault';
      m.base.set(shipPose.x, shipPose.y, 0);
      this.doAssault(m, ship, policy, rec);
      return true;
    }
    if ((m.unit.speed >= ship.unit.speed || m.fuel >= 1) && policy.wants(this, m, 'bombing', this.pol)) {
      if (rec) rec.action = 'bombing';
      m.base.set(shipPose.x, shipPose.y, 0);
      const r = bombing(hooks, this.br.strike, m, ship, this.interceptFor(ship, rec), { continueRun: () => true });
      this.afterDamage(m);
      this.afterDamage(ship);
      if (r.rtb && !m.state.destroyed) {
        if (this.br.strike.returnToBase === 'state') m.rtb = true;
        else this.returnToBase(m, rec); // v1.2.1: an RTB move at once
      }
      return true;
    }
    return false;
  }

  /**
   * Puts `b` (the base of squadron `m`) where it first stops overlapping `ship` going out from
   * the ship's centre along the unit vector (ux, uy): in base contact (Launch, riding Assaulters).
   */
  private touchingAlong(b: MovingBase, m: BattleModel, ship: BattleModel, ux: number, uy: number): void {
    b.set(ship.base.x, ship.base.y, 0);
    const edge = overlapSpan(b, ux, uy, ship.base, SPAN_OUT) ? SPAN_OUT[1] : NaN; // where overlap ends
    guidedBisection(0, ship.reach + m.reach + 0.01, 20, edge, (t) => {
      b.set(ship.base.x + ux * t, ship.base.y + uy * t, 0);
      return separationBelow(b, ship.base, 0);
    });
    const hi = BISECTED[1];
    b.set(ship.base.x + ux * hi, ship.base.y + uy * hi, 0);
  }

  /** Squadrons aboard a carrier now. */
  private aboard(carrier: BattleModel): number {
    let n = 0;
    for (const x of this.models) if (x.carrier === carrier && x.where === 'embarked') n++;
    return n;
  }

  /** The nearest friendly capital ship on the table with free Hangers capacity (GM-18), or null. */
  private carrierFor(m: BattleModel): BattleModel | null {
    let best: BattleModel | null = null;
    let bestD = Infinity;
    for (const c of this.models) {
      if (c.side !== m.side || !c.unit.isCapital || c.unit.hangers < 1 || !c.fights(this.br.inertHulks)) continue;
      if (this.aboard(c) >= c.unit.hangers) continue;
      const d = Math.hypot(c.base.x - m.base.x, c.base.y - m.base.y);
      if (d < bestD) [best, bestD] = [c, d];
    }
    return best;
  }

  /**
   * GM-18 embarked_activation=CARRIER_ACTIVATION: when the carrier's activation ends, the models
   * aboard that have not activated yet this turn launch beside it, where it now stands, and
   * activate later in the turn like any model on the table. Nothing launches from a carrier
   * that was destroyed, left the table or changed sides during that activation, or once the
   * game has ended.
   */
  private launchAboard(carrier: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    if (this.ended || carrier.side !== side || carrier.where !== 'table' || carrier.state.destroyed) return;
    for (const x of this.models) if (x.carrier === carrier && x.where === 'embarked' && !x.activated) this.launch(x, rec);
  }

  /** Land (GM-18): in base contact with the carrier, it becomes Embarked and its activation ends. */
  private land(m: BattleModel, carrier: BattleModel, rec: TraceActivation | null): void {
    m.where = 'embarked';
    m.carrier = carrier;
    m.launched = true; // no Launch in the same activation
    this.epoch++;
    rec?.notes.push(`${m.label} lands on ${carrier.label}`);
  }

  /**
   * Launch (GM-18): placed with its base touching the carrier's, clear of every other base and
   * wholly on the table, nearest the enemy first. False when there is no such spot (it stays aboard).
   */
  private launch(m: BattleModel, rec: TraceActivation | null): boolean {
    const c = m.carrier!;
    const enemy = this.nearestEnemies(c)[0] ?? null;
    const aim = enemy ? bearing(c.base.x, c.base.y, enemy.base.x, enemy.base.y) : c.base.heading;
    const b = baseAt(m, { x: c.base.x, y: c.base.y, heading: 0 });
    for (let k = 0; k < 16; k++) {
      const dir = aim + (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 22.5;
      const ux = sinDeg(dir), uy = cosDeg(dir);
      this.touchingAlong(b, m, c, ux, uy);
      if (!onTable(b, this.width, this.height)) continue;
      if (!this.models.every((o) => o === m || o === c || o.where !== 'table' || separationAbove(b, o.base, GEOM_EPSILON))) continue;
      m.base.set(b.x, b.y, 0);
      m.where = 'table';
      m.carrier = null;
      m.launched = true;
      this.epoch++;
      rec?.notes.push(`${m.label} launches from ${c.label}`);
      return true;
    }
    rec?.notes.push(`${m.label} cannot launch from ${c.label}: no room beside it`);
    return false;
  }

  /**
   * An Assault and its aftermath (combat.md §11.3, §11.4): the squadron ends Assaulting (sitting
   * on the ship) when its policy wants to stay, else in Return to Base.
   */
  private doAssault(m: BattleModel, ship: BattleModel, policy: Policy, rec: TraceActivation | null): void {
    const r = assault(this.procedureHooks(rec), m, ship, this.interceptFor(ship, rec));
    this.afterDamage(m);
    this.afterDamage(ship);
    m.assaulting = null;
    if (r.end === 'undecided' && !m.state.destroyed) {
      if (ship.fights(this.br.inertHulks) && policy.wants(this, m, 'assault', this.pol)) {
        m.assaulting = ship;
        rec?.notes.push(`${m.label} stays Assaulting ${ship.label}`);
      } else m.rtb = true;
    } else if (r.end === 'return_to_base') m.rtb = true;
    this.epoch++;
  }

  /**
   * An Assaulting squadron's own activation (§11.4): it stays and assaults again while its ship
   * still fights and its policy wants to, or cancels: placed 1" from the ship, then it acts normally.
   */
  private assaultingTurn(m: BattleModel, policy: Policy, rec: TraceActivation | null): boolean {
    const ship = m.assaulting!;
    if (ship.fights(this.br.inertHulks) && ship.side !== m.side && policy.wants(this, m, 'assault', this.pol)) {
      if (rec) rec.action = 'assault';
      this.doAssault(m, ship, policy, rec);
      return true;
    }
    m.assaulting = null;
    const dx = m.base.x - ship.base.x, dy = m.base.y - ship.base.y, d = Math.hypot(dx, dy) || 1;
    const want = { x: m.base.x + (dx / d) * 1, y: m.base.y + (dy / d) * 1, heading: 0 };
    const p = nearestLegal(this.br, m, want, this.models, this.width, this.height, 6);
    if (p) m.base.set(p.x, p.y, 0);
    rec?.notes.push(`${m.label} stops Assaulting ${ship.label}`);
    this.epoch++;
    return false;
  }

  /**
   * Squadrons Assaulting a ship that moved ride with it (§11.4): each is put back in base contact,
   * on the line from the ship's centre through where it was, clear of every other base. Where
   * there is no room it is placed at the nearest clear spot and goes home (Return to Base).
   */
  private carryAssaulters(ship: BattleModel, rec: TraceActivation | null): void {
    for (const x of this.models) {
      if (x.assaulting !== ship || x.where !== 'table') continue;
      let dx = x.base.x - ship.base.x, dy = x.base.y - ship.base.y;
      let len = Math.hypot(dx, dy);
      if (len < 1e-9) [dx, dy, len] = [sinDeg(ship.base.heading), cosDeg(ship.base.heading), 1];
      const b = baseAt(x, { x: 0, y: 0, heading: 0 });
      this.touchingAlong(b, x, ship, dx / len, dy / len);
      const clear = onTable(b, this.width, this.height) && this.models.every((o) => o === x || o === ship || o.where !== 'table' || separationAbove(b, o.base, -GEOM_EPSILON));
      if (clear) {
        x.base.set(b.x, b.y, 0);
        continue;
      }
      x.assaulting = null;
      x.rtb = true;
      const ok = (q: Pose) => {
        const c = baseAt(x, q);
        return onTable(c, this.width, this.height) && this.models.every((o) => o === x || o.where !== 'table' || separationAbove(c, o.base, -GEOM_EPSILON));
      };
      const p = nearestLegal(this.br, x, { x: b.x, y: b.y, heading: 0 }, this.models, this.width, this.height, 12, ok);
      if (p) x.base.set(p.x, p.y, 0);
      rec?.notes.push(`${x.label} cannot stay on ${ship.label}: Return to Base`);
    }
  }

  private canEvade(m: BattleModel): boolean {
    if (m.unit.traits.has('Sluggish') && this.br.sluggishMayNotEvade) return false;
    return m.unit.isCapital ? m.state.thrusters >= 1 : m.fuel >= 2 && !m.state.crippled;
  }

  /** Attacks of `m` that would bear on `t` from `p` (estimate; for the Concentrated Fire choice). */
  private estimateShots(m: BattleModel, p: Pose, t: BattleModel): number {
    const brg = bearing(p.x, p.y, t.base.x, t.base.y);
    const arc = ARC_OF_REL(normalizeDeg(brg - p.heading));
    let n = 0;
    for (const w of m.unit.weapons) if (w.arcs.includes('T') || w.arcs.includes(arc)) n += w.count;
    return Math.min(n, m.state.fireControl());
  }

  /**
   * §6.7 overlapping after a forced (minimum) move, GM-64/GM-65. Capital ships: the smaller
   * base (by area; equal: the mover) is pushed forward along its own heading until clear, or
   * backward, or to the nearest legal spot; an active ship to be moved first uses its
   * remaining Fire Control (`fireFirst`). Squadrons under a capital ship move the least
   * distance that clears it (with 1" spacing in v1.2.1).
   */
  private resolveOverlaps(mover: BattleModel, fireFirst: () => void, rec: TraceActivation | null): void {
    const W = this.width, H = this.height;
    let fired = false;
    for (const o of this.models) {
      if (o === mover || o.where !== 'table') continue;
      if (o.unit.isCapital && mover.unit.isCapital && overlapping(mover.base, o.base)) {
        const areaM = mover.base.length * mover.base.width, areaO = o.base.length * o.base.width;
        const moved = areaO < areaM ? o : mover;
        if (moved === mover && !fired) {
          fireFirst();
          fired = true;
        }
        this.pushClear(moved, W, H);
        rec?.notes.push(`overlap with ${moved === mover ? o.label : mover.label}: ${moved.label} repositioned (GM-64)`);
        this.carryAssaulters(moved, rec); // squadrons Assaulting it ride along (§11.4)
      }
    }
    for (const o of this.models) {
      if (o.where !== 'table' || o.unit.isCapital || !mover.unit.isCapital) continue;
      const need = this.br.squadronCapitalSpacing;
      // Seed 002: a squadron the ship would overlap is moved the least distance that keeps the
      // version's spacing; one merely within that spacing stays (capital moves need no spacing).
      if (!separationBelow(o.base, mover.base, -GEOM_EPSILON)) continue;
      const ok = (q: Pose) => {
        const b = baseAt(o, q);
        if (!onTable(b, W, H)) return false;
        for (const x of this.models) {
          if (x === o || x.where !== 'table') continue;
          // GM-65: no overlap (touching is legal after this placement), plus the version's spacing from capital ships.
          if (separationBelow(b, x.base, x.unit.isCapital ? Math.max(-GEOM_EPSILON, need - GEOM_EPSILON) : -GEOM_EPSILON)) return false;
        }
        return true;
      };
      const p = nearestLegal(this.br, o, { x: o.base.x, y: o.base.y, heading: 0 }, this.models, W, H, 12, ok);
      if (p) o.base.set(p.x, p.y, 0);
      rec?.notes.push(`${o.label} moved clear of ${mover.label} (GM-65)`);
    }
  }

  private pushClear(s: BattleModel, W: number, H: number): void {
    const x0 = s.base.x, y0 = s.base.y, h = s.base.heading;
    const clear = () => onTable(s.base, W, H) && this.models.every((o) => o === s || o.where !== 'table' || !overlapping(s.base, o.base));
    for (const dir of [1, -1]) {
      for (let d = 0.05; d <= 30; d += 0.05) {
        s.base.set(x0 + dir * d * sinDeg(h), y0 + dir * d * cosDeg(h), h);
        if (clear()) return;
      }
    }
    s.base.set(x0, y0, h);
    const p = nearestLegal(this.br, s, { x: x0, y: y0, heading: h }, this.models, W, H, 24, () => clear());
    if (p) s.base.set(p.x, p.y, h);
  }

  // ------------------------------------------------------------------ End Phase and scoring

  private endPhase(turn: number, op: [number, number]): void {
    // GM-51 (a): effects that fall due in the End Phase.
    const notes: string[] = [];
    if (this.br.boardedFightInEndPhase && this.br.boarding.procedure === 'boarded_state') this.endPhaseBoardedFights(notes);
    const scored: string[] = [];
    for (const o of this.objectives) {
      if (turn < o.fromTurn) continue;
      const near = [false, false];
      for (const m of this.models) if (m.fights(this.br.inertHulks) && pointDistance(o.x, o.y, m.base) <= o.radius + GEOM_EPSILON) near[m.side] = true;
      if (near[0] !== near[1]) {
        const side = near[0] ? 0 : 1;
        op[side] += o.points;
        scored.push(`${o.id}: +${o.points} OP to ${this.fleetLabel(side as 0 | 1)}`);
      }
    }
    if (this.trace) {
      const entry: Trace['endPhases'][number] = { turn, op: [op[this.sideOfFleet[0]], op[this.sideOfFleet[1]]], scored };
      if (notes.length) entry.notes = notes;
      this.trace.endPhases.push(entry);
    }
    const e = this.scenario.earlyEnd;
    if (e.opAtLeast !== null && (op[0] >= e.opAtLeast || op[1] >= e.opAtLeast)) this.ended = `a fleet reached ${e.opAtLeast} Objective Points (turn ${turn})`;
    if (e.noCapitalShips) {
      for (const side of [0, 1] as const) {
        const caps = this.models.filter((m) => m.side === side && m.unit.isCapital);
        if (caps.length && caps.every((m) => m.where !== 'reserve' && !m.fights(this.br.inertHulks))) this.ended = `a fleet has no capital ship left that can fight (turn ${turn})`;
      }
    }
    for (const m of this.models) {
      m.evading = false; // GM-05 cleanup
      m.stationKeeping = false;
      if (!this.br.fuelAfterActivation && !m.unit.isCapital) m.fuel = m.unit.fuel; // fuel_refill=END_PHASE
      m.intercepted = false;
    }
  }

  /**
   * GM-20 boarding_combat_timing=END_PHASE: every Boarded ship on the table fights once, the
   * Initiative side's ships first (its own before those it captured, in model order). Trace
   * lines go to the End Phase's notes.
   */
  private endPhaseBoardedFights(notes: string[]): void {
    for (const side of [this.initSide, (1 - this.initSide) as 0 | 1]) {
      for (const own of [false, true]) {
        for (const m of this.models) {
          if (m.side !== side || m.captured !== own || m.boarders === 0 || m.where !== 'table' || m.state.destroyed || this.ended) continue;
          const rec: TraceActivation | null = this.trace ? { turn: this.turn, model: m.label, action: 'none', before: poseOf(m.base), after: poseOf(m.base), fired: 'none', attacks: [], notes } : null;
          this.resolveBoardedFight(m, rec);
        }
      }
    }
  }

  /** Victory Points per table position (seed 000 for v1.2.2; §12.1 for v1.2.1), rounded up per model (GM-94). */
  victoryPoints(): [number, number] {
    const vp: [number, number] = [0, 0];
    const round = this.br.vpRoundUp ? Math.ceil : (x: number) => x;
    for (const m of this.models) {
      const f = this.fate(m);
      const tv = m.unit.tv;
      if (f === 'captured') {
        vp[m.side] += round(tv * 1.5); // to the captor (its side now); the original owner scores 0 (seed 000, §12.1)
        continue;
      }
      if (this.br.scoring === 'own_survivors') {
        const mult = f === 'intact' ? 1 : f === 'reserve' ? this.br.reserveVp : f === 'withdrawn' ? 0.5 : 0;
        vp[m.side] += round(tv * mult);
      } else {
        const gain = f === 'destroyed' || (f === 'crippled' && m.unit.isCapital) ? tv : f === 'withdrawn' ? round(tv / 2) : 0;
        vp[1 - m.side] += gain;
      }
    }
    return vp;
  }
}
