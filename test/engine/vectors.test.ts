// The worked examples of shared/rules/combat.md §15 (TV-01..TV-21, DV-01..DV-14) and
// game.md §8.5 (RAM-01..RAM-14) that concern what the engagement engines implement, played
// through the real code paths: planAttack + rollPlan (attack pools, range, armor, positional
// bonuses, point defence), applyResults (squadron and capital damage) and planRam + rollRam
// (ramming). Printed dice are replayed with ScriptedDice and must be consumed exactly:
// attack base + Flex dice, then its Macro dice, then the point-defence roll; for rams,
// point defence, Skill Test, the rammer's attack, then the target's return roll.
//
// Version coverage: a vector runs on every version its rules apply to. v1.2.1-only mechanics
// (Belt, base-die flank bonus) run on v1.2.1, v1.2.2-only ones (Armor, short-range Flex,
// catastrophic damage) on v1.2.2. Ramming runs on both (game.md GM-25: v1.2.2 follows the
// v1.2.3 text, the same in substance). v1.2.1 missile point defence uses the v1.2.2
// Opposed-Roll mapping (combat.md MissilePD121).
//
// Vectors about things no engine models are it.skip, with the reason in the name. Vectors the
// battle engine plays (src/engine/battle) are tested next to its other tests; a comment in
// place of each says where.
//
// Unit ratings the rules never printed are placeholders, marked (ph).
import { describe, expect, it } from 'vitest';
import { Roller } from '../../src/dice/roll.js';
import { ESCALATE_ALL, NO_RESULT } from '../../src/dice/outcome.js';
import { resolvePool } from '../../src/dice/pool.js';
import { exactAttack } from '../../src/engine/attack.js';
import type { Aspect, Situation } from '../../src/engine/attackPlan.js';
import { exactRam, planRam, squadronRamDice, type RamPlan } from '../../src/engine/ram.js';
import { CombatState } from '../../src/engine/state.js';
import { PlaceholderUsage } from '../../src/engine/usage.js';
import { UserError } from '../../src/errors.js';
import type { CompiledRules } from '../../src/rules/compile.js';
import type { RulesVersionId } from '../../src/rules/registry.js';
import { ScriptedDice } from '../../src/rng/scripted.js';
import { sampledAttack, sampledRam } from '../../src/sim/engagements.js';
import { SYSTEM_TRAITS } from '../../src/units/catalogue.js';
import type { UnitCard } from '../../src/units/types.js';
import { code, damage, expectMean, expectProportion, mustPlan, name, playAttack, playRam, refusal, shape } from '../helpers/scriptedCombat.js';
import { rulesFor, unit, weapon } from '../helpers/units.js';

const BOTH = ['1.2.1', '1.2.2'] as const satisfies readonly RulesVersionId[];
const V121 = ['1.2.1'] as const satisfies readonly RulesVersionId[];
const V122 = ['1.2.2'] as const satisfies readonly RulesVersionId[];

// Situations. Long range against a capital ship: past 6", so v1.2.2 gives no short-range Flex.
const at = (rangeInches: number, aspect: Aspect = 'front'): Situation => ({ rangeInches, aspect, targetArc: 'F' });
const LONG_VS_CAPITAL = at(9);
const LONG_VS_SQUADRON = at(6);

// --- Units (combat.md §15 / units.md; (ph) = placeholder) ----------------------------------

/** A plain capital-ship target: Defense 3, Sensors 3, Thrusters 2 (ph), Structure 4 (ph), no armor. */
const ship = (over: Parameters<typeof unit>[0] = {}) => unit({ id: 'test.ship', name: 'Ship', defense: 3, sensors: 3, thrusters: 2, structure: 4, ...over });

/** A capital-ship attacker with one turret (arc T) of the given ratings. */
const gunship = (w: Parameters<typeof weapon>[0]) => unit({ id: 'test.gunship', name: 'Gunship', sensors: 3, weapons: [w] });

/** Alexander-class destroyer: Sensors 3, Fore Armor 1 (units.md §3.1); Defense 2 (ph). */
const ALEXANDER = unit({
  id: 'jovian.alexander',
  name: 'Alexander',
  sensors: 3,
  defense: 2,
  structure: 4,
  armor: { fore: 1, portStarboard: 0, aft: 0 },
  weapons: [{ name: 'Battery (ph)', ac: 3, as: 2, arcs: ['T'] }],
});

/** Wyvern squadron: Mass Driver AC 2 / AS 2 / Macro 1, Beam Projector AS 2, Missiles (AC) Macro 0 (units.md §3.5). */
const WYVERN = unit({
  id: 'cega.wyvern',
  name: 'Wyvern',
  type: 'exo_armor',
  skill: 2,
  sensors: 3,
  defense: 2, // (ph)
  structure: 4, // (ph)
  weapons: [
    { name: 'Mass Driver', cls: 'mass_driver', ac: 2, as: 2, macro: 1 },
    { name: 'Beam Projector', cls: 'beam_projector', ac: null, as: 2, macro: 0 },
    { name: 'Missiles', cls: 'missile', ac: 3 /* (ph) */, as: null, macro: 0 },
  ],
});
const [WYVERN_MASS_DRIVER, , WYVERN_MISSILES] = WYVERN.weapons;

/** Pathfinder squadron: Damage 6, Skill 2, Beam Projector AS 3 (units.md §3.4); Defense 2 (ph). */
const PATHFINDER = unit({
  id: 'jovian.pathfinder',
  name: 'Pathfinder',
  type: 'exo_armor',
  skill: 2,
  defense: 2,
  structure: 6,
  weapons: [{ name: 'Beam Projector', cls: 'beam_projector', ac: null, as: 3 }],
});

/** Uller: a missile attack on a squadron with a pool of at least 5 dice (units.md §3.6); AS 5, Macro 0 (ph). */
const ULLER = unit({
  id: 'cega.uller',
  name: 'Uller',
  type: 'exo_armor',
  sensors: 3,
  weapons: [{ name: 'Missiles', cls: 'missile', ac: null, as: 5, macro: 0 }],
});

/** Valiant: starting Structure 4 (units.md §3.2); Skill 3 (ph, game.md RAM-01). */
const VALIANT = unit({ id: 'jovian.valiant', name: 'Valiant', structure: 4, skill: 3, defense: 2, sensors: 3, thrusters: 2 });

/** Tengu: starting Structure 3 (units.md §3.3); two System traits so that criticals show (CritDefault). */
const TENGU = unit({
  id: 'unknown.tengu',
  name: 'Tengu',
  structure: 3,
  skill: 2,
  defense: 2,
  sensors: 3,
  thrusters: 2,
  traits: [
    ['Comms', 1],
    ['Cloak', 1],
  ],
});

const bit = (trait: (typeof SYSTEM_TRAITS)[number]) => 1 << SYSTEM_TRAITS.indexOf(trait);

function ram(rules: CompiledRules, rammer: UnitCard, target: UnitCard, aspect: Aspect): RamPlan {
  return planRam(rules, rammer, target, aspect, new PlaceholderUsage(rules));
}

/** The rules with some combat data replaced, as an overlay would (e.g. a real Catastrophic table). */
function withCombat(rules: CompiledRules, combat: Partial<CompiledRules['combat']>): CompiledRules {
  return { ...rules, combat: { ...rules.combat, ...combat } };
}

