// Attacks inside a battle (game.md §5.2, seed 001): which weapons bear on which targets from
// where the bases stand (GM-46 arcs, GM-47 aspect, range between bases from the firer's
// current Sensors), and the attack plans and samplers for them, built once per distinct
// situation and shared by every game of a run.
import { AliasSampler, pickWritten } from '../../dice/alias.js';
import type { Distribution } from '../../dice/exact.js';
import { DIMINISH_ALL, outcomeName } from '../../dice/outcome.js';
import type { CompiledRules } from '../../rules/compile.js';
import type { RandomStream } from '../../rng/stream.js';
import type { UnitCard, WeaponLine } from '../../units/types.js';
import { exactResults, planDistribution, planSampler } from '../attack.js';
import { CAN_ATTACK, defenceDice, planAttack, ratingRefusal, type AttackPlan, type AttackWindowKind, type Situation } from '../attackPlan.js';
import { applyResults, type DamageTally } from '../damage.js';
import { GEOM_EPSILON, QUICK_MARGIN, distance, innerOf, outerOf, separationAbove } from '../geometry.js';
import { aspect, aspectOfArc, canBear, longRangeMax, rangeBand, type FacingArc } from '../geometryArcs.js';
import { CLOAK, COUNTERMEASURES, CombatState } from '../state.js';
import type { PlaceholderUsage } from '../usage.js';
import type { BattleModel } from './model.js';

/**
 * What depends only on the distribution of an attack's Results: the dice memo hands out one
 * shared object per pool (or pair of pools), and many situations roll the same dice, so these
 * are worked out once per distribution rather than once per situation.
 */
interface ByDistribution {
  /** Mean Structure damage against an undamaged target, per unit card. */
  readonly expected: Map<UnitCard, number>;
  /** The distribution's alias sampler, made with the first entry that uses it. */
  sampler: AliasSampler | null;
  /** The sampler's index in the arena. */
  at: number;
  /**
   * The samplers with a Cloak test of so many dice folded in, and their arena indices, by that
   * number: the same distribution with the same test makes the same sampler, so it is made once
   * rather than for every entry that rolls it (store() would find its copy, but only after the
   * sampler had been made again and written out).
   */
  readonly cloaked: Map<number, { readonly sampler: AliasSampler; readonly at: number }>;
}

/**
 * fireAt's roll code of an entry: where its sampler lies in the arena times 64, plus the
 * sampler's column count where that is below 64 (0: read it from the arena, as pickWritten does).
 */
const rollCode = (e: ShotEntry): number => e.at * 64 + (e.sampler.size < 64 ? e.sampler.size : 0);
/** The arena's bound for roll codes to stay 32-bit integers. */
const ARENA_MAX = 2 ** 25 - 4096 * 2 - 1;

/**
 * The slot where the table's probe for situation `key` of pair `id` starts (linear probing from
 * there), for a table of 2^(32 - shift) slots. One function for every probe: a lookup hashed
 * otherwise than the insert would never find its entry.
 */
function tableHome(id: number, key: number, shift: number): number {
  return Math.imul(Math.imul(id, 0x85ebca6b) ^ key, 0x9e3779b1) >>> shift;
}

const hashF64 = new Float64Array(1);
const hashU32 = new Uint32Array(hashF64.buffer);

/** A hash of t[from..to): equal numbers (0 and -0 alike, as === has them) hash alike. */
function arenaHash(t: Float64Array, from: number, to: number): number {
  let h = to - from;
  for (let i = from; i < to; i++) {
    hashF64[0] = t[i] + 0; // -0 + 0 is 0
    h = Math.imul(h ^ hashU32[0], 0x9e3779b1);
    h = Math.imul(h ^ hashU32[1], 0x85ebca6b);
    h ^= h >>> 15;
  }
  return h | 0;
}

/** Gunnery.watch: an entry handed out (null: no attack) and the situation it was asked for. */
export type ShotWatcher = (entry: ShotEntry | null, att: BattleModel, w: WeaponLine, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arc: FacingArc, mods: ShotMods) => void;

export class ShotEntry {
  constructor(
    readonly plan: AttackPlan,
    /** Mean Structure damage against an undamaged target of that type (for policies and ordering). */
    readonly expected: number,
    /**
     * The sampler of the attack's Results, made with the entry (most entries share their
     * distribution's). fire() rolls from its copy in the arena (`at`) rather than from here.
     */
    readonly sampler: AliasSampler,
    /** Where the Gunnery's arena holds a copy of the sampler (AliasSampler.writeTo), which fire() rolls from. */
    readonly at: number,
  ) {}
}

