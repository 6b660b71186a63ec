// What a battle reads about the rules in force: the version's whole-game data (RulesData.game,
// game.md §4–§12) plus the interpretation options that concern battles. Engines never ask
// which version they run; the versions differ only in this data.
import type { CompiledRules } from '../../rules/compile.js';
import type { GameRules } from '../../rules/types.js';
import { spacingDropped } from '../../rules/interpretations.js';

export interface BattleRules extends GameRules {
  /** GM-19 enable_repair: models with the Repair trait may declare the (stub) Repair action. */
  readonly repair: boolean;
  /** Capital-ship Boost (GM-09): none, v1.2.1's (Speed up to doubled), or Speed doubled inside the version's min/max formulas. */
  readonly capitalBoostMode: 'none' | 'v121' | 'formula';
  /** The first Fleet Deployment phase's squadron step in blocks (v1.2.1 §12.1 steps 3-4) or alternating one at a time (v1.2.2). */
  readonly squadronDeployBlocks: boolean;
  /** Crippled capital ships are inert hulks (GM-21, option crippled_capital). */
  readonly inertHulks: boolean;
  /** GM-15 offtable_rule: what a move that would leave the table does. */
  readonly offTable: 'clamp' | 'withdrawn' | 'destroyed';
  /** GM-55 pivot_point. */
  readonly pivotOnCentre: boolean;
  /** GM-14 squadron_contact_122: squadrons may end touching where the version has no spacing. */
  readonly squadronTouch: boolean;
  /** GM-82 zone_containment: any part of the base inside a strip or quadrant zone will do. */
  readonly zoneAnyPart: boolean;
  /** GM-31 reserve_vp: multiplier of models still In Reserve (v1.2.2 scoring). */
  readonly reserveVp: number;
  /** GM-94 vp_rounding: round fractional VP up per model. */
  readonly vpRoundUp: boolean;
  /** GM-13 fuel_refill: Fuel comes back at the end of the squadron's own activation (else in the End Phase). */
  readonly fuelAfterActivation: boolean;
  /** GM-45 squadron_base_shape: the outline of every squadron base in the battle. */
  readonly squadronBase: 'hex' | 'circle';
  /** GM-16 withdraw_allows_attacks: a Withdrawing model fires as usual (from where it starts). */
  readonly withdrawAttacks: boolean;
  /** GM-52 crippled_counts_as_lost: a Crippled capital ship counts as lost for the immediate end. */
  readonly crippledCountsAsLost: boolean;
  /** GM-56 boost_min_move: a boosting capital ship's minimum move is half its printed Speed (else half the doubled Speed). */
  readonly boostMinHalfPrinted: boolean;
  /** GM-60 boost_halves_fc: Boost halves a squadron's Fire Control too (capital ships always). */
  readonly squadronBoostHalvesFc: boolean;
  /** GM-86 reserve_embark_rule: where a Fleet Deployment reserve may deploy Embarked after the first phase. */
  readonly reserveEmbark: 'carrier_in_zone' | 'any_carrier' | 'table_only';
  /** GM-76 embarked_on_captured: models aboard a captured carrier pass to the captor (else they are Destroyed). */
  readonly embarkedPassToCaptor: boolean;
  /** GM-18 embarked_activation: Embarked models launch in their carrier's activation, not their own. */
  readonly launchWithCarrier: boolean;
  /** GM-20 boarding_combat_timing: the Boarded fight happens in the End Phase, not at the start of the ship's activation. */
  readonly boardedFightInEndPhase: boolean;
}

export function battleRules(rules: CompiledRules): BattleRules {
  const o = rules.options;
  const game = rules.version.data.game;
  return {
    ...game,
    // GM-85 fleet_deploy_capitals decides the capital-ship step only; squadrons follow the version.
    fleetDeployBlocks: o.fleet_deploy_capitals === 'VERSION' ? game.fleetDeployBlocks : o.fleet_deploy_capitals === 'BLOCK',
    squadronDeployBlocks: game.fleetDeployBlocks,
    // GM-63 station_keep_target_flex: the version's bonus, none, or +1 whatever the version.
    stationKeepFlex: o.station_keep_target_flex === 'VERSION' ? game.stationKeepFlex : o.station_keep_target_flex === 'ONE' ? 1 : 0,
    inertHulks: rules.flags.crippledCapitalInert,
    offTable: o.offtable_rule === 'CLAMP' ? 'clamp' : o.offtable_rule === 'WITHDRAWN' ? 'withdrawn' : 'destroyed',
    pivotOnCentre: o.pivot_point === 'CENTRE',
    // GM-14 applies where the version drops the 1" spacing (v1.2.2); v1.2.1 squadrons never end touching.
    squadronTouch: o.squadron_contact_122 === 'ALLOW_TOUCH' && spacingDropped(rules.version.data),
    zoneAnyPart: o.zone_containment === 'ANY_PART',
    reserveVp: o.reserve_vp === 'FULL' ? 1 : 0,
    vpRoundUp: o.vp_rounding === 'PER_MODEL_UP',
    fuelAfterActivation: o.fuel_refill === 'END_OF_OWN_ACTIVATION',
    squadronBase: o.squadron_base_shape === 'CIRCLE' ? 'circle' : 'hex',
    withdrawAttacks: o.withdraw_allows_attacks === 'YES',
    crippledCountsAsLost: o.crippled_counts_as_lost === 'YES',
    boostMinHalfPrinted: o.boost_min_move === 'HALF_PRINTED',
    squadronBoostHalvesFc: o.boost_halves_fc === 'ALL',
    reserveEmbark: o.reserve_embark_rule === 'ANY_CARRIER' ? 'any_carrier' : o.reserve_embark_rule === 'TABLE_ONLY' ? 'table_only' : 'carrier_in_zone',
    embarkedPassToCaptor: o.embarked_on_captured === 'PASS_TO_CAPTOR',
    launchWithCarrier: o.embarked_activation === 'CARRIER_ACTIVATION',
    boardedFightInEndPhase: o.boarding_combat_timing === 'END_PHASE',
    repair: o.enable_repair === 'YES',
    // PDRepel121: CASUALTIES_ONLY takes the repel away from the v1.2.1 raid.
    boarding: { ...game.boarding, pdRepels: game.boarding.pdRepels && o.boarding_pd_repel === 'ANY_SUCCESS' },
    // NoDriveOff122: T_PLUS lets a [T+] point defence result drive a bomber off.
    strike: { ...game.strike, pdDrivesOff: o.bombing_pd_drive_off === 'T_PLUS' },
    // GM-09 cap_boost_mode.
    capitalBoostMode: o.cap_boost_mode === 'VERSION' ? (game.capitalBoost ? 'v121' : 'none') : o.cap_boost_mode === 'DISABLED' ? 'none' : o.cap_boost_mode === 'V121_DOUBLE_SPEED' ? 'v121' : 'formula',
  };
}