// ===========================================================================================
describe('combat.md §15.1 worked examples: dice read through an attack', () => {
  for (const id of BOTH) {
    const rules = rulesFor(id);

    it(`TV-01 an AC 3 attack rolls 1,4,5: [N], the target is untouched [v${id}]`, () => {
      const plan = mustPlan(rules, gunship({ ac: 3 }), gunship({ ac: 3 }).weapons[0], ship(), LONG_VS_CAPITAL);
      expect(shape(plan.pool)).toEqual({ base: 3, flex: 0, macro: 0 });
      const out = playAttack(rules, plan, [1, 4, 5]);
      expect(name(out)).toBe('[N]');
      const t = new CombatState(ship());
      const tally = damage(rules, t, out);
      expect({ ...tally }).toEqual({ structure: 0, defense: 0, sensors: 0, thrusters: 0, criticals: 0 });
    });

    it(`TV-02 two 2s and two 4s among unique faces: two separate Results [D2,D4], each a rating hit [v${id}]`, () => {
      const a = gunship({ ac: 5 });
      const out = playAttack(rules, mustPlan(rules, a, a.weapons[0], ship(), LONG_VS_CAPITAL), [2, 2, 4, 4, 6]);
      expect(name(out)).toBe('[D2,D4]');
      const t = new CombatState(ship());
      const tally = damage(rules, t, out);
      expect([t.defense, t.sensors, t.thrusters, t.structure]).toEqual([2, 2, 2, 4]);
      expect(tally.criticals).toBe(0);
    });

    it(`TV-03 2d6 rolls 2,2: [D2], Value 2, Magnitude D [v${id}]`, () => {
      const a = gunship({ ac: 2 });
      const out = playAttack(rules, mustPlan(rules, a, a.weapons[0], ship(), LONG_VS_CAPITAL), [2, 2]);
      expect(out).toBe(code('[D2]'));
    });

    it(`TV-05 Macro +2 rolling 4,6 on base 4,4,6: [T4] (the base 6 is not upgraded); -1 Structure, 1 critical [v${id}]`, () => {
      const a = gunship({ ac: 3, macro: 2 });
      const plan = mustPlan(rules, a, a.weapons[0], ship(), LONG_VS_CAPITAL);
      expect(shape(plan.pool)).toEqual({ base: 3, flex: 0, macro: 2 });
      const out = playAttack(rules, plan, [4, 4, 6, 4, 6]);
      expect(name(out)).toBe('[T4]');
      const t = new CombatState(ship());
      const tally = damage(rules, t, out);
      expect([t.structure, tally.criticals, t.defense, t.sensors, t.thrusters]).toEqual([3, 1, 3, 3, 2]);
    });

    it(`TV-06 Macro +2 rolling 4,4 on base 4,4,6: [Q4]; -2 Structure, 2 criticals [v${id}]`, () => {
      const a = gunship({ ac: 3, macro: 2 });
      const out = playAttack(rules, mustPlan(rules, a, a.weapons[0], ship(), LONG_VS_CAPITAL), [4, 4, 6, 4, 4]);
      expect(name(out)).toBe('[Q4]');
      const t = new CombatState(ship());
      const tally = damage(rules, t, out);
      expect([t.structure, tally.criticals]).toEqual([2, 2]);
    });

    it(`TV-08 Alexander, Sensors 3: 15" vs capital ships, 12" vs squadrons; at 13" only the capital ship is a legal target [v${id}]`, () => {
      const gun = ALEXANDER.weapons[0];
      const squadron = unit({ type: 'fighter', structure: 4 });
      expect(mustPlan(rules, ALEXANDER, gun, ship(), at(15)).band).toBe('long');
      expect(refusal(rules, ALEXANDER, gun, ship(), at(15.01))).toMatch(/out of range: 15.01 in > 15 in for AC at Sensors 3/);
      expect(mustPlan(rules, ALEXANDER, gun, squadron, at(12)).band).toBe('long');
      expect(refusal(rules, ALEXANDER, gun, squadron, at(12.01))).toMatch(/out of range: 12.01 in > 12 in for AS at Sensors 3/);
      expect(refusal(rules, ALEXANDER, gun, ship(), at(13))).toBeNull();
      expect(refusal(rules, ALEXANDER, gun, squadron, at(13))).toMatch(/out of range/);
      // Short range bands: 6" (AC) and 3" (AS), inclusive.
      expect(mustPlan(rules, ALEXANDER, gun, ship(), at(6)).band).toBe('short');
      expect(mustPlan(rules, ALEXANDER, gun, ship(), at(6.5)).band).toBe('long');
      expect(mustPlan(rules, ALEXANDER, gun, squadron, at(3)).band).toBe('short');
      expect(mustPlan(rules, ALEXANDER, gun, squadron, at(3.5)).band).toBe('long');
    });

    it(`TV-10 Wyvern Mass Driver AC:2 vs a capital ship rolls 2,2: [D2], target Defense -1 [v${id}]`, () => {
      const plan = mustPlan(rules, WYVERN, WYVERN_MASS_DRIVER, ship(), LONG_VS_CAPITAL);
      expect(shape(plan.pool)).toEqual({ base: 2, flex: 0, macro: 1 });
      expect(plan.defence).toBeNull(); // not a missile: no point defence
      const out = playAttack(rules, plan, [2, 2, 5]); // 5 = the Macro die (filler; it matches no set)
      expect(name(out)).toBe('[D2]');
      const t = new CombatState(ship());
      const tally = damage(rules, t, out);
      expect([t.defense, t.sensors, t.thrusters, t.structure]).toEqual([2, 3, 2, 4]);
      expect({ ...tally }).toEqual({ structure: 0, defense: 1, sensors: 0, thrusters: 0, criticals: 0 });
    });

    it(`TV-11 Uller missiles on Pathfinders roll [D2,T3], point defence fails: the squadron loses 1 + 2 = 3, Value ignored [v${id}]`, () => {
      const plan = mustPlan(rules, ULLER, ULLER.weapons[0], PATHFINDER, LONG_VS_SQUADRON);
      expect(shape(plan.pool)).toEqual({ base: 5, flex: 0, macro: 0 });
      expect(plan.defence && shape(plan.defence)).toEqual({ base: 2, flex: 0, macro: 0 });
      const out = playAttack(rules, plan, [2, 2, 3, 3, 3, /* point defence */ 1, 4]);
      expect(name(out)).toBe('[D2,T3]');
      const t = new CombatState(PATHFINDER);
      const tally = damage(rules, t, out);
      expect(tally.structure).toBe(3);
      expect(t.structure).toBe(3);
      expect(t.destroyed).toBe(false);
      // Crippled: v1.2.1 at the small boxes (CrippledThreshold default: 3 of 6); v1.2.2 has no crippled squadrons.
      expect(t.crippled).toBe(id === '1.2.1');
      // Value is ignored: the same Magnitudes on other faces do the same.
      const other = new CombatState(PATHFINDER);
      expect(damage(rules, other, code('[D6,T1]')).structure).toBe(3);
    });

    it(`TV-12 missile [D2,D3] against point defence [D]: one Diminish, the defender's default takes the higher Value, [D2] [v${id}${id === '1.2.1' ? ', MissilePD121' : ''}]`, () => {
      const target = ship({ defense: 2 });
      const a = gunship({ cls: 'missile', ac: 4 });
      const plan = mustPlan(rules, a, a.weapons[0], target, LONG_VS_CAPITAL);
      expect(plan.defence && shape(plan.defence)).toEqual({ base: 2, flex: 0, macro: 0 });
      const out = playAttack(rules, plan, [2, 2, 3, 3, /* point defence */ 5, 5]);
      expect(name(out)).toBe('[D2]');
      // The Secondary's choice: the other option is [D3].
      const low = rulesFor(id, ['secondary_selector=GREEDY_LOW_VALUE']);
      expect(name(playAttack(low, mustPlan(low, a, a.weapons[0], target, LONG_VS_CAPITAL), [2, 2, 3, 3, 5, 5]))).toBe('[D3]');
    });
  }

  for (const id of V121) {
    const rules = rulesFor(id);

    it(`TV-04 Base 3d6 with a +1d6 base modifier (attacking the flank, Flank121): 4 dice rolled, all 4 kept [v${id}]`, () => {
      const a = gunship({ ac: 3 });
      const side = mustPlan(rules, a, a.weapons[0], ship(), at(9, 'side'));
      expect(shape(side.pool)).toEqual({ base: 4, flex: 0, macro: 0 });
      // All four are kept: a Quadruple is possible.
      expect(name(playAttack(rules, side, [3, 3, 3, 3]))).toBe('[Q3]');
      // The rear arc: +2 base dice (Flank121); the front: none.
      expect(shape(mustPlan(rules, a, a.weapons[0], ship(), at(9, 'rear')).pool)).toEqual({ base: 5, flex: 0, macro: 0 });
      expect(shape(mustPlan(rules, a, a.weapons[0], ship(), at(9, 'front')).pool)).toEqual({ base: 3, flex: 0, macro: 0 });
      // No positional bonus against squadrons (no facing); no short-range bonus in v1.2.1.
      const squadron = unit({ type: 'fighter', structure: 4 });
      expect(shape(mustPlan(rules, a, a.weapons[0], squadron, at(2, 'side')).pool)).toEqual({ base: 2, flex: 0, macro: 0 });
    });

    it(`TV-07 negative Macro: Base 3d6 rolling 4,4,6, Macro -2 (Belt:2, attack into the side) rolling 4,6: [D4] downgraded to [N] [v${id}]`, () => {
      const a = gunship({ ac: 2, macro: 0 });
      const belted = ship({ traits: [['Belt', 2]] });
      const plan = mustPlan(rules, a, a.weapons[0], belted, at(9, 'side'));
      expect(shape(plan.pool)).toEqual({ base: 3, flex: 0, macro: -2 }); // 2 + 1 flank base die; 0 - Belt 2
      expect(name(playAttack(rules, plan, [4, 4, 6, 4, 6]))).toBe('[N]');
      // Belt only covers the port and starboard arcs.
      expect(shape(mustPlan(rules, a, a.weapons[0], belted, at(9, 'front')).pool)).toEqual({ base: 2, flex: 0, macro: 0 });
    });
  }

  for (const id of V122) {
    const rules = rulesFor(id);

    it(`TV-07 negative Macro: Base 3d6 rolling 4,4,6, Macro -2 (Armor 2) rolling 4,6: [D4] downgraded to [N] [v${id}]`, () => {
      const a = gunship({ ac: 3, macro: 0 });
      const plan = mustPlan(rules, a, a.weapons[0], ship({ armor: { fore: 2, portStarboard: 0, aft: 0 } }), LONG_VS_CAPITAL);
      expect(shape(plan.pool)).toEqual({ base: 3, flex: 0, macro: -2 });
      expect(name(playAttack(rules, plan, [4, 4, 6, 4, 6]))).toBe('[N]');
    });

    it(`TV-09(a) Wyvern Mass Driver (AC 2, Macro 1) into the Alexander's Fore Armor 1 at Long Range: Macro 0, roll 2d6 only [v${id}]`, () => {
      const plan = mustPlan(rules, WYVERN, WYVERN_MASS_DRIVER, ALEXANDER, LONG_VS_CAPITAL);
      expect(plan.band).toBe('long');
      expect(shape(plan.pool)).toEqual({ base: 2, flex: 0, macro: 0 });
      expect(plan.defence).toBeNull();
      expect(name(playAttack(rules, plan, [5, 5]))).toBe('[D5]');
      // At Short Range the v1.2.2 bonus adds 1 Flex die: roll 3, keep 2.
      const short = mustPlan(rules, WYVERN, WYVERN_MASS_DRIVER, ALEXANDER, at(5));
      expect(short.band).toBe('short');
      expect(shape(short.pool)).toEqual({ base: 2, flex: 1, macro: 0 });
    });

    it(`TV-09(b) Wyvern Missiles: AC (Macro 0) into Fore Armor 1: Macro -1, one negative Macro die, then the Alexander's point defence [v${id}]`, () => {
      const plan = mustPlan(rules, WYVERN, WYVERN_MISSILES, ALEXANDER, LONG_VS_CAPITAL);
      expect(shape(plan.pool)).toEqual({ base: 3, flex: 0, macro: -1 });
      expect(plan.defence && shape(plan.defence)).toEqual({ base: 2, flex: 0, macro: 0 });
      // Base 3,3,5 = [D3]; the negative Macro die 1 misses; point defence 2,4 = [N].
      const out = playAttack(rules, plan, [3, 3, 5, 1, 2, 4]);
      expect(name(out)).toBe('[D3]');
      const t = new CombatState(ALEXANDER);
      damage(rules, t, out);
      expect(t.sensors).toBe(2);
      // A negative Macro die matching the set takes it away: [D3] -> [N], and point defence is still rolled.
      expect(name(playAttack(rules, plan, [3, 3, 5, 3, 2, 4]))).toBe('[N]');
      // Option armor_vs_missiles=NO: Armor leaves missiles alone.
      const noArmor = rulesFor(id, ['armor_vs_missiles=NO']);
      expect(shape(mustPlan(noArmor, WYVERN, WYVERN_MISSILES, ALEXANDER, LONG_VS_CAPITAL).pool)).toEqual({ base: 3, flex: 0, macro: 0 });
    });
  }

  // TV-13 (Boost halves Fire Control, 3 -> 2): played in test/engine/battle/options.test.ts, 'Boost halves a capital ship's Fire Control, rounded up', 'TV-13: ...'.
  // TV-14 (dogfight): played in test/engine/battle/dogfight.test.ts, 'worked example: Wyvern vs a damaged Pathfinder', '1.2.1: Engage, reply, Engage; the Pathfinder is destroyed'.
  // TV-15 (v1.2.2 bombing): played in test/engine/battle/strike.test.ts, 'bombing: the Wraith example', 'newer rules: interception once, ...'.
  // TV-16 (v1.2.1 bombing): played in test/engine/battle/strike.test.ts, 'bombing: the Wraith example', 'older rules: the interception replaces run 1's PD; ...'.
  // TV-20 (end-of-game VP): played in test/engine/battle/victory.test.ts, 'TV-20 (combat.md §15.1): a 100-point ship Captured ...'.
  it.skip('TV-21 v1.2.3 dogfight variant: the Wyvern ends on 0 Fuel and stays in place (not modelled: jwsim has rules v1.2.1 and v1.2.2 only (src/rules/registry.ts); under v1.2.2 the Wyvern at 0 Fuel enters Return to Base instead (GM-72), as test/engine/battle/dogfight.test.ts checks)', () => {});
});

