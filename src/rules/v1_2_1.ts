// Rules v1.2.1, written out in full. Sources: shared/rules/dice.md, combat.md, game.md and
// the seed pages; every value the rules do not give is listed in `placeholders`.
import type { RulesVersion } from './types.js';

const NO_BONUS = { base: 0, flex: 0, macro: 0 };

export const V1_2_1: RulesVersion = {
  id: '1.2.1',
  title: 'Jovian Wars rules v1.2.1',
  parent: null,
  changes: [],
  data: {
    dice: {
      // v1.2.1 /dice: "degree of success"
      successTerm: 'degree of success',
      // v1.2.1 /attack/weapons (Beam Projector) and Concentrated Fire: only [N] results may be rerolled.
      rerollOnlyNoResult: true,
      // v1.2.1 has no generic Opposed Roll; missile point defence uses the v1.2.2 mapping
      // (combat.md INTERPRETATION MissilePD121).
      opposedDiminishPerD: 1,
      opposedDiminishPerT: 2,
      opposedSource: 'v1.2.1: no generic Opposed Roll; missile point defence mapping per INTERPRETATION MissilePD121',
    },
    game: {
      capitalMove: 'half_speed', // seed 002 Movement
      squadronCapitalSpacing: 1, // seed 002: at least 1" from capital ships
      squadronEnemySpacing: 1, // seed 002: not within 1" of an enemy model
      stationKeepFlex: 0, // GM-63: no bonus in v1.2.1
      evadeTest: true, // v1.2.1 Special Actions: Evade, Skill Test, [N] gives FC 1
      sluggishMayNotEvade: false,
      concentratedFireDice: 'skill_or_sensors', // v1.2.1 Special Actions: Concentrated Fire
      concentratedFireFlex: false,
      fleetDeployBlocks: true, // §12.1 Fleet Deployment steps 1-4
      escalatingDeployment: false, // GM-95
      scoring: 'enemy_losses', // §12.1
      immediateEndWithoutCapitals: true, // §4.4, GM-52
      capitalBoost: true, // v1.2.1 Special Actions: Boost (Thrusters >= 1)
      // v1.2.1 dogfight page (combat.md §10.1): Break Off tests Skill or Fuel; survivors get a free move.
      dogfight: { breakOffTest: 'skill_or_fuel', breakOffFailAllowsRtb: false, breakerMayAttackAgain: false, afterwards: 'free_move', stayOnTarget: 'active_only' },
      // v1.2.1 bombing page (combat.md §11.1): PD or an interception each run; an RTB move at the end.
      strike: { interceptOrPd: 'either', bombingIgnoresArmor: false, returnToBase: 'move', heavySkillDice: 1 },
      assault: false,
      engagePointDefence: false, // not known to exist in v1.2.1 (game.md §7.2 notes)
      // combat.md §12.1: the boarding raid (PD repels on any success; Escalated marine attack; capture at 0 Structure).
      boarding: { procedure: 'raid', casualties: { D: 1, T: 2, Q: -1 }, pdRepels: true, defenderMarineLoss: 'per_set' },
      exoBoarding: true, // v1.2.1 Boarding Party: Marines >= 1, or an Exo-Armor squadron
    },
    combat: {
      // v1.2.1 /attack (seed 001): short range 6" (AC) / 3" (AS); long range +3" per Sensors point.
      shortRangeAC: 6,
      shortRangeAS: 3,
      longRangePerSensors: 3,
      // v1.2.1 /attack: flank and rear "arc modifiers" exist, sizes not retrieved (combat.md Flank121).
      sideBonus: { base: 1, flex: 0, macro: 0 },
      rearBonus: { base: 2, flex: 0, macro: 0 },
      shortRangeBonus: NO_BONUS,
      // v1.2.1 /bombing_run: Bombing Run attacks "do" get the flank and rear arc modifiers; no bonus of their own.
      bombingBonus: NO_BONUS,
      positionalInBombing: true,
      // v1.2.1 /attack/weapons (Beam Projector): rerolls [N] "at short or long range", but not in
      // Dogfights, Bombing Runs or attacks made with the Long Range Sensors action (combat.md §4.4, §6.2).
      beamRerollOwnActivationOnly: true,
      // v1.2.1 /attack/types (missile attacks): +1 Defense per friendly model with Defense >= 1 within 3" of the line.
      missileSupport: 1,
      // v1.2.1 /traits (Barrier): friends within 3" may use its Defense instead of their own against
      // missiles (it then adds no support of its own; other friends still do); Mass Driver and
      // Kinetic Cannon defence is for the Barrier model itself only.
      barrierReach: 3,
      barrierCoversKinetic: false,
      barrierWithSupport: true,
      // v1.2.1 /traits: Belt:X reduces the Macro Pool of attacks into the port or starboard arc.
      armorByArc: false,
      beltTrait: true,
      // v1.2.1 /attack/damage: squadron [D] -1 Damage, [T] -2, [Q+] destroyed.
      squadronDamage: { D: 1, T: 2, Q: -1 },
      // v1.2.1 /attack/damage: a squadron down to its small boxes is Crippled (Fire Control 1).
      squadronCrippling: true,
      // v1.2.1 /attack/damage: [D] damages a system chosen by Value (mapping: combat.md ValueMap121).
      valueToRating: ['defense', 'defense', 'sensors', 'sensors', 'thrusters', 'thrusters'],
      // v1.2.1 /attack/damage: [T] -1 Structure and a critical by Value; [Q+] = two [T].
      capitalT: { structure: 1, criticals: 1 },
      capitalQ: { structure: 2, criticals: 2 },
      criticalTable: ['disable_system', 'disable_system', 'disable_system', 'disable_system', 'disable_system', 'disable_system'],
      // v1.2.1 components and ramming example: a capital ship at 0 Structure is Crippled.
      capitalAtZero: 'crippled',
      catastrophicTable: ['destroyed', 'destroyed', 'destroyed', 'destroyed'],
      // v1.2.1 /special_actions/ramming (seed 003): +1d6 when both front arcs touch; flank and
      // rear bonuses apply (sizes from the worked example, game.md GM-23).
      ramHeadOnBonus: 1,
      ramSideBonus: 1,
      ramRearBonus: 2,
    },
    placeholders: {
      'combat.sideBonus': 'Flank121: v1.2.1 flank bonus size not retrieved; +1 base die inferred from the ramming example (combat.md §4.4)',
      'combat.rearBonus': 'Flank121: v1.2.1 rear bonus size not retrieved; +2 base dice is a guess (combat.md §4.4)',
      'combat.valueToRating': 'ValueMap121: v1.2.1 Value-to-rating map not retrieved; v1.2.2 map used (combat.md §9.3)',
      'combat.criticalTable': 'CritDefault: critical hit table not retrieved; every critical knocks out one System trait (combat.md §9.6)',
      'combat.catastrophicTable': 'CatDefault: Catastrophic Damage Table not retrieved; always Destroyed (combat.md §9.7)',
      'combat.ramRearBonus': 'GM-23: rear ram bonus of +2 base dice is a guess (game.md §8.2)',
    },
  },
};
