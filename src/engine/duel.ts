// A duel: two models trade volleys at a fixed distance and aspect until one is out of the
// fight or a round limit is reached. Initiative (who fires first each round) is decided
// once per duel (game.md GM-02: fixed for the whole game) by a fair coin unless fixed.
import type { CompiledRules } from '../rules/compile.js';
import type { RandomStream } from '../rng/stream.js';
import type { UnitCard } from '../units/types.js';
import { SYSTEM_TRAITS } from '../units/catalogue.js';
import type { Situation } from './attackPlan.js';
import { DamageTally, crippledThreshold } from './damage.js';
import { aspectOfArc, longRangeMax } from './geometryArcs.js';
import { CLOAK, CombatState } from './state.js';
import { PlaceholderUsage, noteTargetDamageFields } from './usage.js';
import { fireVolley, planVolley, skippedText, type VolleyPlan } from './volley.js';

export interface DuelSetup {
  readonly a: UnitCard;
  readonly b: UnitCard;
  readonly rangeInches: number;
  /** The arc of A that B is in, and the arc of B that A is in (F, P, S or R). */
  readonly arcOfA: FiringArc;
  readonly arcOfB: FiringArc;
  /** A duel ends when a side is destroyed, or already when it is crippled. */
  readonly until: 'destroyed' | 'crippled';
  readonly maxRounds: number;
  readonly first: 'a' | 'b' | 'random';
}

export const DUEL_WIN_A = 0;
export const DUEL_WIN_B = 1;
export const DUEL_DRAW = 2;

export type FiringArc = Situation['targetArc'];

/**
 * Why a duel `until: 'crippled'` can never end earlier for this model than one until
 * destroyed, or null when it can (Duel.out; damage.ts decides when a model is Crippled):
 *   'inert': a Crippled capital ship is out of the fight either way (crippled_capital=INERT);
 *   'capital-never': a capital ship at 0 Structure is always Destroyed (Catastrophic Damage Table);
 *   'squadron-never': squadrons have no Crippled state (crippled_squadrons, by version);
 *   'no-small-boxes': the squadron is Crippled only at 0 Damage, where it is Destroyed.
 */
export type CrippledIrrelevance = 'inert' | 'capital-never' | 'squadron-never' | 'no-small-boxes';

export function whyCrippledChangesNothing(rules: CompiledRules, unit: UnitCard): CrippledIrrelevance | null {
  if (unit.isCapital) {
    // Never Crippled comes first: crippled_capital cannot change that, so it is no remedy.
    // Ratings only go down, so the table rows below the card's own count of zero ratings never come up.
    const zeros = (unit.defense === 0 ? 1 : 0) + (unit.sensors === 0 ? 1 : 0) + (unit.thrusters === 0 ? 1 : 0);
    if (rules.combat.capitalAtZero !== 'crippled' && !rules.combat.catastrophicTable.slice(zeros).some((o) => o !== 'destroyed')) return 'capital-never';
    return rules.flags.crippledCapitalInert ? 'inert' : null;
  }
  if (!rules.flags.squadronCrippling) return 'squadron-never';
  return crippledThreshold(new CombatState(unit)) >= 1 ? null : 'no-small-boxes';
}

// Side keeps whether its target has Barrier for the whole duel: right only while Barrier is not a System trait (which criticals knock out).
if (SYSTEM_TRAITS.includes('Barrier')) throw new Error('Barrier became a System trait: Side.plan must read it from the target state');

/** One side's view: its volley plans against the other, cached by what changes them. */
class Side {
  readonly state: CombatState;
  /** By the key of plan(). */
  private readonly plans: Array<VolleyPlan | undefined> = [];
  /** The target has Barrier (not a System trait: nothing knocks it out). */
  private readonly targetBarrier: boolean;
  constructor(
    unit: UnitCard,
    target: UnitCard,
    readonly at: Situation,
  ) {
    this.state = new CombatState(unit);
    this.targetBarrier = target.traits.has('Barrier');
  }
  /**
   * The volley plan for the current states, kept for the states that make the same plan: the
   * reach depends on own Sensors; the Cloak test on the target's working Cloak; whether attacks
   * face point defence on the target's Defense (above 0) and its Barrier (for kinetic fire;
   * fixed per target card, as nothing knocks Barrier out).
   * (Countermeasures and the Defense value itself are read when an attack is rolled.) A key
   * missing one of these carried a plan made in one trial into the next.
   */
  plan(rules: CompiledRules, target: CombatState, usage: PlaceholderUsage): VolleyPlan {
    const key = ((this.state.sensors * 2 + (target.systemWorking(CLOAK) ? 1 : 0)) * 2 + (this.targetBarrier ? 1 : 0)) * 2 + (target.defense > 0 ? 1 : 0);
    let p = this.plans[key];
    if (!p) {
      p = planVolley(rules, this.state, target, this.at, usage);
      this.plans[key] = p;
    }
    return p;
  }
}

