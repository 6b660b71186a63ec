// The state of one battle and what policies may ask of it (PolicyView): the models, the
// enemy lists, expected-damage estimates and firepower, with their per-run caches. The
// layers above add deployment, manoeuvre, firing, squadron operations and the game itself.
import type { Pool } from '../../dice/pool.js';
import { Roller } from '../../dice/roll.js';
import { UserError } from '../../errors.js';
import { makePolicy } from '../../policies/index.js';
import { LEFT_BELOW, LEFT_NONE, LEFT_TIE, type LeftOut, type MoveOption, type Policy, type PolicyView } from '../../policies/types.js';
import type { CompiledRules } from '../../rules/compile.js';
import type { RandomStream } from '../../rng/stream.js';
import type { Scenario } from '../../scenarios/scenarioTypes.js';
import type { UnitCard, WeaponLine } from '../../units/types.js';
import type { Situation } from '../attackPlan.js';
import { DamageTally } from '../damage.js';
import { GEOM_EPSILON, cosDeg, hypot, sinDeg, trigInto } from '../geometry.js';
import { aspectOfArc, longRangeMax, rangeBand, type FacingArc } from '../geometryArcs.js';
import type { RamPlan } from '../ram.js';
import { PlaceholderUsage, noteTargetDamageFields } from '../usage.js';
import { battleRules, type BattleRules } from './battleRules.js';
import { Gunnery, shotMods, type ShotMods } from './gunnery.js';
import { BattleModel } from './model.js';
import { capitalLimits, type Pose } from './movement.js';
import type { Trace, TraceActivation } from './battleTypes.js';

export const r3 = (x: number) => Math.round(x * 1000) / 1000;
export const poseOf = (b: { x: number; y: number; heading: number }) => ({ x: r3(b.x), y: r3(b.y), heading: r3(b.heading) });
export const NO_MODS: ShotMods = shotMods({ flex: 0, rerolls: 0 });
export const ARC_OF_REL = (rel: number): FacingArc => (rel <= 45 || rel >= 315 ? 'F' : rel < 135 ? 'S' : rel <= 225 ? 'R' : 'P');
export const ARCS: readonly FacingArc[] = ['F', 'P', 'S', 'R'];

/** Scratch for overlapSpan: where a straight search starts and stops overlapping. */
export const SPAN_OUT = new Float64Array(2);

/**
 * Cuts a reused list to its first n entries. By pop(), which optimized code inlines and which
 * keeps the backing store; a store to `length` is a generic call into V8's length setter.
 */
export function cutTo<T>(list: T[], n: number): void {
  while (list.length > n) list.pop();
}

// KEEP_STORE: scratch arrays refilled many times a game (enemy lists, move menu scores) are
// written index by index and then cut to their new length, not emptied with `length = 0` and
// pushed to: emptying an array drops its backing store, so every refill allocated it again as
// it grew (a large share of what a game allocates). The contents and order are the same. The
// length is set only when it changes: the setter is a call into the runtime even then.
// MENU_STORE: the move menu scratch (pickMove's scores, the firepower and distances behind
// them) is not even cut: V8 trims the backing store of an array cut to less than about half its
// room, so a short menu after a long one gave the next long menu a fresh store. Those arrays
// are written from 0 for each menu and read with the menu's length, never their own.

/**
 * A situation table (estTable) holds the 32 situations' values (short range, then long), then
 * its bounds at short and at long range (tableBounds): what firepowerOfMoves needs to leave
 * out an enemy, or its long range, when none of those situations could matter.
 */
const BOUND_SHORT = 32;
const BOUND_LONG = 33;
const TABLE_SIZE = 34;

/** The placeholder entry of battles that may play the Repair stub (enable_repair=YES, GM-19). */
export const REPAIR_STUB_NOTE = 'rules enable_repair=YES: the Repair action is a jwsim stub (its rules were not retrieved, GM-19): a Skill Test that on [D+] restores one lost box';