/** Situation modifiers of one attacker's activation against one target. */
export interface ShotMods {
  /** Flex dice from the situation (Station Keep target, Concentrated Fire, Assault). */
  flex: number;
  /** Extra [N] rerolls (passed Concentrated Fire). */
  rerolls: number;
  /** Attack Windows of dogfights, bombing and assaults (combat.md §8.2, §11). */
  noMissileDefence?: boolean;
  ignoreArmor?: boolean;
  assault?: boolean;
  /** The Attack Window (absent: the model's own Activation). */
  window?: AttackWindowKind;
  /** Flex dice for non-missile attacks only (Concentrated Fire). */
  nonMissileFlex?: number;
  /** Friendly models of the target supporting its missile defence (combat.md §4.3). */
  missileSupporters?: number;
  /** Counts `missileSupporters` when it is absent: asked only once a missile attack on this target needs it. */
  supporters?: () => number;
  /** The Barrier Defense the target may defend with, and whether its lenders all support (Situation.barrierDefense, barrierSupporting). */
  barrierDefense?: number;
  barrierSupporting?: boolean;
  /** Sets `barrierDefense` and `barrierSupporting` when absent: asked only once a defended attack on this target needs them. */
  barrier?: (mods: ShotMods) => void;
  /** Weapons with the Nuke or Bomb trait may not fire (dogfights). */
  noBombs?: boolean;
}

/**
 * The same modifiers as an object with every field of ShotMods present (undefined where `m`
 * leaves one out), always in the interface's order. entry() reads a dozen of them per call;
 * objects made in different places with different fields, and fields added later (the
 * supporter count, Barrier cover), each had a shape of their own, and a read that must serve
 * many shapes is far slower than a read of one.
 */
export function shotMods(m: ShotMods): ShotMods {
  return {
    flex: m.flex,
    rerolls: m.rerolls,
    noMissileDefence: m.noMissileDefence,
    ignoreArmor: m.ignoreArmor,
    assault: m.assault,
    window: m.window,
    nonMissileFlex: m.nonMissileFlex,
    missileSupporters: m.missileSupporters,
    supporters: m.supporters,
    barrierDefense: m.barrierDefense,
    barrierSupporting: m.barrierSupporting,
    barrier: m.barrier,
    noBombs: m.noBombs,
  };
}

// Indices of the string-valued situation fields, by comparisons rather than reads of a table
// by a variable key (a keyed load, with its string hashing, on every call of entry()).
/** The Attack Window's index: activation (absent) 0, dogfight 1, bombing 2, assault 3, boarding 4. */
const windowIndex = (w: AttackWindowKind | undefined): number => (w === undefined || w === 'activation' ? 0 : w === 'dogfight' ? 1 : w === 'bombing' ? 2 : w === 'assault' ? 3 : 4);
/** fireAt's marks for a weapon line whose entry is not looked up yet, for one that cannot attack, and for one refused for the whole target. */
const UNASKED = -2, NO_ENTRY = -1, REFUSED = -3;
/**
 * Gunnery.lineBits' flags: known, refused, Nuke or Bomb, then the line's class (missile; Mass
 * Driver or Kinetic Cannon) and whether it is a turret (arcs hold T). The class and arcs are
 * read from these bits rather than from the weapon line: the class strings of unit data need
 * not be internalized, so each comparison with one was a call of the string comparison builtin.
 */
const KNOWN_BIT = 1, REFUSED_BIT = 2, BOMB_BIT = 4, MISSILE_BIT = 8, KINETIC_BIT = 16, TURRET_BIT = 32;
/** A weapon class's point defence group as lineBits holds it: MISSILE_BIT, KINETIC_BIT (Mass Drivers and Kinetic Cannon), or 0 (none). */
const classBits = (cls: WeaponLine['cls']): number => (cls === 'missile' ? MISSILE_BIT : cls === 'mass_driver' || cls === 'kinetic_cannon' ? KINETIC_BIT : 0);
/** The aspect's index: front 0, side 1, rear 2. */
const aspectIndex = (a: Situation['aspect']): number => (a === 'front' ? 0 : a === 'side' ? 1 : 2);
/** The arc's index in F, P, S, R order. */
const arcIndex = (a: FacingArc): number => (a === 'F' ? 0 : a === 'P' ? 1 : a === 'S' ? 2 : 3);

// A situation key (Gunnery.keyOf) is targetKey's part times LINE_KEYS plus the line's part:
// whether a capital ship's fixed line is off the arc (1 bit), Concentrated Fire's rerolls (1 bit)
// and Flex (2 bits) for non-missile lines, and defenceKey's part (8 bits). The largest key,
// 3840 target parts times 4096, is below 2^31.
const LINE_KEYS = 4096;
const lineKey = (offArc: boolean, nonMissile: number, defence: number): number => ((offArc ? 8 : 0) + nonMissile) * 256 + defence;
/** The non-missile part of lineKey: Concentrated Fire's rerolls and Flex (neither applies to missiles). */
const nonMissileKey = (mods: ShotMods): number => Math.min(1, mods.rerolls) * 4 + Math.min(3, mods.nonMissileFlex ?? 0);
/** defenceDice gives Mass Driver and Kinetic Cannon attacks no roll in this window (its own test). */
const noKineticDefence = (c: CompiledRules['combat'], mods: ShotMods): boolean => {
  const w = mods.window ?? 'activation';
  return c.barrierCoversKinetic ? w === 'dogfight' || w === 'assault' || w === 'boarding' : mods.noMissileDefence === true;
};

export interface AttackRecord {
  /** The attacking model (in a dogfight or bombing run the opponent may attack too). */
  attacker: string;
  /** Attack Window within the activation: 0 for the model's own attacks, then 1, 2, ... for dogfight, bombing and assault windows. */
  window: number;
  weapon: string;
  target: string;
  range: number;
  band: 'short' | 'long';
  aspect: Situation['aspect'];
  results: string;
  structureDamage: number;
  targetAfter: string;
}