// ===========================================================================================
describe('combat.md §15.1 ramming examples (TV-17..TV-19)', () => {
  for (const id of BOTH) {
    const rules = rulesFor(id);

    it(`TV-17 Valiant rams Tengu in the side [v${id}]`, () => {
      const plan = ram(rules, VALIANT, TENGU, 'side');
      expect(plan.kind).toBe('capital-capital');
      expect(plan.defence).toBeNull();
      // 4 (starting Structure) + 1d6 base for striking the side arc (RamBonus / GM-23); the Tengu 3, no bonus.
      expect(shape(plan.rammerAttack)).toEqual({ base: 5, flex: 0, macro: 0 });
      expect(plan.targetAttack && shape(plan.targetAttack)).toEqual({ base: 3, flex: 0, macro: 0 });
      expect(plan.escalate).toBe(true);
      // Skill 3,3,1 (filler: it passes); Valiant [D2,D5]; Tengu [D2].
      const r = playRam(rules, plan, VALIANT, TENGU, [3, 3, 1, 2, 2, 5, 5, 1, 2, 2, 6]);
      expect(r.roll.result).toBe('rammed');
      expect(name(r.roll.rammerCode)).toBe('[T2,T5]');
      expect(name(r.roll.targetCode)).toBe('[T2]');
      // Tengu: 3 -> 1 Structure, criticals for Values 2 and 5.
      expect([r.target.structure, r.tally.structure, r.tally.criticals]).toEqual([1, 2, 2]);
      expect(r.target.crippled || r.target.destroyed).toBe(false);
      // Valiant: 1 -> 0. v1.2.1: Crippled; v1.2.2: Catastrophic Damage Table (placeholder CatDefault: Destroyed).
      expect(r.rammer.structure).toBe(0);
      if (id === '1.2.1') expect([r.rammer.crippled, r.rammer.destroyed]).toEqual([true, false]);
      else expect(r.rammer.destroyed).toBe(true);
    });

    it(`TV-17 with ram_front_bonus=RAMMER_ALWAYS (the v1.2.1 text's "+1d6 for front arc"): Valiant 5, Tengu 3 [v${id}]`, () => {
      const literal = rulesFor(id, ['ram_front_bonus=RAMMER_ALWAYS']);
      const plan = ram(literal, VALIANT, TENGU, 'side');
      expect(shape(plan.rammerAttack)).toEqual({ base: 5, flex: 0, macro: 0 });
      expect(plan.targetAttack && shape(plan.targetAttack)).toEqual({ base: 3, flex: 0, macro: 0 });
      const r = playRam(literal, plan, VALIANT, TENGU, [3, 3, 1, 2, 2, 5, 5, 1, 2, 2, 6]);
      expect([name(r.roll.rammerCode), name(r.roll.targetCode)]).toEqual(['[T2,T5]', '[T2]']);
    });

    it(`TV-18 Pathfinder (Damage 6, Skill 2) rams a capital ship: Skill Test 2 + 1 = 3d6; attack 3d6 with +/-3d6 Flex (roll 6, keep 3) [v${id}]`, () => {
      const target = ship({ defense: 2 });
      const plan = ram(rules, PATHFINDER, target, 'front');
      expect(plan.kind).toBe('squadron-capital');
      expect(plan.defence && shape(plan.defence)).toEqual({ base: 2, flex: 0, macro: 0 });
      expect(shape(plan.skill)).toEqual({ base: 3, flex: 0, macro: 0 });
      expect(shape(plan.rammerAttack)).toEqual({ base: 3, flex: 3, macro: 0 });
      expect(plan.targetAttack).toBeNull();
      expect(plan.escalate).toBe(false);
      // Survives point defence (1,2 = [N]), passes (5,5,1), is destroyed, then attacks (filler dice 1,1,2,3,4,6: [D1]).
      const r = playRam(rules, plan, PATHFINDER, target, [1, 2, 5, 5, 1, 1, 1, 2, 3, 4, 6]);
      expect(r.roll.result).toBe('rammed');
      expect(name(r.roll.rammerCode)).toBe('[D1]');
      expect(r.rammer.destroyed).toBe(true);
      expect(r.target.defense).toBe(1);
    });

    it(`TV-19 Pathfinder rams a Wyvern: Wyvern point defence fails, Skill Test 2d6 passes, attack 3d6 base + 3d6 Macro [v${id}]`, () => {
      const plan = ram(rules, PATHFINDER, WYVERN, 'front');
      expect(plan.kind).toBe('squadron-squadron');
      expect(shape(plan.skill)).toEqual({ base: 2, flex: 0, macro: 0 });
      expect(shape(plan.rammerAttack)).toEqual({ base: 3, flex: 0, macro: 3 });
      const r = playRam(rules, plan, PATHFINDER, WYVERN, [1, 6, 4, 4, 2, 2, 5, 1, 3, 4]);
      expect(r.roll.result).toBe('rammed');
      expect(name(r.roll.rammerCode)).toBe('[D2]');
      expect(r.rammer.destroyed).toBe(true);
      expect(r.target.structure).toBe(3);
    });
  }
});

