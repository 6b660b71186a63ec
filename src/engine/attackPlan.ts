// Planning one attack: can this weapon fire at that target from here, and with which dice?
// v1.2.1 /attack and v1.2.2 /attack: target type picks AC or AS; Sensors set the range;
// the weapon's arcs must cover the target; positional bonuses, armor and traits build the
// pools; missiles (and Barrier targets) defend with point defence.
import { MAX_MACRO_DICE, MAX_ROLLED_BASE_DICE, resolvePool, type Pool } from '../dice/pool.js';
import type { CompiledRules } from '../rules/compile.js';
import type { CombatRules, PoolBonus } from '../rules/types.js';
import type { Arc, WeaponLine } from '../units/types.js';
import type { CombatState } from './state.js';
import type { PlaceholderUsage } from './usage.js';

/** Which of the target's arcs the attacker is in. Squadrons have no facing. */
export type Aspect = 'front' | 'side' | 'rear';
export const ASPECTS: readonly Aspect[] = ['front', 'side', 'rear'];

export interface Situation {
  /** Base edge to base edge, inches (combat.md RangeMeasure). */
  readonly rangeInches: number;
  /** The target's arc the attacker is in. */
  readonly aspect: Aspect;
  /** The attacker's arc the target is in (decides which capital-ship weapons bear). */
  readonly targetArc: Exclude<Arc, 'T'>;
  /** Battles: Flex dice granted by the situation (Station Keep target, GM-63; Concentrated Fire [N], v1.2.2). */
  readonly extraFlex?: number;
  /** Battles: the target is Evading / holds an Evasion token (game.md §7.2 row 4, GM-26). */
  readonly targetEvading?: boolean;
  /** Battles: extra rerolls of [N] results (a passed Concentrated Fire test). */
  readonly extraRerolls?: number;
  /** Battles: the target may not defend against missiles (dogfights, bombing, assault; combat.md §8.2). */
  readonly noMissileDefence?: boolean;
  /** Battles: Armor (and the v1.2.1 Belt) is ignored (v1.2.2 Bombing and Assault, v1.2.1 Exo-Armor boarding; combat.md §11, §12.1). */
  readonly ignoreArmor?: boolean;
  /** Battles: an Assault (combat.md §11.3): each weapon uses max(AC, AS) against the ship, Lance allowed. */
  readonly assault?: boolean;
  /**
   * Battles: the Attack Window (combat.md §5.2-5.3, Table122, Dogfight122). The side, rear and
   * short-range bonuses belong to the model's own Activation (the default); Bombing attacks get
   * the bombing bonus (and the side and rear bonuses where the version says so); dogfight,
   * Assault and boarding attacks get only what their own procedure grants.
   */
  readonly window?: AttackWindowKind;
  /** Battles: Flex dice for non-missile attacks only (a Concentrated Fire test, v1.2.2). */
  readonly nonMissileFlex?: number;
  /** Battles: friendly models of the target with Defense >= 1 within 3" of the attacker-target line (missile support, combat.md §4.3). */
  readonly missileSupporters?: number;
  /**
   * Battles: the highest Defense among friendly Barrier models within `combat.barrierReach` of
   * the target (0 or absent: none), which the target may defend with (combat.md §7.2-7.3).
   */
  readonly barrierDefense?: number;
  /** Battles: every such Barrier model is itself one of the missile supporters (v1.2.1: it then adds no support of its own). */
  readonly barrierSupporting?: boolean;
}

export type AttackWindowKind = 'activation' | 'dogfight' | 'bombing' | 'assault' | 'boarding';

export interface AttackPlan {
  readonly weapon: WeaponLine;
  readonly pool: Pool;
  readonly band: 'short' | 'long';
  /** Point defence: the target's opposing pool (null: no defence roll). */
  readonly defence: Pool | null;
  /** Dice of the attacker's Skill Test [D+] needed to target a Cloaked model (0: none). */
  readonly cloakTestDice: number;
  /** How the pools were built, for people. */
  readonly notes: readonly string[];
}

export type PlanResult = { ok: true; plan: AttackPlan } | { ok: false; reason: string };

/** The first of the weapon's arcs in the order F, P, S, R (a turret or squadron weapon: F). */
export function firstArc(weapon: WeaponLine): Situation['targetArc'] {
  return (['F', 'P', 'S', 'R'] as const).find((arc) => weapon.arcs.includes(arc)) ?? 'F';
}