export class Duel {
  private readonly sideA: Side;
  private readonly sideB: Side;
  private readonly tally = new DamageTally();
  readonly usage: PlaceholderUsage;
  /** Weapons that can never fire in this duel, per side, with the reason. */
  readonly skippedA: ReadonlyArray<{ weapon: string; reason: string }>;
  readonly skippedB: ReadonlyArray<{ weapon: string; reason: string }>;

  constructor(
    private readonly rules: CompiledRules,
    readonly setup: DuelSetup,
  ) {
    // A fires from B's arcOfB at a target in its own arcOfA, and the other way round.
    this.sideA = new Side(setup.a, setup.b, { rangeInches: setup.rangeInches, aspect: aspectOfArc(setup.arcOfB), targetArc: setup.arcOfA });
    this.sideB = new Side(setup.b, setup.a, { rangeInches: setup.rangeInches, aspect: aspectOfArc(setup.arcOfA), targetArc: setup.arcOfB });
    this.usage = new PlaceholderUsage(rules);
    this.usage.unit(setup.a, 'tv', 'fire_control').unit(setup.b, 'tv', 'fire_control');
    noteTargetDamageFields(this.usage, setup.a);
    noteTargetDamageFields(this.usage, setup.b);
    this.skippedA = this.sideA.plan(rules, this.sideB.state, this.usage).skipped;
    this.skippedB = this.sideB.plan(rules, this.sideA.state, this.usage).skipped;
  }

  /**
   * The volley side `side` fires at the start of a duel at `rangeInches` (default: this duel's
   * range), against the undamaged other side; no placeholders are recorded. Damage only ever
   * takes attacks away (lost Sensors shorten the reach), so a side with no attack here never
   * fires in the duel.
   */
  openingVolley(side: 'a' | 'b', rangeInches = this.setup.rangeInches): VolleyPlan {
    const [self, other] = side === 'a' ? [this.setup.a, this.setup.b] : [this.setup.b, this.setup.a];
    const at = (side === 'a' ? this.sideA : this.sideB).at;
    return planVolley(this.rules, new CombatState(self), new CombatState(other), { ...at, rangeInches }, new PlaceholderUsage(this.rules));
  }

  /** Structure each side has taken away from the other in the duel just played. */
  damageDealt(): { byA: number; byB: number } {
    const a = this.sideA.state;
    const b = this.sideB.state;
    return { byA: b.unit.structure - b.structure, byB: a.unit.structure - a.structure };
  }

  private out(s: CombatState): boolean {
    if (s.destroyed) return true;
    if (!s.crippled) return false;
    return this.setup.until === 'crippled' || (s.unit.isCapital && this.rules.flags.crippledCapitalInert);
  }

  /** Plays one duel; returns the winner code and writes the rounds played to `rounds[0]`. */
  play(rng: RandomStream, rounds: Int32Array): number {
    const { sideA, sideB, rules, usage } = this;
    sideA.state.reset();
    sideB.state.reset();
    const aFirst = this.setup.first === 'a' || (this.setup.first === 'random' && rng.next() < 0.5);
    const first = aFirst ? sideA : sideB;
    const second = aFirst ? sideB : sideA;
    for (let round = 1; round <= this.setup.maxRounds; round++) {
      rounds[0] = round;
      fireVolley(rules, first.plan(rules, second.state, usage), first.state, second.state, rng, this.tally);
      if (this.out(second.state)) return first === sideA ? DUEL_WIN_A : DUEL_WIN_B;
      fireVolley(rules, second.plan(rules, first.state, usage), second.state, first.state, rng, this.tally);
      if (this.out(first.state)) return second === sideA ? DUEL_WIN_A : DUEL_WIN_B;
    }
    return DUEL_DRAW;
  }
}

/**
 * Why neither side of `duel` can fire at the other (so every duel is a draw), one reason per
 * side (a unit against itself: once); null when at least one side can fire. `reach` is the
 * longest distance at which one of them could fire, when some distance would do.
 */
export function whyNobodyFires(rules: CompiledRules, duel: Duel): { reasons: string[]; reach: number | null } | null {
  if (duel.openingVolley('a').attacks.length || duel.openingVolley('b').attacks.length) return null;
  const { a, b } = duel.setup;
  const reaches: number[] = [];
  const why = (side: 'a' | 'b', self: UnitCard, other: UnitCard) => {
    if (!self.weapons.length) return `${self.name} has no weapons`;
    const near = duel.openingVolley(side, 0);
    if (near.attacks.length) {
      // The attack range against the target's type at the attacker's Sensors (v1.2.1 /attack "Sensor Range").
      const kind = other.isCapital ? 'AC' : 'AS';
      const inches = longRangeMax(rules.combat, other.isCapital ? 'capital' : 'squadron', self.sensors);
      reaches.push(inches);
      return `${self.name} reaches ${other.name} only up to ${inches} in (${kind} range at Sensors ${self.sensors})`;
    }
    return `${self.name} cannot fire at ${other.name} at any range (${skippedText(near.skipped)})`;
  };
  const reasons = [...new Set([why('a', a, b), why('b', b, a)])];
  return { reasons, reach: reaches.length ? Math.max(...reaches) : null };
}