export abstract class BattleState implements PolicyView {
  readonly br: BattleRules;
  readonly usage: PlaceholderUsage;
  readonly models: BattleModel[] = [];
  /** Whether any unit in the game has the Barrier trait (else no target looks for a Barrier model to defend it). */
  protected anyBarrier = false;
  /** The models whose card has the Barrier trait, in `models` order: the only ones that may lend a Barrier (barrierCover). */
  protected readonly barrierModels: BattleModel[] = [];
  readonly units: UnitCard[] = [];
  readonly width: number;
  readonly height: number;
  readonly turns: number;
  readonly objectives: Scenario['objectives'];
  turn = 0;
  protected readonly policies: [Policy, Policy];
  protected readonly gunnery: Gunnery;
  protected readonly roller: Roller;
  protected readonly tally = new DamageTally();
  protected readonly testPools = new Map<number, Pool>();
  /** doRam's plans, by a number made of what a plan depends on (see doRam); filled once per run. */
  protected readonly ramPlans = new Map<number, RamPlan>();
  protected readonly volleyCache = new Map<number, number>();
  /** Per (attacker type, target type): the situation table in use and the signature it is for. */
  protected readonly estTables: Float64Array[];
  protected readonly estSig: Float64Array;
  /**
   * Per pair, the table in use before the current one and its signature: the states of a
   * pair's targets alternate (two ships of a type, one of them damaged or Evading), and three
   * switches in four went back to the one before, each a lookup in estSaved.
   */
  protected readonly estTablesB: Float64Array[];
  protected readonly estSigB: Float64Array;
  /** Every situation table made this run, by pair and signature (states recur from game to game). */
  protected readonly estSaved = new Map<number, Float64Array>();
  protected readonly enemyLists: [BattleModel[], BattleModel[]] = [[], []];
  protected enemyListsTurnStamp = -1;
  protected dice!: RandomStream;
  protected pol!: RandomStream;
  protected trace: Trace | null = null;
  /** The trace record of the activation in progress (for notes from bookkeeping), or null. */
  protected currentRec: TraceActivation | null = null;
  protected ended: string | null = null;
  protected activations = 0;
  protected beacons: Array<{ side: 0 | 1; x: number; y: number }> = [];
  protected sideOfFleet: [0 | 1, 0 | 1] = [0, 1];
  /** The side holding Initiative: it takes the first zone (y = 0 strip, origin quadrant; GM-81, GM-84). */
  protected initSide: 0 | 1 = 0;
  /**
   * Bumped whenever a model appears, leaves or is damaged, and at the start of each activation
   * (models have moved): keys the per-position caches (reachable, nearestEnemies, firepower).
   */
  protected epoch = 0;
  /** The bumps of `epoch` made by activations starting: those change no model's presence or side. */
  protected activationStarts = 0;

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
        const m = new BattleModel(f as 0 | 1, i, u, ui, this.br.squadronBase);
        this.models.push(m);
        if (u.traits.has('Barrier')) this.barrierModels.push(m);
      });
    });
    if (this.units.length > 64) throw new UserError(`${scenario.file}: at most 64 distinct unit types per battle; this one has ${this.units.length}`);
    this.estTables = Array.from({ length: this.units.length * this.units.length }, () => new Float64Array(TABLE_SIZE).fill(-1));
    this.estSig = new Float64Array(this.units.length * this.units.length).fill(-1);
    this.estTablesB = this.estTables.slice();
    this.estSigB = new Float64Array(this.units.length * this.units.length).fill(-1);
    this.noteSituationalRules();
  }

  /**
   * Rules values a game reads only when a situation arises: a shot into a capital ship's side
   * or rear, missile defence with friends' support, a bombing run, a ram into a flank. Batch
   * runs get counts back from their workers, not what each game read, so the battle notes up
   * front each one its games can reach, and every output lists what its results may rest on.
   */
  private noteSituationalRules(): void {
    const anyCapital = this.units.some((u) => u.isCapital);
    const anyMissile = this.units.some((u) => u.weapons.some((w) => w.cls === 'missile'));
    if (anyCapital) {
      this.usage.rule('combat.sideBonus', 'combat.rearBonus');
      if (!this.rules.flags.ramFlankGeneral) this.usage.rule('combat.ramSideBonus', 'combat.ramRearBonus');
      const b = this.rules.combat.bombingBonus;
      if (this.units.some((u) => !u.isCapital) && (b.base || b.flex || b.macro)) this.usage.rule('combat.bombingBonus');
    }
    if (anyMissile && this.models.length > 2) this.usage.rule('combat.missileSupport');
    // The Repair action is our stub (its rules were not retrieved): results that may use it say so.
    const repairer = this.br.repair ? this.units.find((u) => u.traits.has('Repair')) : undefined;
    if (repairer) {
      this.usage.unit(repairer, 'traits.Repair');
      this.usage.addAll([REPAIR_STUB_NOTE]);
    }
  }

  // ------------------------------------------------------------------ PolicyView

  enemiesOf(side: 0 | 1): readonly BattleModel[] {
    // Who is in the lists changes only with the bumps other than an activation's start (a
    // model placed, removed, damaged, captured): the lists are kept across activations.
    const stamp = this.epoch - this.activationStarts;
    if (this.enemyListsTurnStamp !== stamp) {
      // Refilled in place and cut to length after (see KEEP_STORE).
      const l0 = this.enemyLists[0], l1 = this.enemyLists[1];
      let n0 = 0, n1 = 0;
      // A side's own models first, then ships it captured (mirror-symmetric order, as for
      // activations). The second pass, for captured ships, only where the first met one.
      const inert = this.br.inertHulks;
      let captured = false;
      for (const m of this.models) {
        if (m.captured) {
          captured = true;
          continue;
        }
        if (!m.fights(inert)) continue;
        if (m.side === 1) l0[n0++] = m;
        else l1[n1++] = m;
      }
      if (captured) {
        for (const m of this.models) {
          if (!m.captured || !m.fights(inert)) continue;
          if (m.side === 1) l0[n0++] = m;
          else l1[n1++] = m;
        }
      }
      cutTo(l0, n0);
      cutTo(l1, n1);
      this.enemyListsTurnStamp = stamp;
    }
    return this.enemyLists[side];
  }

  protected reachStamp = -1;
  protected readonly reachList: BattleModel[] = [];
  reachable(m: BattleModel): readonly BattleModel[] {
    if (this.reachStamp === this.epoch && this.reachOwner === m) return this.reachList;
    this.reachOwner = m;
    this.reachStamp = this.epoch;
    const move = m.unit.isCapital ? capitalLimits(this.br, m, false).max : m.unit.speed;
    const list = this.reachList;
    let n = 0; // refilled in place (KEEP_STORE)
    for (const e of this.enemiesOf(m.side)) {
      const range = this.maxRange(m, e.unit.isCapital);
      const far = move + range + m.reach + e.reach + 0.01;
      const dx = e.base.x - m.base.x, dy = e.base.y - m.base.y;
      if (dx * dx + dy * dy <= far * far) list[n++] = e;
    }
    cutTo(list, n);
    return this.reachList;
  }
  protected reachOwner: BattleModel | null = null;
  protected nearStamp = -1;
  protected nearOwner: BattleModel | null = null;
  protected nearList: BattleModel[] = [];
  nearestEnemies(m: BattleModel): readonly BattleModel[] {
    if (this.nearStamp === this.epoch && this.nearOwner === m) return this.nearList;
    this.nearStamp = this.epoch;
    this.nearOwner = m;
    // The first three of the enemies sorted by squared distance, ties in list order (a stable
    // sort with the comparator d2(a) - d2(b)), picked in one pass: each enemy goes in behind
    // every kept one that is not farther, and one not nearer than the third stays out. A sort
    // of a copy of the whole list, with two closures, was made for every model's moves.
    // Each model's own list, refilled in place (a new array grown to three cost some 180 bytes
    // a call): a policy that keeps the list it was given while it scores a menu still may, as
    // the list changes only when the same model's enemies are asked for again after a change.
    const lists = this.nearLists[m.fleet];
    let near = lists[m.index];
    if (near === undefined) near = lists[m.index] = [];
    const keys = this.nearKeys;
    const mx = m.base.x, my = m.base.y;
    let n = 0;
    for (const e of this.enemiesOf(m.side)) {
      const d = (e.base.x - mx) ** 2 + (e.base.y - my) ** 2;
      if (n === 3 && !(keys[2] - d > 0)) continue;
      let j = n < 3 ? n++ : 2;
      for (; j > 0 && keys[j - 1] - d > 0; j--) {
        near[j] = near[j - 1];
        keys[j] = keys[j - 1];
      }
      near[j] = e;
      keys[j] = d;
    }
    cutTo(near, n);
    this.nearList = near;
    return near;
  }
  /** nearestEnemies' lists, by fleet and index of the model. */
  private readonly nearLists: [BattleModel[][], BattleModel[][]] = [[], []];
  /** nearestEnemies' scratch: the squared distance of each enemy kept, at its place in the list. */
  private readonly nearKeys = new Float64Array(3);

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
  protected bestVolley(att: BattleModel, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arcOf: (w: WeaponLine) => FacingArc | null, fc: number): number {
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
  protected arcsOf(att: BattleModel, pose: Pose, tgt: BattleModel, dx: number, dy: number): number {
    let myArc = 0;
    if (att.unit.isCapital) {
      if (pose.heading !== this.trigHeading) {
        this.trigHeading = pose.heading;
        this.headingTrig();
      }
      myArc = BattleState.arcIndex(dx, dy, this.trigSin, this.trigCos);
    }
    let aspArc = 0;
    if (tgt.unit.isCapital) {
      const f = tgt.base.forward();
      aspArc = BattleState.arcIndex(-dx, -dy, f.sin, f.cos);
    }
    return myArc * 4 + aspArc;
  }

  /**
   * Which of a ship's arcs (forward vector hx, hy) the direction (dx, dy) lies in, as an ARCS
   * index (GM-46 wedges, lines to F/R): F (0) when f >= a; else R (3) when -f >= a; else S (2)
   * when st > 0, P (1) otherwise (f the forward component, st the starboard one, a = |st|).
   * Computed by arithmetic on the comparisons rather than branches on them: firepowerOfMoves
   * meets the four arcs in no order a branch predictor could follow. A test checks it against
   * the branching form.
   */
  static arcIndex(dx: number, dy: number, hx: number, hy: number): number {
    const f = dx * hx + dy * hy, st = dx * hy - dy * hx;
    const a = Math.abs(st);
    const notF = 1 - +(f >= a), isR = +(-f >= a);
    return notF * (3 * isR + (1 - isR) * (1 + +(st > 0)));
  }

  /**
   * arcsOf's sine and cosine of a heading not met last time: out of line (the heading is read
   * from its field, not passed), so that arcsOf is small enough for V8 to inline into estimate,
   * which then passes its dx and dy without making a heap number of each.
   */
  private headingTrig(): void {
    this.trigSin = sinDeg(this.trigHeading);
    this.trigCos = cosDeg(this.trigHeading);
  }
  protected trigHeading = NaN;
  protected trigSin = 0;
  protected trigCos = 1;

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
    table[BOUND_SHORT] = -1; // a new value: the bounds are worked out again when next asked
    return v;
  }

  /** The situation table of (attacker type, target type) `pair` for state signature `sig`. */
  protected estTable(pair: number, sig: number): Float64Array {
    if (this.estSig[pair] === sig) return this.estTables[pair];
    // The one in use becomes the one before; the one before, when it fits, the one in use.
    const prev = this.estTables[pair], prevSig = this.estSig[pair];
    let saved: Float64Array | undefined;
    if (this.estSigB[pair] === sig) saved = this.estTablesB[pair];
    else {
      const key = pair * 2 ** 26 + sig;
      saved = this.estSaved.get(key);
      if (!saved) {
        if (this.estSaved.size >= 100_000) this.estSaved.clear(); // bounded memory
        this.estSaved.set(key, (saved = new Float64Array(TABLE_SIZE).fill(-1)));
      }
    }
    this.estTablesB[pair] = prev;
    this.estSigB[pair] = prevSig;
    this.estSig[pair] = sig;
    this.estTables[pair] = saved;
    return saved;
  }

  // firepower(): for the model scoring its moves, the per-enemy values `estimate` works out
  // that do not depend on the pose, kept while the epoch (no damage, no new activation) and the
  // model stay the same. Entry i belongs to reachable(m)[i].
  protected fpStamp = -1;
  protected fpOwner: BattleModel | null = null;
  /** The owner's Fire Control the signatures were made with. */
  protected fpFc = -1;
  protected fpReach = new Float64Array(64);
  protected fpShort = new Float64Array(64);
  /** Each enemy's Structure (at least 1) and TV: the focus weighting. */
  protected fpDiv = new Float64Array(64);
  protected fpTv = new Float64Array(64);
  /** Per enemy i and table slot s, at i * 32 + s: the focus-weighted value (-1: not yet worked out this epoch). */
  protected fpScaled = new Float64Array(64 * 32);
  /** Each enemy's situation table (estTable), or null outside the signature's fields. */
  protected fpTable: Array<Float64Array | null> = [];

  /**
   * PolicyView.firepower: max over reachable(m) of estimate(m, pose, e), with `focus` divided by
   * the target's Structure (at least 1) and times its TV / 10. The same arithmetic as estimate,
   * with what does not depend on the pose computed once per epoch.
   */
  firepower(m: BattleModel, pose: Pose, focus: number): number {
    const list = this.reachable(m);
    const n = list.length;
    const fc = m.state.fireControl();
    this.firepowerReady(m, list, fc);
    let best = 0;
    // The pose is read once: poses reach here from many places (model bases, move options of
    // several shapes), and a property read that must serve them all boxes its number anew.
    const px = pose.x, py = pose.y;
    for (let i = 0; i < n; i++) {
      const tgt = list[i];
      const dx = tgt.base.x - px, dy = tgt.base.y - py;
      const reach = this.fpReach[i];
      const d2 = dx * dx + dy * dy;
      // Out of reach the value is 0, which never beats `best` (never below 0).
      if (d2 > reach * reach) continue;
      const table = this.fpTable[i];
      let v: number;
      if (table) {
        const long = Math.sqrt(d2) - m.bulk - tgt.bulk > this.fpShort[i];
        const arcs = this.arcsOf(m, pose, tgt, dx, dy);
        v = this.slotValue(m, tgt, i, table, long, arcs >> 2, arcs & 3, fc, focus);
      } else {
        const x = this.estimate(m, pose, tgt); // outside the table's signature fields
        v = focus ? x / this.fpDiv[i] * this.fpTv[i] / 10 : x;
      }
      if (v > best) best = v;
    }
    return best;
  }

  /**
   * PolicyView.firepowerOfMoves: firepower(m, options[j].pose, focus) for a whole move menu.
   * The same values by the same arithmetic, worked out enemy by enemy: each enemy's position,
   * table and weights are read once for the menu instead of once per option, and each option's
   * pose once instead of once per enemy. For each option the enemies are still taken in list
   * order, so the running maximum meets the same values in the same order.
   * Only out[0 .. options.length - 1] are written, and out is never cut (MENU_STORE).
   * With `floor` (at least 0), an enemy whose situation table says it is worth at most `floor`
   * from anywhere (or anywhere at long range) is left out (there): above `floor` every value is
   * still exact, and one at or below it stands for one at or below it too. The answer says what
   * was left out (LEFT_NONE, LEFT_BELOW, LEFT_TIE: see PolicyView.firepowerOfMoves).
   */
  firepowerOfMoves(m: BattleModel, options: readonly MoveOption[], focus: number, out: number[], floor = -1): LeftOut {
    const k = options.length;
    const list = this.reachable(m);
    const n = list.length;
    const fc = m.state.fireControl();
    let left: LeftOut = LEFT_NONE;
    if (k === 0) return left;
    this.firepowerReady(m, list, fc);
    if (k > this.moveX.length) {
      const size = 2 * k;
      this.moveX = new Float64Array(size);
      this.moveY = new Float64Array(size);
      this.moveSin = new Float64Array(size);
      this.moveCos = new Float64Array(size);
    }
    const mx = this.moveX, my = this.moveY, ms = this.moveSin, mc = this.moveCos;
    const attCapital = m.unit.isCapital;
    for (let j = 0; j < k; j++) {
      const p = options[j].pose;
      mx[j] = p.x;
      my[j] = p.y;
      // arcsOf's forward vector of the attacker at this pose (used for capital ships only).
      if (attCapital) trigInto(p.heading, ms, mc, j);
      out[j] = 0;
    }
    const mBulk = m.bulk;
    for (let i = 0; i < n; i++) {
      const tgt = list[i];
      const tx = tgt.base.x, ty = tgt.base.y;
      const reach = this.fpReach[i];
      const table = this.fpTable[i];
      if (!table) {
        // Outside the table's signature fields: estimate, as firepower does.
        for (let j = 0; j < k; j++) {
          const dx = tx - mx[j], dy = ty - my[j];
          if (dx * dx + dy * dy > reach * reach) continue;
          const x = this.estimate(m, options[j].pose, tgt);
          const v = focus ? x / this.fpDiv[i] * this.fpTv[i] / 10 : x;
          if (v > out[j]) out[j] = v;
        }
        continue;
      }
      const tgtCapital = tgt.unit.isCapital;
      // Whether the enemy's situations at long range are worth at most the floor.
      let longOut = false;
      if (floor >= 0) {
        // The values are the table's slots (weighted as in slotValue when focused): rounding
        // keeps the order, so none beats its weighted bound.
        this.tableBounds(table, attCapital, tgtCapital);
        const bs = table[BOUND_SHORT], bl = table[BOUND_LONG];
        const wl = focus ? bl / this.fpDiv[i] * this.fpTv[i] / 10 : bl;
        longOut = wl <= floor;
        if (longOut) {
          const ws = focus ? bs / this.fpDiv[i] * this.fpTv[i] / 10 : bs;
          // What is left out is worth at most the larger bound; only a bound equal to the floor
          // lets a value left out tie with it.
          if (left !== LEFT_TIE) left = wl === floor || ws === floor ? LEFT_TIE : LEFT_BELOW;
          if (ws <= floor) continue;
        }
      }
      const tBulk = tgt.bulk, short = this.fpShort[i];
      const reach2 = reach * reach;
      // The band without a square root. Long is sqrt(d2) - mBulk - tBulk > short, which can only
      // change from false to true as d2 grows, and does so near d2 = edge^2 (edge: short plus the
      // bulks); rounding moves that point by far less than a billionth of it. So away from edge^2
      // the band is d2 > edge^2, and within `slack` of it (almost never met) it is worked out
      // exactly as before. The square root's latency sat on the path to the table slot's address.
      // A non-positive edge (not met in practice) always takes the exact path: its slack of
      // 1e308 holds any difference of two finite squares, and edge2 + 2 * slack below overflows to
      // Infinity, as Infinity would. (Infinity itself is a global read that the never-taken
      // branch gave no feedback for: V8 then kept the slack as a boxed number, one per enemy.)
      const edge = short + mBulk + tBulk;
      const edge2 = edge * edge;
      const slack = edge > 0 ? edge2 * 4e-9 : 1e308;
      // Where long range cannot matter, the options clearly beyond the band's edge (the band
      // test says long there without its exact path; twice the slack, against rounding) are
      // left out as those out of reach are.
      const cut = longOut ? Math.min(reach2, edge2 + 2 * slack) : reach2;
      const f = tgt.base.forward();
      const fs = f.sin, fcos = f.cos;
      if (focus) {
        // slotValue's focus path with the enemy's weighted values read from a local (fpScaled is
        // not replaced while a menu is scored): a value not yet worked out is rare (scaledValue).
        const sc = this.fpScaled, base = i * 32;
        for (let j = 0; j < k; j++) {
          const dx = tx - mx[j], dy = ty - my[j];
          const d2 = dx * dx + dy * dy;
          if (d2 > cut) continue;
          let long = d2 > edge2;
          if (Math.abs(d2 - edge2) <= slack) long = Math.sqrt(d2) - mBulk - tBulk > short;
          const myArc = attCapital ? BattleState.arcIndex(dx, dy, ms[j], mc[j]) : 0;
          const aspArc = tgtCapital ? BattleState.arcIndex(-dx, -dy, fs, fcos) : 0;
          const slot = 16 * +long + myArc * 4 + aspArc;
          let v = sc[base + slot];
          if (v < 0) v = this.scaledValue(m, tgt, i, table, slot, long, myArc, aspArc, fc);
          const o = out[j], c = +(v > o);
          out[j] = v * c + o * (1 - c);
        }
        continue;
      }
      for (let j = 0; j < k; j++) {
        const dx = tx - mx[j], dy = ty - my[j];
        const d2 = dx * dx + dy * dy;
        if (d2 > cut) continue; // out of reach (0), or long range where it is worth at most the floor
        let long = d2 > edge2;
        if (Math.abs(d2 - edge2) <= slack) long = Math.sqrt(d2) - mBulk - tBulk > short;
        // arcsOf, with the trigonometry worked out above (arcIndex: arcOfDir without branches).
        const myArc = attCapital ? BattleState.arcIndex(dx, dy, ms[j], mc[j]) : 0;
        const aspArc = tgtCapital ? BattleState.arcIndex(-dx, -dy, fs, fcos) : 0;
        const v = this.slotValue(m, tgt, i, table, long, myArc, aspArc, fc, focus);
        // The running maximum by arithmetic rather than a branch (see firstLegal): whether an
        // enemy beats the best so far follows no pattern a branch predictor could learn. Both are
        // finite and at least +0, so v c + o (1 - c) is exactly v or o.
        const o = out[j], c = +(v > o);
        out[j] = v * c + o * (1 - c);
      }
    }
    return left;
  }
  /**
   * firepower's value of enemy `i` (reachable(m)[i], situation table `table`) in one situation:
   * the volley's expected damage, worked out once per table slot; with `focus`, weighted by the
   * enemy's Structure and TV and kept for the epoch (the two divisions per enemy and move option
   * were a large share of firepower's time).
   */
  private slotValue(m: BattleModel, tgt: BattleModel, i: number, table: Float64Array, long: boolean, myArc: number, aspArc: number, fc: number, focus: number): number {
    const slot = 16 * +long + myArc * 4 + aspArc; // the band by arithmetic too (see arcIndex)
    if (focus) {
      const v = this.fpScaled[i * 32 + slot];
      return v < 0 ? this.scaledValue(m, tgt, i, table, slot, long, myArc, aspArc, fc) : v;
    }
    let x = table[slot];
    if (x < 0) x = this.fillSlot(m, tgt, table, slot, long, myArc, aspArc, fc);
    return x;
  }

  /** The focus-weighted value of situation `slot` for enemy `i`, met for the first time this epoch, kept in fpScaled. */
  private scaledValue(m: BattleModel, tgt: BattleModel, i: number, table: Float64Array, slot: number, long: boolean, myArc: number, aspArc: number, fc: number): number {
    let x = table[slot];
    if (x < 0) x = this.fillSlot(m, tgt, table, slot, long, myArc, aspArc, fc);
    return (this.fpScaled[i * 32 + slot] = x / this.fpDiv[i] * this.fpTv[i] / 10);
  }

  /** Works out situation `slot` of `table` (slotValue's first meeting with it), and drops the table's bound. */
  private fillSlot(m: BattleModel, tgt: BattleModel, table: Float64Array, slot: number, long: boolean, myArc: number, aspArc: number, fc: number): number {
    const x = (table[slot] = this.volleyAt(m, tgt, long ? 'long' : 'short', myArc, aspArc, fc));
    table[BOUND_SHORT] = -1;
    return x;
  }

  /**
   * Puts in table[BOUND_SHORT] and table[BOUND_LONG] the most a situation of `table` at short
   * and at long range can be worth: the largest of its slots the pair can meet (a squadron
   * attacker is always in arc 0, a squadron target always shows aspect 0), or Infinity while one
   * of those is still unknown. Kept until a new slot value resets BOUND_SHORT (to -1).
   */
  private tableBounds(table: Float64Array, attCapital: boolean, tgtCapital: boolean): void {
    if (table[BOUND_SHORT] >= 0) return;
    let bs = 0, bl = 0;
    for (let s = 0; s < 16; s++) {
      if ((!attCapital && (s & 12) !== 0) || (!tgtCapital && (s & 3) !== 0)) continue;
      const xs = table[s], xl = table[s + 16];
      if (xs < 0) bs = Infinity;
      else if (xs > bs) bs = xs;
      if (xl < 0) bl = Infinity;
      else if (xl > bl) bl = xl;
    }
    table[BOUND_LONG] = bl;
    table[BOUND_SHORT] = bs;
  }

  /** firepowerOfMoves' scratch: each option's position and (capital ships) forward vector. */
  protected moveX = new Float64Array(64);
  protected moveY = new Float64Array(64);
  protected moveSin = new Float64Array(64);
  protected moveCos = new Float64Array(64);

  /** firepowerSetup, unless its constants are already those of `m` with Fire Control `fc` this epoch (and have room for `list`). */
  private firepowerReady(m: BattleModel, list: readonly BattleModel[], fc: number): void {
    if (this.fpStamp !== this.epoch || this.fpOwner !== m || this.fpFc !== fc || list.length > this.fpReach.length) this.firepowerSetup(m, list);
  }

  /**
   * Sets up firepower's per-epoch constants for `m` and its reachable enemies `list`. (It once
   * also worked out the first pose's value by estimate; firepower's own path gives the same
   * values by the same arithmetic, without estimate working out again what was just set up.)
   */
  protected firepowerSetup(m: BattleModel, list: readonly BattleModel[]): void {
    const n = list.length;
    if (n > this.fpReach.length) {
      const size = 2 * n;
      this.fpReach = new Float64Array(size);
      this.fpShort = new Float64Array(size);
      this.fpDiv = new Float64Array(size);
      this.fpTv = new Float64Array(size);
      this.fpScaled = new Float64Array(32 * size);
    }
    this.fpScaled.fill(-1, 0, 32 * n);
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
    }
    this.fpStamp = this.epoch;
    this.fpOwner = m;
    this.fpFc = fc;
  }

  protected volleyAt(att: BattleModel, tgt: BattleModel, band: 'short' | 'long', myArc: number, aspArc: number, fc: number): number {
    const arc = ARCS[myArc];
    return this.bestVolley(att, tgt, band, aspectOfArc(ARCS[aspArc]), (w) => (!att.unit.isCapital || w.arcs.includes('T') || w.arcs.includes(arc) ? arc : null), fc);
  }

  /** Best-case volley of `att` on `tgt` (all weapons bear), cached by unit types, band and target Defense. */
  protected volleyValue(att: BattleModel, tgt: BattleModel, band: 'short' | 'long'): number {
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
    const px = pose.x, py = pose.y; // read once (see firepower)
    for (const e of this.enemiesOf(m.side)) {
      if (e.activated) continue;
      const d = Math.max(0, hypot(e.base.x - px, e.base.y - py) - e.bulk - m.bulk - e.unit.speed);
      const band = rangeBand(this.rules.combat, d, m.unit.isCapital ? 'capital' : 'squadron', e.state.sensors);
      if (band !== 'out') t += this.volleyValue(e, m, band);
    }
    return t;
  }

  protected stateText(m: BattleModel): string {
    return m.state.describe();
  }

  /** Squadrons aboard a carrier now. */
  protected aboard(carrier: BattleModel): number {
    let n = 0;
    for (const x of this.models) if (x.carrier === carrier && x.where === 'embarked') n++;
    return n;
  }

  /** The nearest friendly capital ship on the table with free Hangers capacity (GM-18), or null. */
  protected carrierFor(m: BattleModel): BattleModel | null {
    let best: BattleModel | null = null;
    let bestD = Infinity;
    for (const c of this.models) {
      if (c.side !== m.side || !c.unit.isCapital || c.unit.hangers < 1 || !c.fights(this.br.inertHulks)) continue;
      if (this.aboard(c) >= c.unit.hangers) continue;
      const d = hypot(c.base.x - m.base.x, c.base.y - m.base.y);
      if (d < bestD) [best, bestD] = [c, d];
    }
    return best;
  }
}
