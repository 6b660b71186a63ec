// A rules version is data plus small hooks. Engines read the data; they never ask which
// version they are running.

export interface DiceRules {
  /** What the rules call a level of success ("degree of success" in v1.2.1, "Magnitude" from v1.2.2). */
  readonly successTerm: string;
  /** Rerolls may only replace a [N] outcome (v1.2.1), or any outcome the roll's owner wishes to reroll. */
  readonly rerollOnlyNoResult: boolean;
  /** Opposed rolls: Diminishes per Secondary [D] and [T]; a Secondary [Q+] negates all. */
  readonly opposedDiminishPerD: number;
  readonly opposedDiminishPerT: number;
  /** Where the opposed-roll table comes from, printed with results that use it. */
  readonly opposedSource: string;
}

export type SystemRating = 'defense' | 'sensors' | 'thrusters';

/**
 * What one critical hit does: nothing; knock out a System trait (the attacker picks);
 * one point off a rating; one more Structure; one point of Fire Control.
 */
export type CriticalEffect = 'none' | 'disable_system' | 'defense' | 'sensors' | 'thrusters' | 'structure' | 'fire_control';
export const CRITICAL_EFFECTS: readonly CriticalEffect[] = ['none', 'disable_system', 'defense', 'sensors', 'thrusters', 'structure', 'fire_control'];

export type CatastrophicOutcome = 'destroyed' | 'crippled';

/** Dice added to an attack pool by a situation: base dice, Flex dice, Macro dice. */
export interface PoolBonus {
  readonly base: number;
  readonly flex: number;
  readonly macro: number;
}

export interface CombatRules {
  /** Short range against capital ships / squadrons, and how far each Sensors point reaches beyond it (inches). */
  readonly shortRangeAC: number;
  readonly shortRangeAS: number;
  readonly longRangePerSensors: number;
  /** Bonus for attacking a capital ship from its side (port/starboard) or rear (aft) arc. */
  readonly sideBonus: PoolBonus;
  readonly rearBonus: PoolBonus;
  /** Bonus against any target within short range. */
  readonly shortRangeBonus: PoolBonus;
  /** Armor per arc is subtracted from the Macro Pool (v1.2.2); v1.2.1 has only the Belt:X trait. */
  readonly armorByArc: boolean;
  readonly beltTrait: boolean;
  /** Squadron damage per Result: D and T remove Structure; Q destroys (-1) or removes that much. */
  readonly squadronDamage: { readonly D: number; readonly T: number; readonly Q: number };
  /** Squadrons become Crippled (Fire Control 1) when down to their small damage boxes. */
  readonly squadronCrippling: boolean;
  /** Capital-ship [D]: the rating hit by each Value (index Value - 1). */
  readonly valueToRating: readonly SystemRating[];
  /** Capital-ship Structure and Criticals per [T] and per [Q+]. */
  readonly capitalT: { readonly structure: number; readonly criticals: number };
  readonly capitalQ: { readonly structure: number; readonly criticals: number };
  /** Critical effect by the Value of the Result (index Value - 1). */
  readonly criticalTable: readonly CriticalEffect[];
  /** A capital ship at 0 Structure is Crippled (v1.2.1) or rolls on the Catastrophic Damage Table (v1.2.2). */
  readonly capitalAtZero: 'crippled' | 'catastrophic';
  /** Catastrophic outcome by the number of ratings (Defense, Sensors, Thrusters) at 0: index 0..3. */
  readonly catastrophicTable: readonly CatastrophicOutcome[];
  /** Ramming: extra base dice for a head-on contact, and for striking the target's side / rear arc. */
  readonly ramHeadOnBonus: number;
  readonly ramSideBonus: number;
  readonly ramRearBonus: number;
}

export interface RulesData {
  readonly dice: DiceRules;
  readonly combat: CombatRules;
  /**
   * Data that jwsim invented or chose because the rules text is missing: data path
   * (e.g. "combat.criticalTable") -> why. Outputs that use such data list it. An overlay
   * that replaces the data removes the mark.
   */
  readonly placeholders: Readonly<Record<string, string>>;
}

export interface RulesChange {
  /** One sentence, printed in outputs that use the version. */
  readonly summary: string;
  /** Where the change is stated (version and page). */
  readonly source: string;
  readonly apply: (data: RulesData) => RulesData;
}

export interface RulesVersion {
  readonly id: string;
  readonly title: string;
  /** The version this one is derived from; null for a version written out in full. */
  readonly parent: string | null;
  /** What differs from the parent; empty only for a version written out in full. */
  readonly changes: readonly RulesChange[];
  readonly data: RulesData;
}