export class Gunnery {
  // The shot entries, by attacker type, weapon line and target type (a pair), then by
  // situation. Each pair gets a small number (pairId, from 1) when first met; its two
  // situations asked last sit in flat arrays at 2 id (the most recent) and 2 id + 1, with their
  // keys (-1: none) and expected damage. Every entry is also in one open-addressing table by
  // pair and key (tabPair 0: empty), with its expected damage beside it. The hot data are a few
  // small typed arrays: a Map per pair, and the entry read for its expected damage, each took a
  // chain of loads that often missed the cache.
  /**
   * Pair number by (attacker's unit index * 64 + target's unit index) * 64 + weapon index; 0:
   * none yet. A battle has at most 64 unit types (BattleState) and a card at most 64 weapon
   * lines (MAX_WEAPON_LINES, units schema), so every pair has its own index.
   */
  private readonly pairId = new Int32Array(64 * 64 * 64);
  private pairs = 0;
  private memoKey = new Int32Array(0);
  private memoExp = new Float64Array(0);
  /** The entry's roll code (rollCode: where its sampler lies in the arena, and its size; -1 for null), beside memoExp and tabExp. */
  private memoAt = new Int32Array(0);
  private tabPair = new Int32Array(1024);
  private tabKey = new Int32Array(1024);
  private tabExp = new Float64Array(1024);
  private tabAt = new Int32Array(1024);
  private tabEnt: Array<ShotEntry | null> = new Array<ShotEntry | null>(1024).fill(null);
  /** 32 - log2 of the table's size: a multiplicative hash's top bits pick the first slot. */
  private tabShift = 22;
  private tabCount = 0;
  /** Shots of the activation in progress: per weapon line, instances already fired. */
  private readonly used = new Int8Array(64);
  /** Per shared distribution object (weakly held: the dice memo may start afresh). */
  private readonly byDist = new WeakMap<Distribution, ByDistribution>();

  constructor(
    private readonly rules: CompiledRules,
    private readonly usage: PlaceholderUsage,
  ) {}

  /**
   * The attack of weapon line `w` of `att` on `tgt` in this situation; null when it cannot be
   * made. `key`: the situation's key (keyOf), where the caller has worked it out already.
   */
  entry(att: BattleModel, w: WeaponLine, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arc: FacingArc, mods: ShotMods, key: number = this.keyOf(att, w, tgt, band, asp, arc, mods)): ShotEntry | null {
    const id = this.pairOf((att.unitIndex * 64 + tgt.unitIndex) * 64 + w.index);
    if (this.memoKey[2 * id] !== key && this.recall(id, key) < 0) this.learn(id, key, att, w, tgt, band, asp, arc, mods);
    const e = this.entryOf(id, key);
    if (this.watch !== null) this.watch(e, att, w, tgt, band, asp, arc, mods);
    return e;
  }

  /**
   * Tests' observation point: when set, called with every entry handed out, by entry() and by
   * fire(), and the situation it was asked for. fire() reads it once per call, and only where
   * it is set does it look up the entry object (its own lookups use the memo's numbers alone).
   */
  watch: ShotWatcher | null = null;

  /** The entry of situation `key` of pair `id`, which the table holds. */
  private entryOf(id: number, key: number): ShotEntry | null {
    const tp = this.tabPair, tk = this.tabKey, mask = tp.length - 1;
    let h = tableHome(id, key, this.tabShift);
    while (tp[h] !== id || tk[h] !== key) h = (h + 1) & mask;
    return this.tabEnt[h];
  }

  /**
   * The situation key of entry(): what the plan of weapon line `w` of `att` on `tgt` depends on.
   * The unit types and weapon line pick a pair (pairOf), then a small-integer key picks the
   * situation (one key for all of it would need more than 31 bits, and Maps hash such numbers
   * far more slowly). The key leaves out what the plan does not depend on, so that situations
   * which differ only there share one entry: planning a new situation (planAttack and the
   * lookups of its distributions) was a few percent of a run's time even after thousands of
   * games. It is made of a part that depends only on the target and the fire (targetKey, the
   * same for every weapon line) and a part for the line (lineKey), so that fireAt works out the
   * first once per target rather than once per line.
   */
  private keyOf(att: BattleModel, w: WeaponLine, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arc: FacingArc, mods: ShotMods): number {
    const missile = w.cls === 'missile';
    // The firer's arc enters the plan only through planAttack's test that a capital ship's fixed
    // weapon bears through it: every arc a weapon bears through gives the same plan (one bit
    // keeps the arcs it does not bear through apart).
    const offArc = att.unit.isCapital && !w.arcs.includes('T') && !w.arcs.includes(arc);
    return this.targetKey(tgt, band, asp, mods) + lineKey(offArc, missile ? 0 : nonMissileKey(mods), this.defenceKey(tgt, w.cls, mods));
  }