// ===========================================================================================
describe('combat.md §15.2 derived vectors', () => {
  for (const id of BOTH) {
    const rules = rulesFor(id);

    it(`DV-01 [T5],[D1],[D3] on a capital ship: D1 (Defense -1), D3 (Sensors -1), then T5 (Structure -1, 1 Critical) [v${id}${id === '1.2.1' ? ', Order121' : ''}]`, () => {
      const t = new CombatState(ship());
      const tally = damage(rules, t, code('[T5,D1,D3]'));
      expect([t.defense, t.sensors, t.thrusters, t.structure]).toEqual([2, 2, 2, 3]);
      expect({ ...tally }).toEqual({ structure: 1, defense: 1, sensors: 1, thrusters: 0, criticals: 1 });
    });

    it(`DV-02 [Q4] on a capital ship: two [T4], Structure -2 and two criticals of Value 4 [v${id}]`, () => {
      const target = ship({ traits: [['Comms', 1], ['Cloak', 1], ['Command', 1]] });
      const t = new CombatState(target);
      const tally = damage(rules, t, code('[Q4]'));
      expect([t.structure, tally.structure, tally.criticals]).toEqual([2, 2, 2]);
      expect([t.defense, t.sensors, t.thrusters]).toEqual([3, 3, 2]); // a [Q] is not also a [D]
      // CritDefault (placeholder): each critical knocks out one System trait.
      expect(t.disabledSystems).toBe(bit('Cloak') | bit('Comms'));
      expect(t.hasWorking('Cloak') || t.hasWorking('Comms')).toBe(false);
      expect(t.hasWorking('Command')).toBe(true); // not a System trait
      // critical_effects=NONE: criticals counted, no effect.
      const none = rulesFor(id, ['critical_effects=NONE']);
      const u = new CombatState(target);
      expect(damage(none, u, code('[Q4]')).criticals).toBe(2);
      expect(u.disabledSystems).toBe(0);
    });

    it(`DV-03 [Q3] on a squadron with 5 Structure: Destroyed [v${id}]`, () => {
      const t = new CombatState(unit({ type: 'fighter', structure: 5 }));
      const tally = damage(rules, t, code('[Q3]'));
      expect([t.destroyed, t.structure, tally.structure]).toEqual([true, 0, 5]);
      // Several Results apply separately, and nothing after destruction: [D1,T2] on 3 = destroyed by the [T].
      const u = new CombatState(unit({ type: 'fighter', structure: 3 }));
      expect([damage(rules, u, code('[D1,T2]')).structure, u.destroyed]).toEqual([3, true]);
    });

    it(`DV-05 escalation in a ram: [N] stays [N]; [Q6] stays [Q6]; [D1,T3] becomes [T1,Q3] [v${id}]`, () => {
      const plan = ram(rules, VALIANT, TENGU, 'side'); // Valiant 5 dice, Tengu 3
      // Valiant [D1,T3] -> [T1,Q3]; Tengu [N].
      let r = playRam(rules, plan, VALIANT, TENGU, [4, 4, 2, 1, 1, 3, 3, 3, 1, 2, 3]);
      expect([name(r.roll.rammerCode), name(r.roll.targetCode)]).toEqual(['[T1,Q3]', '[N]']);
      // Tengu: T1 (-1, 1 crit) then Q3 (-2, 2 crits): 3 -> 0.
      expect([r.target.structure, r.tally.structure]).toEqual([0, 3]);
      // v1.2.1: Crippled at 0, and the [Q]'s criticals still apply (Overkill); v1.2.2: Destroyed
      // (placeholder Catastrophic table) when the [Q] takes the last Structure, so its criticals are moot.
      if (id === '1.2.1') expect([r.target.crippled, r.target.destroyed, r.tally.criticals]).toEqual([true, false, 3]);
      else expect([r.target.destroyed, r.tally.criticals]).toEqual([true, 1]);
      expect(r.rammer.structure).toBe(1); // the [N] return roll does nothing
      // Valiant [Q6] (five 6s) stays [Q6].
      r = playRam(rules, plan, VALIANT, TENGU, [4, 4, 2, 6, 6, 6, 6, 6, 1, 2, 3]);
      expect(name(r.roll.rammerCode)).toBe('[Q6]');
      expect(ESCALATE_ALL[NO_RESULT]).toBe(NO_RESULT);
    });

    it(`DV-06(a) missile [D2,T4] vs point defence [D]: greedy diminishes T4 -> [D2,D4], two rating hits, no Structure [v${id}]`, () => {
      const target = ship({ defense: 2 });
      const a = gunship({ cls: 'missile', ac: 5 });
      const out = playAttack(rules, mustPlan(rules, a, a.weapons[0], target, LONG_VS_CAPITAL), [2, 2, 4, 4, 4, 6, 6]);
      expect(name(out)).toBe('[D2,D4]');
      const t = new CombatState(target);
      const tally = damage(rules, t, out);
      expect({ ...tally }).toEqual({ structure: 0, defense: 1, sensors: 1, thrusters: 0, criticals: 0 });
      // Against a squadron both options leave 2 damage.
      expect(damage(rules, new CombatState(PATHFINDER), out).structure).toBe(2);
    });

    it(`DV-06(b) missile [D2,T4] vs point defence [T]: two steps, T4 -> D4 then the higher Value goes, [D2] (Defense -1) [v${id}]`, () => {
      const target = ship({ defense: 3 });
      const a = gunship({ cls: 'missile', ac: 5 });
      const plan = mustPlan(rules, a, a.weapons[0], target, LONG_VS_CAPITAL);
      expect(plan.defence && shape(plan.defence)).toEqual({ base: 3, flex: 0, macro: 0 });
      const out = playAttack(rules, plan, [2, 2, 4, 4, 4, 6, 6, 6]);
      expect(name(out)).toBe('[D2]');
      const t = new CombatState(target);
      damage(rules, t, out);
      expect([t.defense, t.sensors, t.structure]).toEqual([2, 3, 4]);
    });

    it(`DV-14 Sensors 0: targets only within 6" (capital ship) and 3" (squadron) [v${id}]`, () => {
      const a = unit({ sensors: 0, weapons: [{ ac: 3, as: 2 }] });
      const squadron = unit({ type: 'fighter', structure: 4 });
      expect(mustPlan(rules, a, a.weapons[0], ship(), at(6)).band).toBe('short');
      expect(refusal(rules, a, a.weapons[0], ship(), at(6.01))).toMatch(/out of range: 6.01 in > 6 in for AC at Sensors 0/);
      expect(mustPlan(rules, a, a.weapons[0], squadron, at(3)).band).toBe('short');
      expect(refusal(rules, a, a.weapons[0], squadron, at(3.01))).toMatch(/out of range/);
      // The current Sensors count: a ship whose Sensors were shot to 0 loses its long band.
      const b = new CombatState(ALEXANDER);
      damage(rules, b, code('[D3,D4]'));
      damage(rules, b, code('[D4]'));
      expect(b.sensors).toBe(0);
      expect(refusal(rules, b, ALEXANDER.weapons[0], ship(), at(9))).toMatch(/out of range: 9 in > 6 in/);
    });
  }

  it('DV-01 resolution order is observable through the Catastrophic Damage Table: [D] before [T] [v1.2.2]', () => {
    // With a table that destroys only at 2+ ratings at 0, a ship at Structure 1 with Defense
    // and Sensors at 1 is Destroyed only if both [D] land before the [T].
    const rules = withCombat(rulesFor('1.2.2'), { catastrophicTable: ['crippled', 'crippled', 'destroyed', 'destroyed'] });
    const t = new CombatState(ship({ structure: 1, defense: 1, sensors: 1, thrusters: 2 }));
    damage(rules, t, code('[T5,D1,D3]'));
    expect([t.defense, t.sensors, t.structure, t.destroyed]).toEqual([0, 0, 0, true]);
    // The mirror table shows the count was 2: the ship is Crippled.
    const mirror = withCombat(rulesFor('1.2.2'), { catastrophicTable: ['destroyed', 'destroyed', 'crippled', 'crippled'] });
    const u = new CombatState(ship({ structure: 1, defense: 1, sensors: 1, thrusters: 2 }));
    damage(mirror, u, code('[T5,D1,D3]'));
    expect([u.crippled, u.destroyed]).toEqual([true, false]);
  });

  it('DV-01 within a Magnitude, lowest Value first: [D1] before [D3] (zero_rating_hit=STRUCTURE) [v1.2.2]', () => {
    // Defense already 0: D1 spills to Structure (1 -> 0) while Sensors is still 1, so one
    // rating is at 0 when the Catastrophic roll is made; D3 first would make it two.
    const rules = withCombat(rulesFor('1.2.2', ['zero_rating_hit=STRUCTURE']), { catastrophicTable: ['crippled', 'crippled', 'destroyed', 'destroyed'] });
    const t = new CombatState(ship({ structure: 1, defense: 0, sensors: 1, thrusters: 2 }));
    damage(rules, t, code('[D3,D1]'));
    expect([t.structure, t.crippled, t.destroyed, t.sensors]).toEqual([0, true, false, 0]);
  });

  it('DV-04 flex ceiling: Base 2d6 with +/-1 Flex (v1.2.2 short range) rolling 3,5,5: keep 5,5, [D5] [v1.2.2]', () => {
    const rules = rulesFor('1.2.2');
    const a = gunship({ ac: 2, macro: 0 });
    const plan = mustPlan(rules, a, a.weapons[0], ship(), at(5));
    expect(shape(plan.pool)).toEqual({ base: 2, flex: 1, macro: 0 });
    expect(name(playAttack(rules, plan, [3, 5, 5]))).toBe('[D5]');
    // With X = 2 a [T] is impossible.
    expect(name(playAttack(rules, plan, [5, 5, 5]))).toBe('[D5]');
  });

  it('DV-04 flex ceiling: Base 2d6 with +/-1 Flex rolling 3,5,5: [D5] [v1.2.1, dice kernel: no v1.2.1 attack grants Flex]', () => {
    const rules = rulesFor('1.2.1');
    const dice = new ScriptedDice([3, 5, 5]);
    const out = new Roller(rules.dice).unopposed(resolvePool(rules.dice, { base: 2, flexGrants: [1] }), dice);
    dice.assertConsumed();
    expect(name(out)).toBe('[D5]');
  });

  it('DV-07 attack into a P/S Armor 2 arc with a Macro 1 weapon: Macro -1; base 3,3,6 with negative Macro 3: [D3] -> [N] [v1.2.2]', () => {
    const rules = rulesFor('1.2.2');
    const a = gunship({ ac: 3, macro: 1 });
    const plan = mustPlan(rules, a, a.weapons[0], ship({ armor: { fore: 0, portStarboard: 2, aft: 0 } }), at(9, 'side'));
    // Table122: the side arc also grants +1 Flex, so a 4th die (filler 1) is rolled and one discarded.
    expect(shape(plan.pool)).toEqual({ base: 3, flex: 1, macro: -1 });
    expect(name(playAttack(rules, plan, [3, 3, 6, 1, 3]))).toBe('[N]');
  });

  it('DV-08 Wyvern Mass Driver (AC 2, Macro 1) at 5" into Fore Armor 0 in its Activation: roll 3 keep 2, plus 1 Macro die [v1.2.2]', () => {
    const rules = rulesFor('1.2.2');
    const plan = mustPlan(rules, WYVERN, WYVERN_MASS_DRIVER, ship({ armor: { fore: 0, portStarboard: 1, aft: 1 } }), at(5));
    expect(plan.band).toBe('short');
    expect(shape(plan.pool)).toEqual({ base: 2, flex: 1, macro: 1 });
    // The Flex discard is chosen with the Macro die in view: 4,6,6 + Macro 6 -> keep 6,6 -> [T6].
    expect(name(playAttack(rules, plan, [4, 6, 6, 6]))).toBe('[T6]');
  });

  // DV-09 (v1.2.2 Assault pool): played in test/engine/battle/strike.test.ts, 'DV-09: the Assault attack pool in a battle'
  // (including '+2 Flex and nothing more', at the bow and at the side).
  // DV-10 (v1.2.2 boarding entry): played in test/engine/battle/boarding.test.ts, 'DV-10: commit 3, point defence [T] → 1 Boarder'.
  // DV-11 (v1.2.1 boarding): played in test/engine/battle/boarding.test.ts, 'DV-11: point defence [N], defender Marines [D] (X = 2), ...'.
  // DV-12 (v1.2.1 missile support): played in test/engine/battle/missileSupport.test.ts, 'DV-12: Defense 2, two supporting ships ...' (both versions; Assist122).
  // DV-13 (v1.2.2 Concentrated Fire): played in test/engine/battle/concentratedFire.test.ts, 'DV-13 Skill Test [N] ...', 'DV-13 Skill Test [D+] ...'
  // and 'DV-13: the missile attack gets no Concentrated Fire Flex ...'.
});

