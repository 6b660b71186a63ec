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
  /** Bonus against any target within short range. Like the side and rear bonuses it applies in a model's own Activation window only (Table122). */
  readonly shortRangeBonus: PoolBonus;
  /** Bonus to every attack in a Bombing window (v1.2.2 Bombing Run row, Table122). */
  readonly bombingBonus: PoolBonus;
  /** Whether Bombing attacks also get the side and rear bonuses (v1.2.1: they do; v1.2.2 Table122: no). */
  readonly positionalInBombing: boolean;
  /**
   * The Beam Projector's reroll is withheld from Dogfight and Bombing attacks (v1.2.1: "not in
   * Dogfights, Bombing Runs, or attacks made with the Long Range Sensors action", combat.md
   * §4.4, §6.2); v1.2.2 states no restriction.
   */
  readonly beamRerollOwnActivationOnly: boolean;
  /** Missile defence dice added by each friendly model with Defense >= 1 within 3" of the attacker-target line (combat.md §4.3, Assist122). */
  readonly missileSupport: number;
  /** Barrier (combat.md §7.2-7.3): friends within this many inches of a Barrier model may defend with its Defense. */
  readonly barrierReach: number;
  /** Whether a Barrier model's Defense also covers friends against Mass Driver and Kinetic Cannon attacks (v1.2.2), not only against missiles (v1.2.1). */
  readonly barrierCoversKinetic: boolean;
  /** Whether other friends still add missile support to a defence made with a lent Barrier Defense (v1.2.1: yes, all but the Barrier model; v1.2.2: no assistance). */
  readonly barrierWithSupport: boolean;
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

import type { BoardingRules } from '../engine/battle/boarding.js';
import type { DogfightRules } from '../engine/battle/dogfight.js';
import type { StrikeRules } from '../engine/battle/strike.js';

/** Whole-game rules a battle needs beyond single engagements (game.md §4–§12). */
export interface GameRules {
  /** Capital-ship move: half Speed to Speed with one turn if Thrusters >= 1 (v1.2.1 §6.1, GM-08),
   * or Speed - Thrusters to Speed + Thrusters with min(Turns, Thrusters) turns (v1.2.2 §6.2). */
  readonly capitalMove: 'half_speed' | 'thrusters_band';
  /** Squadrons end a normal move at least this far from capital ships (v1.2.1 1"; v1.2.2 0, GM-14). */
  readonly squadronCapitalSpacing: number;
  /** Squadrons may not end within this distance of an enemy model (v1.2.1 1"; v1.2.2 0). */
  readonly squadronEnemySpacing: number;
  /** Flex dice attackers get against a ship that declared Station Keep (GM-63). */
  readonly stationKeepFlex: number;
  /** Evade needs a Skill Test, [N] dropping Fire Control to 1 (v1.2.1); none in v1.2.2. */
  readonly evadeTest: boolean;
  /** Sluggish models may not Evade (v1.2.2 Actions index). */
  readonly sluggishMayNotEvade: boolean;
  /** Concentrated Fire: its test uses Skill or Sensors (v1.2.1) or Skill (v1.2.2). */
  readonly concentratedFireDice: 'skill_or_sensors' | 'skill';
  /** Concentrated Fire grants +1 Flex on [N] and on [D+] (v1.2.2); v1.2.1 only rerolls on [D+]. */
  readonly concentratedFireFlex: boolean;
  /** Fleet Deployment in blocks (v1.2.1) or one model at a time, alternating (v1.2.2, GM-85). */
  readonly fleetDeployBlocks: boolean;
  /** Escalating Deployment exists (v1.2.2); v1.2.1 supports Fleet Deployment only (GM-95). */
  readonly escalatingDeployment: boolean;
  /** VP earned from enemy losses (v1.2.1 §12.1) or own survivors with multipliers (v1.2.2, seed 000). */
  readonly scoring: 'enemy_losses' | 'own_survivors';
  /** A scenario without objectives ends at once when a fleet has no capital ship left (v1.2.1, GM-52). */
  readonly immediateEndWithoutCapitals: boolean;
  /** Capital ships may Boost: Speed doubled, Fire Control halved (v1.2.1 §6.4); not in v1.2.2 (GM-09). */
  readonly capitalBoost: boolean;
  /** Interception and Dogfights (game.md §7.5, combat.md §10). */
  readonly dogfight: DogfightRules;
  /** Bombing Run / Bombing (game.md §7.6, combat.md §11.1-11.2). */
  readonly strike: StrikeRules;
  /** Exo-Armor Assault exists (v1.2.2, combat.md §11.3). */
  readonly assault: boolean;
  /** Engage Point Defense exists (v1.2.2, combat.md §8.3). */
  readonly engagePointDefence: boolean;
  /** Boarding (game.md §7.4, combat.md §12). */
  readonly boarding: BoardingRules;
  /** Exo-Armor squadrons may board capital ships (v1.2.1 Boarding Party; resolved as combat.md ExoBoard121). */
  readonly exoBoarding: boolean;
}

export interface RulesData {
  readonly dice: DiceRules;
  readonly combat: CombatRules;
  readonly game: GameRules;
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