const ARC_NAMES: Record<Exclude<Arc, 'T'>, string> = { F: 'front', P: 'port', S: 'starboard', R: 'rear' };

function addBonus(b: PoolBonus, acc: { base: number[]; flex: number[]; macro: number }): void {
  if (b.base) acc.base.push(b.base);
  if (b.flex) acc.flex.push(b.flex);
  acc.macro += b.macro;
}

/** The rating a weapon line attacks with: AC against a capital ship, AS against a squadron; in an Assault (ASasAC) the better of the two against the assaulted ship. */
function attackRating(weapon: WeaponLine, targetCapital: boolean, assault: boolean | undefined): number | null {
  return assault && targetCapital ? Math.max(weapon.ac ?? 0, weapon.as ?? 0) || null : targetCapital ? weapon.ac : weapon.as;
}

/** ratingRefusal's answers: the line may attack (as far as its class and ratings go), or why not. */
export const CAN_ATTACK = 0, NOT_ATTACK_WEAPON = 1, NO_RATING = 2, LANCE_OUTSIDE_ASSAULT = 3;

/**
 * Why planAttack turns weapon line `weapon` down on its class and ratings alone (not an attack
 * weapon; no rating against that kind of target; a squadron's Lance against a capital ship
 * outside an Assault), or CAN_ATTACK. These refusals come before planAttack records any use of
 * placeholder values, so a caller may skip the lines refused here without changing that record
 * (battle gunnery does, per weapon line and target).
 */
export function ratingRefusal(attackerCapital: boolean, weapon: WeaponLine, targetCapital: boolean, assault: boolean | undefined): number {
  if (weapon.cls === 'drone_bay' || weapon.cls === 'point_defense') return NOT_ATTACK_WEAPON;
  const rating = attackRating(weapon, targetCapital, assault);
  if (rating === null || rating === 0) return NO_RATING;
  if (weapon.cls === 'lance' && !attackerCapital && targetCapital && !assault) return LANCE_OUTSIDE_ASSAULT;
  return CAN_ATTACK;
}

// The card paths of weapon line i's AC, AS and Macro, made once per index (planAttack records
// them as placeholder use on every plan; text built each time would be hashed each time too).
const weaponFieldNames: (readonly [string, string, string])[] = [];
function weaponFields(i: number): readonly [string, string, string] {
  return (weaponFieldNames[i] ??= [`weapons[${i}].ac`, `weapons[${i}].as`, `weapons[${i}].macro`]);
}