// ===========================================================================================
describe('game.md §8.5 ramming test vectors', () => {
  for (const id of BOTH) {
    const rules = rulesFor(id);

    it(`RAM-01 Valiant (Str 4, 1 left, Skill 3) rams an undamaged Tengu in its S arc, not head-on [v${id}]`, () => {
      const plan = ram(rules, VALIANT, TENGU, 'side');
      expect(shape(plan.skill)).toEqual({ base: 3, flex: 0, macro: 0 });
      expect(shape(plan.rammerAttack)).toEqual({ base: 5, flex: 0, macro: 0 });
      expect(plan.targetAttack && shape(plan.targetAttack)).toEqual({ base: 3, flex: 0, macro: 0 });
      const r = playRam(rules, plan, VALIANT, TENGU, [3, 3, 1, 2, 2, 5, 5, 1, 2, 2, 6]);
      expect(r.roll.result).toBe('rammed'); // skill [D3]
      expect(name(r.roll.rammerCode)).toBe('[T2,T5]');
      expect(name(r.roll.targetCode)).toBe('[T2]');
      // Tengu -2 Structure (3 -> 1) and 2 criticals (Values 2 and 5): both System traits out (CritDefault).
      expect([r.target.structure, r.tally.structure, r.tally.criticals]).toEqual([1, 2, 2]);
      expect(r.target.disabledSystems).toBe(bit('Comms') | bit('Cloak'));
      expect([r.target.defense, r.target.sensors, r.target.thrusters]).toEqual([2, 3, 2]);
      // Valiant -1 Structure (1 -> 0) plus 1 critical (Value 2); the rolls were simultaneous (GM-78).
      expect(r.rammer.structure).toBe(0);
      if (id === '1.2.1') expect([r.rammer.crippled, r.rammer.destroyed]).toEqual([true, false]);
      else expect(r.rammer.destroyed).toBe(true); // v1.2.2: Catastrophic Damage Table, placeholder Destroyed
      // The critical: v1.2.1 applies it to the Crippled ship; in v1.2.2 the ship is Destroyed by the
      // [T]'s Structure loss, so its critical is moot (CatTrigger / Overkill, combat.md §9.7-9.8).
      const valiant = new CombatState(VALIANT);
      valiant.structure = 1;
      expect(damage(rules, valiant, r.roll.targetCode).criticals).toBe(id === '1.2.1' ? 1 : 0);
    });

    it(`RAM-02 Valiant fails its Skill Test (1,2,4 = [N]): the ram fails, no attack rolls, nobody damaged [v${id}]`, () => {
      const r = playRam(rules, ram(rules, VALIANT, TENGU, 'side'), VALIANT, TENGU, [1, 2, 4]);
      expect(r.roll).toEqual({ result: 'failed', rammerCode: 0, targetCode: 0 });
      expect([r.rammer.structure, r.rammer.destroyed, r.rammer.crippled]).toEqual([1, false, false]);
      expect([r.target.structure, r.tally.structure, r.tally.criticals]).toEqual([3, 0, 0]);
    });

    it(`RAM-03 head-on (each ship in the other's F arc): Valiant 4 + 1 = 5, Tengu 3 + 1 = 4 [v${id}]`, () => {
      const plan = ram(rules, VALIANT, TENGU, 'front');
      expect(shape(plan.rammerAttack)).toEqual({ base: 5, flex: 0, macro: 0 });
      expect(plan.targetAttack && shape(plan.targetAttack)).toEqual({ base: 4, flex: 0, macro: 0 });
      // ram_front_bonus=RAMMER_ALWAYS keeps both +1d6 head-on; ram_flank_mode does not apply to the front.
      for (const opts of [['ram_front_bonus=RAMMER_ALWAYS'], ['ram_flank_mode=GENERAL']]) {
        const p = ram(rulesFor(id, opts), VALIANT, TENGU, 'front');
        expect([shape(p.rammerAttack).base, p.targetAttack?.base]).toEqual([5, 4]);
      }
    });

    it(`RAM-05 a capital ship may not ram a squadron: planRam refuses with a UserError [v${id}]`, () => {
      expect(() => ram(rules, VALIANT, WYVERN, 'front')).toThrow(UserError);
      expect(() => ram(rules, VALIANT, WYVERN, 'side')).toThrow(/a capital ship may not ram a squadron/);
    });

    it(`RAM-07 Pathfinder (Damage 6, 1 left, Skill 2) rams a capital ship with Defense 2: PD [N], Skill [D4], keeps 6,6,6 = [T6]: ship -1 Structure, 1 critical [v${id}]`, () => {
      const target = ship({ defense: 2, traits: [['Countermeasures', 1]] });
      const plan = ram(rules, PATHFINDER, target, 'front');
      expect(shape(plan.rammerAttack)).toEqual({ base: 3, flex: 3, macro: 0 });
      const r = playRam(rules, plan, PATHFINDER, target, [1, 3, 4, 4, 2, 6, 6, 6, 2, 3, 1]);
      expect(r.roll.result).toBe('rammed');
      expect(name(r.roll.rammerCode)).toBe('[T6]');
      expect([r.rammer.destroyed, r.rammer.structure]).toEqual([true, 0]);
      expect([r.target.structure, r.tally.structure, r.tally.criticals]).toEqual([3, 1, 1]);
      expect(r.target.hasWorking('Countermeasures')).toBe(false); // the critical (CritDefault)
      // No arc bonus for squadron rams (GM-91): the side gives the same pools.
      const side = ram(rules, PATHFINDER, target, 'side');
      expect([shape(side.skill), shape(side.rammerAttack)]).toEqual([shape(plan.skill), shape(plan.rammerAttack)]);
    });

    it(`RAM-08 same, the Skill Test fails (1,2,3): the Pathfinder is destroyed, no attack [v${id}]`, () => {
      const target = ship({ defense: 2 });
      const r = playRam(rules, ram(rules, PATHFINDER, target, 'front'), PATHFINDER, target, [1, 3, 1, 2, 3]);
      expect(r.roll.result).toBe('failed');
      expect(r.rammer.destroyed).toBe(true);
      expect([r.target.structure, r.target.defense, r.tally.criticals]).toEqual([4, 2, 0]);
    });

    it(`RAM-09 same, point defence hits first (5,5 = [D]): the Pathfinder (1 -> 0) is destroyed, no Skill Test, no attack [v${id}]`, () => {
      const target = ship({ defense: 2 });
      const r = playRam(rules, ram(rules, PATHFINDER, target, 'front'), PATHFINDER, target, [5, 5]);
      expect(r.roll.result).toBe('shot-down');
      expect([r.rammer.destroyed, r.rammer.structure]).toEqual([true, 0]);
      expect([r.target.structure, r.target.defense, r.target.sensors, r.target.thrusters]).toEqual([4, 2, 3, 2]);
    });

    it(`RAM-10 Pathfinder rams a Wyvern (Defense 2): PD [N], Skill [D5], base [D3] raised by the Macro 3 to [T3]: Wyvern -2 [v${id}]`, () => {
      const plan = ram(rules, PATHFINDER, WYVERN, 'front');
      expect(shape(plan.rammerAttack)).toEqual({ base: 3, flex: 0, macro: 3 });
      const r = playRam(rules, plan, PATHFINDER, WYVERN, [2, 4, 5, 5, 3, 3, 1, 3, 5, 6]);
      expect(r.roll.result).toBe('rammed');
      expect(name(r.roll.rammerCode)).toBe('[T3]');
      expect(r.rammer.destroyed).toBe(true);
      expect([r.target.structure, r.tally.structure, r.target.destroyed]).toEqual([2, 2, false]);
      // Wyvern Structure 4 (ph): v1.2.1 crippled at 2 (CrippledThreshold default), v1.2.2 no crippled squadrons.
      expect(r.target.crippled).toBe(id === '1.2.1');
    });

    it(`RAM-11 squadron ram X = half the starting Damage/Structure, rounded up, at least 1: 6 -> 3, 5 -> 3, 4 -> 2, 1 -> 1 [v${id}]`, () => {
      expect([6, 5, 4, 1].map(squadronRamDice)).toEqual([3, 3, 2, 1]);
      for (const [start, x] of [[6, 3], [5, 3], [4, 2], [1, 1]] as const) {
        const rammer = unit({ type: 'fighter', structure: start, skill: 2 });
        expect(shape(ram(rules, rammer, ship(), 'front').rammerAttack)).toEqual({ base: x, flex: x, macro: 0 });
        expect(shape(ram(rules, rammer, WYVERN, 'front').rammerAttack)).toEqual({ base: x, flex: 0, macro: x });
      }
    });

    it(`RAM-13 Valiant rams the Tengu in its Aft arc: Valiant 4 + 2 = 6 (ram_rear_bonus), Tengu 3 [v${id}]`, () => {
      const plan = ram(rules, VALIANT, TENGU, 'rear');
      expect(shape(plan.rammerAttack)).toEqual({ base: 6, flex: 0, macro: 0 });
      expect(plan.targetAttack && shape(plan.targetAttack)).toEqual({ base: 3, flex: 0, macro: 0 });
      // ram_front_bonus=RAMMER_ALWAYS: only the "+1d6 for front arc", no rear bonus.
      const literal = ram(rulesFor(id, ['ram_front_bonus=RAMMER_ALWAYS']), VALIANT, TENGU, 'rear');
      expect([shape(literal.rammerAttack), literal.targetAttack?.base]).toEqual([{ base: 5, flex: 0, macro: 0 }, 3]);
    });

    it(`RAM-14 RAM-01 with ram_flank_mode=GENERAL: the Valiant gets the version's positional bonus for a P/S attack; Tengu 3 [v${id}]`, () => {
      const general = rulesFor(id, ['ram_flank_mode=GENERAL']);
      const plan = ram(general, VALIANT, TENGU, 'side');
      // v1.2.1 Flank121 P/S = +1 base die (combat.md §4.4); v1.2.2 Table122 P/S = +1 Flex (roll 5, keep 4).
      const expected = id === '1.2.1' ? { base: 5, flex: 0, macro: 0 } : { base: 4, flex: 1, macro: 0 };
      expect(shape(plan.rammerAttack)).toEqual(expected);
      expect(plan.targetAttack && shape(plan.targetAttack)).toEqual({ base: 3, flex: 0, macro: 0 });
      // Rear: Flank121 +2 base / Table122 +2 Flex.
      const rear = ram(general, VALIANT, TENGU, 'rear');
      expect(shape(rear.rammerAttack)).toEqual(id === '1.2.1' ? { base: 6, flex: 0, macro: 0 } : { base: 4, flex: 2, macro: 0 });
      // RAM-01's dice: the Flex die (if any) is the 1, so the result is the same.
      const r = playRam(general, plan, VALIANT, TENGU, [3, 3, 1, 2, 2, 5, 5, 1, 2, 2, 6]);
      expect([name(r.roll.rammerCode), name(r.roll.targetCode), r.target.structure]).toEqual(['[T2,T5]', '[T2]', 1]);
    });
  }

  it('RAM-14 with the alternative Flank121 "P/S +1 Flex" (as an overlay would set it): Valiant 4 base + 1 Flex, roll 5 keep 4 [v1.2.1]', () => {
    const alt = withCombat(rulesFor('1.2.1', ['ram_flank_mode=GENERAL']), { sideBonus: { base: 0, flex: 1, macro: 0 } });
    const plan = ram(alt, VALIANT, TENGU, 'side');
    expect(shape(plan.rammerAttack)).toEqual({ base: 4, flex: 1, macro: 0 });
    expect(plan.targetAttack?.base).toBe(3);
  });

  // RAM-02 (failed Skill Test, GM-90): played in test/engine/battle/ram.test.ts, 'RAM-02: the Skill Test fails ...' and
  // 'RAM-02: every move offered after the failed ram is at least half Speed'.
  // RAM-04 (rammer at 2 Structure): planRam/rollRam do not check it, the battle engine does (ramOption); played in test/engine/battle/ram.test.ts, 'RAM-04: ...'.
  // RAM-06 (a rammer declares no attacks): played in test/engine/battle/ram.test.ts, 'RAM-01 / RAM-06: ...' (the ram is settled before any fire and ends the activation).
  it.skip('RAM-12 skill passes but every front-contact move is blocked: the ram fails at step 2 [v1.2.2] (not modelled: the battle engine declares a ram only where Battle.ramOption finds a legal front-contact move, so no Skill Test is rolled for a blocked ram and a ram that fails at step 2 never happens; ram.test.ts checks that no ram is offered when the contact move is not legal)', () => {});
});