  /** The target's and the fire's part of a situation key (a multiple of LINE_KEYS). */
  private targetKey(tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], mods: ShotMods): number {
    let key = band === 'long' ? 1 : 0;
    key = key * 3 + aspectIndex(asp);
    key = key * 4 + Math.min(3, mods.flex);
    key = key * 8 + (mods.noMissileDefence ? 1 : 0) + (mods.ignoreArmor ? 2 : 0) + (mods.assault ? 4 : 0);
    key = key * 5 + windowIndex(mods.window);
    key = key * 2 + (tgt.evading ? 1 : 0);
    // Cloak calls for a Skill Test at long range only.
    key = key * 2 + (band === 'long' && tgt.state.systemWorking(CLOAK) ? 1 : 0);
    return key * LINE_KEYS;
  }

  /**
   * The point defence roll's part of a situation key, for attacks of class `cls`: the roll of
   * defenceDice, packed, and whether Countermeasures reroll it. The same for every line of a
   * class group (missiles; Mass Drivers and Kinetic Cannon; the rest, which have none).
   */
  private defenceKey(tgt: BattleModel, cls: WeaponLine['cls'], mods: ShotMods): number {
    const group = classBits(cls);
    return group === 0 ? 0 : this.pointDefenceKey(tgt, group === MISSILE_BIT, mods);
  }

  /**
   * defenceKey for missiles (`missile`) or for Mass Drivers and Kinetic Cannon, which defenceDice
   * treats alike (it is given one of the two): the class as a flag, so that fireAt, which knows
   * it from lineBits, makes no string comparison.
   */
  private pointDefenceKey(tgt: BattleModel, missile: boolean, mods: ShotMods): number {
    // The point defence roll, for attacks the target (or a friendly Barrier model) can oppose.
    if (missile && mods.noMissileDefence) return 0;
    const t = tgt.state, c = this.rules.combat;
    if (missile && mods.missileSupporters === undefined && mods.supporters) mods.missileSupporters = mods.supporters();
    // A lender matters to missiles, and to kinetic fire only where Barrier covers friends against
    // it (v1.2.2), and not in the windows where defenceDice gives kinetic fire no roll at all
    // (there it returns 0 before it reads the lender: the cover, which measures the line of
    // fire, is not worked out for the Engages of a dogfight).
    if (mods.barrierDefense === undefined && mods.barrier && (missile || (c.barrierCoversKinetic && !noKineticDefence(c, mods)))) mods.barrier(mods);
    const dd = defenceDice(c, t, missile ? 'missile' : 'mass_driver', mods);
    // Countermeasures reroll the point defence roll: they matter only where there is one.
    return (Math.min(31, dd >> 2) * 4 + (dd & 3)) * 2 + (dd > 0 && t.systemWorking(COUNTERMEASURES) ? 1 : 0);
  }

  // The lookup, in three parts so that fire()'s own code holds only the first: the pair's number
  // (pairOf) and a test of its most recent situation's key; then recall(), a call, for the
  // second most recent and the table; then learn(), for a situation never met. The situations
  // asked last for a pair come up again most often, so the last two are kept apart from the
  // table (about half the lookups end at the first). The memo slots carry only the numbers
  // fire() reads (the key, expected damage and roll code): the entry object stays in the table,
  // which entry() (policies, tests) probes for it.

  /**
   * The number of pair `p`: (attacker's unit index * 64 + target's unit index) * 64 + weapon
   * index, so that the lines fireAt looks up one after another for a target lie side by side.
   */
  private pairOf(p: number): number {
    const id = this.pairId[p];
    return id !== 0 ? id : this.newPair(p);
  }

  /**
   * Moves situation `key` of pair `id` to the pair's most recent slot (2 id) from its second
   * slot or from the table, and returns that slot; -1 when the table does not hold it yet.
   */
  private recall(id: number, key: number): number {
    const s = 2 * id, mk = this.memoKey;
    if (mk[s + 1] === key) {
      // The two slots swap: the arguments are read before remember() moves slot s to s + 1.
      this.remember(s, key, this.memoExp[s + 1], this.memoAt[s + 1]);
      return s;
    }
    const tp = this.tabPair, tk = this.tabKey, mask = tp.length - 1;
    let h = tableHome(id, key, this.tabShift);
    for (;;) {
      const q = tp[h];
      if (q === 0) return -1;
      if (q === id && tk[h] === key) break;
      h = (h + 1) & mask;
    }
    this.remember(s, key, this.tabExp[h], this.tabAt[h]);
    return s;
  }

  /** Plans situation `key` of pair `id` (not in the table), adds it there and to the pair's most recent slot, returned. */
  private learn(id: number, key: number, att: BattleModel, w: WeaponLine, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arc: FacingArc, mods: ShotMods): number {
    const e = this.plan(att, w, tgt, band, asp, arc, mods);
    const x = e ? e.expected : 0, a = e ? rollCode(e) : -1;
    this.insert(id, key, e, x, a);
    this.remember(2 * id, key, x, a);
    return 2 * id;
  }

  /** Puts a situation in slot `s` (most recent), the one there before moving to s + 1. */
  private remember(s: number, key: number, x: number, a: number): void {
    const mk = this.memoKey, exps = this.memoExp, ats = this.memoAt;
    mk[s + 1] = mk[s];
    exps[s + 1] = exps[s];
    ats[s + 1] = ats[s];
    mk[s] = key;
    exps[s] = x;
    ats[s] = a;
  }

  /** Numbers pair `p` (pairOf) and makes room for it in the arrays of the last two situations. */
  private newPair(p: number): number {
    const id = ++this.pairs;
    this.pairId[p] = id;
    if (2 * id + 1 >= this.memoKey.length) {
      const n = Math.max(64, 4 * id);
      const key = new Int32Array(n).fill(-1);
      key.set(this.memoKey);
      const exp = new Float64Array(n);
      exp.set(this.memoExp);
      const at = new Int32Array(n);
      at.set(this.memoAt);
      this.memoKey = key;
      this.memoExp = exp;
      this.memoAt = at;
    }
    return id;
  }

  /** Adds an entry to the table (not there yet), doubling it when half full. */
  private insert(id: number, key: number, e: ShotEntry | null, x: number, a: number): void {
    if (2 * (this.tabCount + 1) > this.tabPair.length) {
      const tp = this.tabPair, tk = this.tabKey, te = this.tabEnt, tx = this.tabExp, ta = this.tabAt;
      const n = 2 * tp.length;
      this.tabPair = new Int32Array(n);
      this.tabKey = new Int32Array(n);
      this.tabExp = new Float64Array(n);
      this.tabAt = new Int32Array(n);
      this.tabEnt = new Array<ShotEntry | null>(n).fill(null);
      this.tabShift--;
      this.tabCount = 0;
      for (let i = 0; i < tp.length; i++) if (tp[i] !== 0) this.insert(tp[i], tk[i], te[i], tx[i], ta[i]);
    }
    const tp = this.tabPair, mask = tp.length - 1;
    let h = tableHome(id, key, this.tabShift);
    while (tp[h] !== 0) h = (h + 1) & mask;
    tp[h] = id;
    this.tabKey[h] = key;
    this.tabExp[h] = x;
    this.tabAt[h] = a;
    this.tabEnt[h] = e;
    this.tabCount++;
  }

  /**
   * The entry of a situation entry() has not met before: its plan, expected damage and shared
   * distribution record. Kept out of entry(), which runs hundreds of times a game to this one's
   * once or twice, so that entry's optimized code holds only the key and the lookups.
   */
  private plan(att: BattleModel, w: WeaponLine, tgt: BattleModel, band: 'short' | 'long', asp: Situation['aspect'], arc: FacingArc, mods: ShotMods): ShotEntry | null {
    const t = tgt.state;
    const short = t.unit.isCapital ? this.rules.combat.shortRangeAC : this.rules.combat.shortRangeAS;
    const at: Situation = {
      rangeInches: band === 'short' ? 0 : short + 0.001,
      aspect: asp,
      targetArc: w.arcs.includes('T') || !att.unit.isCapital ? (w.arcs.find((a) => a !== 'T') as FacingArc | undefined) ?? 'F' : arc,
      extraFlex: mods.flex,
      extraRerolls: mods.rerolls,
      noMissileDefence: mods.noMissileDefence,
      ignoreArmor: mods.ignoreArmor,
      assault: mods.assault,
      targetEvading: tgt.evading,
      window: mods.window,
      nonMissileFlex: mods.nonMissileFlex,
      missileSupporters: w.cls === 'missile' ? mods.missileSupporters : 0,
      barrierDefense: mods.barrierDefense,
      barrierSupporting: mods.barrierSupporting,
    };
    // The range check of planAttack uses the attacker's Sensors: the band was measured with them.
    const r = planAttack(this.rules, att.state, w, t, at, this.usage);
    if (!r.ok) return null;
    // The expected damage leaves out the Cloak test (as exactAttack of the plan without it).
    const dist = planDistribution(this.rules, r.plan, false);
    let sh = this.byDist.get(dist);
    if (sh === undefined) this.byDist.set(dist, (sh = { expected: new Map(), sampler: null, at: -1, cloaked: new Map() }));
    let expected = sh.expected.get(t.unit);
    if (expected === undefined) {
      expected = exactResults(this.rules, dist, new CombatState(t.unit)).summary.meanStructureDamage;
      sh.expected.set(t.unit, expected);
    }
    // Without a Cloak test planSampler would sample the very distribution the record holds.
    if (r.plan.cloakTestDice !== 0) {
      // planDistribution with the test scales `dist` by the test's pass chance, which depends on
      // the rules and the number of dice alone.
      let c = sh.cloaked.get(r.plan.cloakTestDice);
      if (c === undefined) {
        const own = planSampler(this.rules, r.plan, true);
        sh.cloaked.set(r.plan.cloakTestDice, (c = { sampler: own, at: this.store(own) }));
      }
      return new ShotEntry(r.plan, expected, c.sampler, c.at);
    }
    if (sh.sampler === null) {
      sh.sampler = new AliasSampler(dist);
      sh.at = this.store(sh.sampler);
    }
    return new ShotEntry(r.plan, expected, sh.sampler, sh.at);
  }

  // Every sampler an entry rolls with, copied one after another into one array (the arena):
  // fire() rolls from there. A roll through the entry, its sampler and the sampler's table
  // followed three or four pointers, each often a load from memory (a battle meets each of
  // hundreds of samplers now and then); from the arena it is one read, near the next.
  private arena = new Float64Array(4096);
  private arenaLen = 0;

  /** Where the samplers copied so far lie in the arena, by a hash of their written numbers (arenaHash). */
  private readonly arenaAt = new Map<number, number[]>();

  /**
   * Where sampler `a` lies in the arena: copied to its end, unless a sampler with the very same
   * columns is there already (distributions reached by different pools can be equal), whose copy
   * then serves both. A smaller arena is read from the processor's caches more often.
   */
  private store(a: AliasSampler): number {
    if (this.arenaLen >= ARENA_MAX) throw new Error('gunnery: the sampler arena outgrew its roll codes');
    const need = this.arenaLen + 1 + 2 * a.size;
    if (need > this.arena.length) {
      const grown = new Float64Array(Math.max(2 * this.arena.length, need));
      grown.set(this.arena);
      this.arena = grown;
    }
    const t = this.arena, at = this.arenaLen, end = a.writeTo(t, at);
    // The copy of an equal sampler: every number the same (the first is the column count, so
    // equal first numbers mean equal lengths). Found through a hash of the numbers rather than
    // their text, which took longer to write than the sampler took to make.
    const h = arenaHash(t, at, end);
    const same = this.arenaAt.get(h);
    if (same !== undefined) {
      for (const p of same) {
        let i = 0;
        while (at + i < end && t[p + i] === t[at + i]) i++;
        if (at + i === end) return p;
      }
      same.push(at);
    } else this.arenaAt.set(h, [at]);
    this.arenaLen = end;
    return at;
  }

  /** The arc of `att` a weapon line fires through at `tgt`, or null when none bears (GM-46). */
  bearing(att: BattleModel, w: WeaponLine, tgt: BattleModel): FacingArc | null {
    if (!att.unit.isCapital || w.arcs.includes('T')) return 'F';
    for (const a of w.arcs) if (a !== 'T' && canBear(att.base, a, tgt.base)) return a;
    return null;
  }

  // Which of the firer's arcs bear on the current target, worked out once per arc per target
  // (positions do not change while one target is fired at): bit i of `arcsKnown` says arc
  // i (arcIndex) was tested, bit i of `arcsBear` the answer.
  private arcsKnown = 0;
  private arcsBear = 0;

  /** bearing() for the target being fired at, reusing the arc tests of earlier weapon lines. */
  private bearingNow(att: BattleModel, w: WeaponLine, tgt: BattleModel, turret: boolean): FacingArc | null {
    if (!att.unit.isCapital || turret) return 'F';
    // Indexed loops here and in fireAt: the for-of loops left an array iterator allocation in
    // the optimized code.
    const arcs = w.arcs;
    for (let j = 0; j < arcs.length; j++) {
      const a = arcs[j];
      if (a === 'T') continue;
      const bit = 1 << arcIndex(a);
      if ((this.arcsKnown & bit) === 0) {
        this.arcsKnown |= bit;
        if (canBear(att.base, a, tgt.base)) this.arcsBear |= bit;
      }
      if (this.arcsBear & bit) return a;
    }
    return null;
  }

  startActivation(): void {
    this.used.fill(0);
    this.windowIndex = 0;
    this.windows = 0;
  }

  private readonly saved = new Int8Array(64);
  /** The Attack Window being logged: 0 for a model's own attacks; numbered from 1 within an activation. */
  private windowIndex = 0;
  private windows = 0;
  /**
   * fire() in a separate Attack Window: with every weapon unused, then the activation's record
   * restored. (Taking fire's arguments rather than a function to run saves a closure per
   * dogfight Engage.)
   */
  fireInWindow(att: BattleModel, order: readonly BattleModel[], fc: number, modsFor: (t: BattleModel) => ShotMods, rng: RandomStream, tally: DamageTally, log: AttackRecord[] | null, onDamage: (target: BattleModel) => boolean): number {
    // Only the attacker's own weapon lines are used in the window: those slots are saved and
    // cleared, and the rest left as they are (the builtins' set and fill over all 64 slots, three
    // calls per window, cost more than these few stores).
    const used = this.used, saved = this.saved, n = att.unit.weapons.length;
    for (let i = 0; i < n; i++) {
      saved[i] = used[i];
      used[i] = 0;
    }
    const outer = this.windowIndex;
    this.windowIndex = ++this.windows;
    try {
      return this.fire(att, order, fc, modsFor, rng, tally, log, onDamage);
    } finally {
      for (let i = 0; i < n; i++) used[i] = saved[i];
      this.windowIndex = outer;
    }
  }

  /**
   * Fires the attacker's unused weapons at the targets in the given order, spending Fire
   * Control one attack at a time (each weapon instance once, §5.2), best expected damage
   * first on each target. After each attack `onDamage(target)` does the caller's bookkeeping;
   * true stops the fire (the game ended). Returns the Fire Control left.
   */
  fire(att: BattleModel, order: readonly BattleModel[], fc: number, modsFor: (t: BattleModel) => ShotMods, rng: RandomStream, tally: DamageTally, log: AttackRecord[] | null, onDamage: (target: BattleModel) => boolean): number {
    const weapons = att.unit.weapons;
    // The scratch lists are shared by the outermost call only; a nested one gets its own.
    const outer = this.firing === 0;
    const ents = outer ? this.ents : new Int32Array(weapons.length);
    const exp = outer ? this.entsExpected : new Float64Array(weapons.length);
    this.firing++;
    try {
      return this.fireAt(att, weapons, ents, exp, order, fc, modsFor, rng, tally, log, onDamage);
    } finally {
      this.firing--;
    }
  }

  private fireAt(att: BattleModel, weapons: readonly WeaponLine[], ents: Int32Array, exp: Float64Array, order: readonly BattleModel[], fc: number, modsFor: (t: BattleModel) => ShotMods, rng: RandomStream, tally: DamageTally, log: AttackRecord[] | null, onDamage: (target: BattleModel) => boolean): number {
    const used = this.used, nw = weapons.length, attCap = att.unit.isCapital, watch = this.watch;
    for (let oi = 0; oi < order.length; oi++) {
      const tgt = order[oi];
      if (fc <= 0) break;
      if (tgt.where !== 'table' || tgt.state.destroyed) continue;
      // The target's modifiers first: they say which lines may attack it at all. Lines spent,
      // or refused whatever the geometry (only Macro 0 weapons against an Assaulting squadron,
      // combat.md §11.4; no Nuke or Bomb in a dogfight, §7; no rating against its kind, which
      // planAttack would turn down), are marked REFUSED for the whole target; where
      // every line is, the target gets no attack, and its range, aspect and arcs are not
      // measured (a capital ship whose lines against squadrons are spent meets many such).
      const mods = modsFor(tgt);
      const tgtCap = tgt.unit.isCapital, assaulting = tgt.assaulting !== null, noBombs = mods.noBombs === true;
      let any = false;
      const at0 = (att.unitIndex * 64) * 4 + (tgtCap ? 2 : 0) + (mods.assault ? 1 : 0);
      for (let i = 0; i < nw; i++) {
        const w = weapons[i];
        const k = at0 + w.index * 4;
        const bits = this.lineBits[k] || this.learnLine(k, attCap, w, tgtCap, mods.assault);
        if (used[i] >= w.count || (bits & REFUSED_BIT) !== 0 || (noBombs && (bits & BOMB_BIT) !== 0) || (assaulting && w.macro !== 0)) ents[i] = REFUSED;
        else {
          ents[i] = UNASKED;
          any = true;
        }
      }
      if (!any) continue;
      const kind = tgtCap ? 'capital' : 'squadron';
      // The band from two comparisons (both limits inclusive, as rangeBand): the outlines are
      // measured only when the base radii do not settle them, or for the trace.
      let dist = -1;
      let band: 'short' | 'long' | 'out';
      if (log) {
        dist = distance(att.base, tgt.base);
        band = rangeBand(this.rules.combat, dist, kind, att.state.sensors);
      } else {
        // separationAbove's two radius tests written out here, the call made only when they
        // leave a limit open: the call boxed its threshold (fireAt is too big for V8 to inline
        // separationAbove), two heap numbers per target.
        const c = this.rules.combat, ab = att.base, tb = tgt.base;
        const bdx = tb.x - ab.x, bdy = tb.y - ab.y, d2 = bdx * bdx + bdy * bdy;
        const oa = outerOf(ab), ob = outerOf(tb), ia = innerOf(ab), ib = innerOf(tb);
        const ts = (kind === 'capital' ? c.shortRangeAC : c.shortRangeAS) + GEOM_EPSILON;
        let far = ts + oa + ob + QUICK_MARGIN, near = ts + ia + ib - QUICK_MARGIN;
        const aboveShort = far < 0 || d2 > far * far ? true : near >= 0 && d2 <= near * near ? false : separationAbove(ab, tb, ts);
        if (!aboveShort) band = 'short';
        else {
          const tl = longRangeMax(c, kind, att.state.sensors) + GEOM_EPSILON;
          far = tl + oa + ob + QUICK_MARGIN;
          near = tl + ia + ib - QUICK_MARGIN;
          const aboveLong = far < 0 || d2 > far * far ? true : near >= 0 && d2 <= near * near ? false : separationAbove(ab, tb, tl);
          band = aboveLong ? 'out' : 'long';
        }
      }
      if (band === 'out') continue;
      const asp = aspectOfArc(aspect(att.base, tgt.base));
      this.arcsKnown = 0;
      this.arcsBear = 0;
      // Each weapon line's entry for this target, looked up again only when an attack changed
      // what entry() keys on (Defense, knocked-out systems, Evading), kept as its roll code
      // (rollCode) (UNASKED: not looked up yet; NO_ENTRY: it cannot attack here;
      // REFUSED: see above, never asked).
      // Evading as 0 or 1: a comparison of two booleans compiled to a call of the generic
      // equality builtin, on every attack.
      let defense = tgt.state.defense, disabled = tgt.state.disabledSystems, evading = tgt.evading ? 1 : 0;
      // The parts of the situation keys (keyOf) shared by the lines, worked out when the first
      // line needs them (-1: not yet): the target's, and the point defence's of missiles and of
      // Mass Drivers and Kinetic Cannon. Every line asked here has offArc false: bearingNow
      // gives a capital ship's fixed line an arc from its own list.
      let tk = -1, dkMissile = -1, dkKinetic = -1;
      const nmk = nonMissileKey(mods), pt = (att.unitIndex * 64 + tgt.unitIndex) * 64;
      for (;;) {
        if (fc <= 0 || tgt.state.destroyed) break;
        const t = tgt.state;
        if (t.defense !== defense || t.disabledSystems !== disabled || (tgt.evading ? 1 : 0) !== evading) {
          for (let i = 0; i < nw; i++) if (ents[i] !== REFUSED) ents[i] = UNASKED;
          tk = dkMissile = dkKinetic = -1;
          defense = t.defense;
          disabled = t.disabledSystems;
          evading = tgt.evading ? 1 : 0;
        }
        let bestW = -1;
        let bestExp = 0;
        for (let i = 0; i < nw; i++) {
          let e = ents[i];
          if (e === REFUSED) continue;
          const w = weapons[i];
          if (used[i] >= w.count) continue;
          if (e === UNASKED) {
            // Lines planAttack turns down for their class or ratings alone are REFUSED above:
            // not asked, their keys (with the missile supporters they may count) not worked out.
            // The line's class and turret flag, from the bits the first pass learned.
            const lb = this.lineBits[at0 + w.index * 4];
            const arc = this.bearingNow(att, w, tgt, (lb & TURRET_BIT) !== 0);
            if (arc) {
              // The memo's arrays give its roll code and its expected damage: the entry
              // itself (often a load from memory) is not read.
              if (tk < 0) tk = this.targetKey(tgt, band, asp, mods);
              const missile = (lb & MISSILE_BIT) !== 0;
              let dk = 0;
              if (missile) dk = dkMissile >= 0 ? dkMissile : (dkMissile = this.pointDefenceKey(tgt, true, mods));
              else if ((lb & KINETIC_BIT) !== 0) dk = dkKinetic >= 0 ? dkKinetic : (dkKinetic = this.pointDefenceKey(tgt, false, mods));
              const key = tk + lineKey(false, missile ? 0 : nmk, dk);
              const id = this.pairOf(pt + w.index);
              let s = 2 * id;
              if (this.memoKey[s] !== key && (s = this.recall(id, key)) < 0) s = this.learn(id, key, att, w, tgt, band, asp, arc, mods);
              e = ents[i] = this.memoAt[s];
              exp[i] = this.memoExp[s];
              if (watch !== null) watch(this.entryOf(id, key), att, w, tgt, band, asp, arc, mods);
            } else e = ents[i] = NO_ENTRY;
          }
          // The expected damage from the array beside the entries: an entry's own field is a
          // load (often from memory) for every attack of the fire, this one for the first only.
          if (e >= 0 && (bestW < 0 || exp[i] > bestExp)) {
            bestW = i;
            bestExp = exp[i];
          }
        }
        if (bestW < 0) break;
        used[bestW]++;
        fc--;
        const before = tgt.state.structure;
        // The entry's sampler rolled from its copy in the arena.
        // The column count from the roll code where it fits there (the same number the arena
        // holds at `at`): the column's read then waits on no earlier read of the arena.
        const rc = ents[bestW], arena = this.arena, at = rc >> 6;
        const rolled = pickWritten(arena, at, rng.next(), (rc & 63) || arena[at]);
        const code = tgt.assaulting ? DIMINISH_ALL[rolled] : rolled; // every result against it Diminished
        // The code as a small integer (it is one, below 4096): as the double pickWritten gives it,
        // the call would box it.
        applyResults(this.rules, tgt.state, code | 0, tally);
        const dealt = Math.max(0, before - tgt.state.structure);
        att.damageDealt += dealt;
        if (log) {
          log.push({
            attacker: att.label,
            window: this.windowIndex,
            weapon: weapons[bestW].name,
            target: tgt.label,
            range: Math.round(dist * 1000) / 1000,
            band,
            aspect: asp,
            results: outcomeName(code),
            structureDamage: dealt,
            targetAfter: tgt.state.describe(),
          });
        }
        if (onDamage(tgt)) return fc;
      }
    }
    return fc;
  }

  /**
   * What fireAt asks of a weapon line before the geometry, by ((unit index * 64 + line index) * 2
   * + target is a capital ship) * 2 + Assault: KNOWN_BIT, then REFUSED_BIT where ratingRefusal
   * turns it down, BOMB_BIT where it has the Nuke or Bomb trait (no such attack in a dogfight),
   * and its class and turret bits (classBits, TURRET_BIT); 0: not asked yet. The answers depend
   * on the card alone: a read of this array replaces the refusal's tests, two lookups in the
   * line's trait set and the class and arc tests, for every line of every target.
   */
  private readonly lineBits = new Int8Array(64 * 64 * 4);
  private learnLine(k: number, attCap: boolean, w: WeaponLine, tgtCap: boolean, assault: boolean | undefined): number {
    const bits =
      KNOWN_BIT |
      (ratingRefusal(attCap, w, tgtCap, assault) !== CAN_ATTACK ? REFUSED_BIT : 0) |
      (w.traits.has('Nuke') || w.traits.has('Bomb') ? BOMB_BIT : 0) |
      classBits(w.cls) |
      (w.arcs.includes('T') ? TURRET_BIT : 0);
    this.lineBits[k] = bits;
    return bits;
  }

  /** fire() calls in progress (the entry list is shared by the outermost only). */
  private firing = 0;
  private readonly ents = new Int32Array(64);
  /** The expected damage of each entry in `ents` (its ShotEntry's), for the outermost call. */
  private readonly entsExpected = new Float64Array(64);
}