export function planAttack(
  rules: CompiledRules,
  attacker: CombatState,
  weapon: WeaponLine,
  target: CombatState,
  at: Situation,
  usage: PlaceholderUsage,
): PlanResult {
  const a = attacker.unit;
  const t = target.unit;
  const c = rules.combat;
  const kind = t.isCapital ? 'AC' : 'AS';
  const against = t.isCapital ? 'a capital ship' : 'a squadron';
  const refused = ratingRefusal(a.isCapital, weapon, t.isCapital, at.assault);
  if (refused === NOT_ATTACK_WEAPON) return { ok: false, reason: `${weapon.name} is not an attack weapon` };
  if (refused === NO_RATING) return { ok: false, reason: `${weapon.name} has no ${kind} rating: it cannot attack ${against}` };
  if (refused === LANCE_OUTSIDE_ASSAULT) {
    return { ok: false, reason: `${weapon.name} is a Lance: squadrons use it against capital ships only in an Assault (INTERPRETATION, combat.md §6.2)` };
  }
  const rating = attackRating(weapon, t.isCapital, at.assault)!; // not refused: a rating above 0
  const fields = weaponFields(weapon.index);
  usage.field(a, t.isCapital ? fields[0] : fields[1]).field(a, fields[2]).field(a, 'sensors');

  // Range from the attacker's current Sensors (v1.2.1 /attack "Sensor Range").
  const short = t.isCapital ? c.shortRangeAC : c.shortRangeAS;
  const max = short + c.longRangePerSensors * attacker.sensors;
  if (at.rangeInches > max) {
    return { ok: false, reason: `out of range: ${at.rangeInches} in > ${max} in for ${kind} at Sensors ${attacker.sensors}` };
  }
  const band = at.rangeInches <= short ? 'short' : 'long';
  if (!weapon.arcs.includes('T') && !weapon.arcs.includes(at.targetArc)) {
    return { ok: false, reason: `${weapon.name} (arcs ${weapon.arcs.join(', ')}) does not bear: the target is in the attacker's ${ARC_NAMES[at.targetArc]} arc` };
  }

  const missile = weapon.cls === 'missile';
  const acc = { base: [] as number[], flex: [] as number[], macro: weapon.macro };
  const notes: string[] = [`${kind} ${rating}${weapon.macro ? `, Macro ${weapon.macro}` : ''}, ${band} range`];
  const window = at.window ?? 'activation';
  if (window === 'bombing') {
    addBonus(c.bombingBonus, acc);
    if (c.bombingBonus.base || c.bombingBonus.flex || c.bombingBonus.macro) {
      usage.ruleOne('combat.bombingBonus');
      notes.push('bombing bonus');
    }
  }
  if (t.isCapital && at.aspect !== 'front' && (window === 'activation' || (window === 'bombing' && c.positionalInBombing))) {
    // Positional bonus for attacking a capital ship's side or rear (Flank121 / Table122).
    addBonus(at.aspect === 'side' ? c.sideBonus : c.rearBonus, acc);
    usage.ruleOne(at.aspect === 'side' ? 'combat.sideBonus' : 'combat.rearBonus');
    notes.push(`${at.aspect} arc bonus`);
  }
  if (window === 'activation' && band === 'short' && (c.shortRangeBonus.base || c.shortRangeBonus.flex || c.shortRangeBonus.macro)) {
    addBonus(c.shortRangeBonus, acc); // v1.2.2 /attack: +1 Flex within Short Range
    notes.push('short range bonus');
  }
  if (c.beltTrait && at.aspect === 'side' && t.traits.has('Belt') && !at.ignoreArmor) {
    acc.macro -= t.traits.get('Belt')!; // v1.2.1 /traits Belt:X
    usage.field(t, 'traits.Belt');
    notes.push(`Belt ${t.traits.get('Belt')}`);
  }
  if (c.armorByArc && t.isCapital && !at.ignoreArmor && (!missile || rules.flags.armorVsMissiles)) {
    const field = at.aspect === 'front' ? 'fore' : at.aspect === 'side' ? 'portStarboard' : 'aft';
    const armor = t.armor[field];
    acc.macro -= armor; // v1.2.2 /attack: Armor of the attacked arc is negative Macro
    usage.field(t, at.aspect === 'front' ? 'armor.fore' : at.aspect === 'side' ? 'armor.port_starboard' : 'armor.aft');
    if (armor) notes.push(`Armor ${armor}`);
  }
  if (at.extraFlex) {
    acc.flex.push(at.extraFlex);
    notes.push(`+${at.extraFlex} Flex from the situation`);
  }
  if (at.nonMissileFlex && !missile) {
    acc.flex.push(at.nonMissileFlex);
    notes.push(`+${at.nonMissileFlex} Flex (non-missile attacks)`);
  }
  // Evasive works at long range; an Evade on top of the trait makes it work at short range too.
  const evasive = t.traits.has('Evasive');
  if ((band === 'long' ? evasive || at.targetEvading : evasive && at.targetEvading) && rules.flags.evasivePenalty) {
    acc.macro -= rules.flags.evasivePenalty; // INTERPRETATION EvasivePenalty
    usage.field(t, 'traits.Evasive');
    notes.push('Evasive');
  }
  // Beam Projector: one reroll (v1.2.1: of an [N], at short or long range, not in Dogfights or
  // Bombing Runs; Long Range Sensors is not modelled; v1.2.2: any attack).
  const beamReroll = weapon.cls === 'beam_projector' && !(c.beamRerollOwnActivationOnly && (window === 'dogfight' || window === 'bombing'));
  const rerollSources = (beamReroll ? 1 : 0) + (missile ? 0 : (at.extraRerolls ?? 0));
  const pool = resolvePool(rules.dice, { base: rating, baseModifiers: acc.base, flexGrants: acc.flex, macro: acc.macro, rerollSources });
  if (pool.base + pool.flex > MAX_ROLLED_BASE_DICE || Math.abs(pool.macro) > MAX_MACRO_DICE) {
    return { ok: false, reason: `${weapon.name}: ${pool.base + pool.flex} base and Flex dice with Macro ${pool.macro} exceed the dice kernel (at most ${MAX_ROLLED_BASE_DICE} and ±${MAX_MACRO_DICE})` };
  }

  // Point defence: missiles, and Mass Driver / Kinetic Cannon fire where a Barrier defends.
  const dd = defenceDice(c, target, weapon.cls, at);
  let defence: Pool | null = null;
  if (dd > 0) {
    const dice = dd >> 2, lent = (dd & 2) !== 0, support = (dd & 1) !== 0;
    if (!lent || missile) usage.field(t, 'defense'); // a missile defence weighs the target's own Defense too
    if (!lent && !missile) usage.field(t, 'traits.Barrier');
    if (support) usage.ruleOne('combat.missileSupport');
    const countermeasures = target.hasWorking('Countermeasures') ? 1 : 0;
    if (countermeasures) usage.field(t, 'traits.Countermeasures');
    defence = resolvePool(rules.dice, { base: Math.min(dice, MAX_ROLLED_BASE_DICE), rerollSources: countermeasures });
    const own = lent ? `${at.barrierDefense} lent by a friendly Barrier model` : `${target.defense}${!missile ? ' (Barrier)' : ''}`;
    notes.push(`point defence ${own}${support ? ` + ${dice - (lent ? at.barrierDefense ?? 0 : target.defense)} from supporting models` : ''}${countermeasures ? ' (Countermeasures)' : ''}`);
  }
  let cloakTestDice = 0;
  if (band === 'long' && target.hasWorking('Cloak')) {
    cloakTestDice = a.skill; // v1.2.1/v1.2.2 /traits Cloak: Skill Test [D+] at long range
    usage.field(a, 'skill').field(t, 'traits.Cloak');
    notes.push('Cloak: Skill Test [D+] to target');
  }
  return { ok: true, plan: { weapon, pool, band, defence, cloakTestDice, notes } };
}

