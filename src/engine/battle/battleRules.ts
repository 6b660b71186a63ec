// What a battle needs to know about the rules version beyond single engagements: movement,
// spacing, actions and scoring (shared/rules/game.md §4–§12). v1.2.1 and v1.2.2 differ here;
// an overlay-derived version follows the version it was derived from.
import type { CompiledRules } from '../../rules/compile.js';

export interface BattleRules {
  readonly version: '1.2.1' | '1.2.2';
  /** Capital-ship move: v1.2.1 half Speed to Speed, one turn if Thrusters >= 1 (§6.1, GM-08);
   * v1.2.2 Speed - Thrusters to Speed + Thrusters, min(Turns, Thrusters) turns (§6.2). */
  readonly capitalMove: 'half_speed' | 'thrusters_band';
  /** Squadrons must end at least this far from capital ships (v1.2.1: 1"; v1.2.2: 0, GM-14). */
  readonly squadronCapitalSpacing: number;
  /** Squadrons may not end within this distance of an enemy model (v1.2.1: 1"; v1.2.2: 0). */
  readonly squadronEnemySpacing: number;
  /** Attackers get this many Flex dice against a ship that declared Station Keep (GM-63). */
  readonly stationKeepFlex: number;
  /** Evade needs a Skill Test ([N]: Fire Control drops to 1) in v1.2.1; none in v1.2.2. */
  readonly evadeTest: boolean;
  /** Concentrated Fire gives +1 Flex on [N] and on [D+] (v1.2.2) or only rerolls on [D+] (v1.2.1). */
  readonly concentratedFireFlex: boolean;
  /** v1.2.1 Fleet Deployment deploys in blocks (attacker's capital ships, defender's, ...); GM-85. */
  readonly fleetDeployBlocks: boolean;
  /** Escalating Deployment exists (v1.2.2); v1.2.1 rejects it (GM-95). */
  readonly escalating: boolean;
  /** VP: v1.2.1 earned from enemy losses (§12.1); v1.2.2 own survivors with multipliers (seed 000). */
  readonly scoring: 'enemy_losses' | 'own_survivors';
  /** v1.2.1 Standard scenario: ends at once when a fleet has no capital ship left (GM-52). */
  readonly immediateEndWithoutCapitals: boolean;
  /** Crippled capital ships are inert hulks (GM-21, option crippled_capital). */
  readonly inertHulks: boolean;
}

/** The version a rules set descends from (overlays keep the id of the version they patch). */
function baseVersion(rules: CompiledRules): '1.2.1' | '1.2.2' {
  let v: { id: string; parent?: string | null } = rules.version;
  if (v.id === '1.2.1' || v.id === '1.2.2') return v.id;
  return (v.parent ?? '').startsWith('1.2.1') ? '1.2.1' : '1.2.2';
}

export function battleRules(rules: CompiledRules): BattleRules {
  const v121 = baseVersion(rules) === '1.2.1';
  return {
    version: v121 ? '1.2.1' : '1.2.2',
    capitalMove: v121 ? 'half_speed' : 'thrusters_band',
    squadronCapitalSpacing: v121 ? 1 : 0,
    squadronEnemySpacing: v121 ? 1 : 0,
    stationKeepFlex: v121 ? 0 : 1,
    evadeTest: v121,
    concentratedFireFlex: !v121,
    fleetDeployBlocks: v121,
    escalating: !v121,
    scoring: v121 ? 'enemy_losses' : 'own_survivors',
    immediateEndWithoutCapitals: v121,
    inertHulks: rules.flags.crippledCapitalInert,
  };
}