// ===========================================================================================
describe('exact and sampled engines agree (200,000 trials, within 4 standard errors)', () => {
  const TRIALS = 200_000;

  interface AttackCase {
    label: string;
    id: RulesVersionId;
    attacker: UnitCard;
    target: UnitCard;
    at: Situation;
  }
  const CASES: AttackCase[] = [
    {
      label: 'Beam Projector AC 3 Macro 1 into the side of a Structure 2 ship (Flank121 +1 base, reroll of [N])',
      id: '1.2.1',
      attacker: gunship({ name: 'Beam', cls: 'beam_projector', ac: 3, macro: 1 }),
      target: ship({ structure: 2 }),
      at: at(9, 'side'),
    },
    {
      label: 'Missile AC 4 Macro 1 into Fore Armor 1, against point defence 3, Structure 2 ship',
      id: '1.2.2',
      attacker: gunship({ name: 'Missiles', cls: 'missile', ac: 4, macro: 1 }),
      target: ship({ structure: 2, defense: 3, armor: { fore: 1, portStarboard: 0, aft: 0 } }),
      at: LONG_VS_CAPITAL,
    },
    {
      label: 'Missile AS 3 against a Damage 4 squadron with point defence 2 (crippling at 2)',
      id: '1.2.1',
      attacker: gunship({ name: 'Missiles', cls: 'missile', ac: null, as: 3 }),
      target: unit({ type: 'fighter', structure: 4, defense: 2 }),
      at: LONG_VS_SQUADRON,
    },
    {
      label: 'Pathfinder Beam Projector AS 3 at short range (+1 Flex) against a Structure 3 squadron',
      id: '1.2.2',
      attacker: PATHFINDER,
      target: unit({ type: 'fighter', structure: 3, defense: 1 }),
      at: at(2),
    },
    {
      label: 'Kinetic Cannon AC 3 Macro 2 into the Aft (Armor 1, +2 Flex) of a Barrier + Cloak ship at long range',
      id: '1.2.2',
      attacker: gunship({ name: 'Kinetic Cannon', cls: 'kinetic_cannon', ac: 3, macro: 2 }),
      target: ship({ structure: 3, defense: 2, armor: { fore: 0, portStarboard: 0, aft: 1 }, traits: [['Barrier', 1], ['Cloak', 1]] }),
      at: at(9, 'rear'),
    },
  ];

  for (const c of CASES) {
    it(`attack: ${c.label} [v${c.id}]`, () => {
      const rules = rulesFor(c.id);
      const plan = mustPlan(rules, c.attacker, c.attacker.weapons[0], c.target, c.at);
      const target = new CombatState(c.target);
      const exact = exactAttack(rules, plan, target).summary;
      const mc = sampledAttack(rules, plan, target, 'vectors-test', `attack/${c.label}`, TRIALS);
      expect(mc.weight).toBe(TRIALS);
      expectProportion(mc.pDestroyed, exact.pDestroyed, TRIALS, 'p_destroyed');
      expectProportion(mc.pCrippled, exact.pCrippled, TRIALS, 'p_crippled');
      expectMean(mc.meanStructureDamage, exact.meanStructureDamage, exact.structureDamage, TRIALS, 'mean_structure_damage');
      // The case exercises what it says.
      if (c.attacker.weapons[0].cls === 'missile' || c.target.traits.has('Barrier')) expect(plan.defence).not.toBeNull();
      if (c.attacker.weapons[0].cls === 'beam_projector') expect(plan.pool.rerolls).toBe(1);
      if (c.target.traits.has('Cloak')) expect(plan.cloakTestDice).toBeGreaterThan(0);
    });
  }

  interface RamCase {
    label: string;
    id: RulesVersionId;
    rammer: UnitCard;
    target: UnitCard;
    aspect: Aspect;
  }
  const RAMS: RamCase[] = [
    { label: 'capital rams capital: Valiant into the Tengu side', id: '1.2.1', rammer: VALIANT, target: TENGU, aspect: 'side' },
    { label: 'squadron rams capital: Pathfinder into a Structure 2, Defense 2 ship', id: '1.2.2', rammer: PATHFINDER, target: ship({ structure: 2, defense: 2 }), aspect: 'front' },
    { label: 'squadron rams squadron: Pathfinder into a Wyvern', id: '1.2.1', rammer: PATHFINDER, target: WYVERN, aspect: 'front' },
  ];

  for (const c of RAMS) {
    const rules = rulesFor(c.id);
    const plan = ram(rules, c.rammer, c.target, c.aspect);
    let cached: { exact: ReturnType<typeof exactRam>; mc: ReturnType<typeof sampledRam> } | null = null;
    const both = () =>
      (cached ??= {
        exact: exactRam(rules, plan, c.rammer, c.target),
        mc: sampledRam(rules, plan, new CombatState(c.rammer), new CombatState(c.target), 'vectors-test', `ram/${c.label}`, TRIALS),
      });

    it(`ram: ${c.label}: p_rams, p_shot_down, p_skill_fails [v${c.id}]`, () => {
      const { exact, mc } = both();
      expectProportion(mc.pRams, exact.pRams, TRIALS, 'p_rams');
      expectProportion(mc.pShotDown, exact.pShotDown, TRIALS, 'p_shot_down');
      expectProportion(mc.pSkillFails, exact.pSkillFails, TRIALS, 'p_skill_fails');
      expect(exact.pShotDown === 0).toBe(plan.defence === null);
    });

    for (const who of ['target', 'rammer'] as const) {
      it(`ram: ${c.label}: ${who} p_destroyed, p_crippled [v${c.id}]`, () => {
        const { exact, mc } = both();
        expectProportion(mc[who].pDestroyed, exact[who].pDestroyed, TRIALS, `${who} p_destroyed`);
        expectProportion(mc[who].pCrippled, exact[who].pCrippled, TRIALS, `${who} p_crippled`);
      });
    }

    for (const who of ['target', 'rammer'] as const) {
      it(`ram: ${c.label}: ${who} mean_structure_damage [v${c.id}]`, () => {
        const { exact, mc } = both();
        expectMean(mc[who].meanStructureDamage, exact[who].meanStructureDamage, exact[who].structureDamage, TRIALS, `${who} mean_structure_damage`);
      });
    }
  }
});