/**
 * The point defence roll against an attack of weapon class `cls` (combat.md §4.3, §7.2-7.3,
 * §8.2), packed as dice * 4 + 2 (the Defense is a friendly Barrier model's) + 1 (missile
 * support included); 0: no roll. Missiles: the target's Defense plus support, or the Barrier
 * model's Defense (with the other friends' support where the version allows it), whichever is
 * more; none in windows that deny missile defence. Mass Driver and Kinetic Cannon: the
 * target's own Defense if it has a working Barrier, or a friendly Barrier model's where the
 * version lets it cover friends; none in Assault, Boarding and Dogfight attacks (v1.2.2's own
 * list), or, under v1.2.1, wherever missile defence is denied.
 */
export function defenceDice(c: CombatRules, target: CombatState, cls: WeaponLine['cls'], at: Pick<Situation, 'noMissileDefence' | 'missileSupporters' | 'barrierDefense' | 'barrierSupporting' | 'window'>): number {
  const lend = at.barrierDefense ?? 0;
  if (cls === 'missile') {
    if (at.noMissileDefence) return 0;
    const supporters = at.missileSupporters ?? 0;
    const support = supporters * c.missileSupport;
    let best = target.defense + support > 0 ? (target.defense + support) * 4 + (support > 0 ? 1 : 0) : 0;
    if (lend > 0) {
      const s = c.barrierWithSupport ? Math.max(0, supporters - (at.barrierSupporting ? 1 : 0)) * c.missileSupport : 0;
      if (lend + s > best >> 2) best = (lend + s) * 4 + 2 + (s > 0 ? 1 : 0);
    }
    return best;
  }
  if (cls !== 'mass_driver' && cls !== 'kinetic_cannon') return 0;
  // v1.2.1: Barrier defends "exactly as if they were Missile Attacks", so not where missile
  // defence is denied; v1.2.2 names its own exclusions: Assault, Boarding and Dogfight attacks.
  const w = at.window ?? 'activation';
  if (c.barrierCoversKinetic ? w === 'dogfight' || w === 'assault' || w === 'boarding' : at.noMissileDefence) return 0;
  const own = target.hasBarrier() ? target.defense : 0;
  const lent = c.barrierCoversKinetic ? lend : 0;
  return lent > own ? lent * 4 + 2 : own > 0 ? own * 4 : 0;
}

