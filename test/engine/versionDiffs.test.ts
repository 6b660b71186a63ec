// Each v1.2.1 / v1.2.2 difference that touches single engagements: the two versions
// disagree where the rules differ, and agree where they do not.
import { describe, expect, it } from 'vitest';
import { parseOutcome } from '../../src/dice/outcome.js';
import { exactAttack } from '../../src/engine/attack.js';
import { planAttack, type Situation } from '../../src/engine/attackPlan.js';
import { DamageTally, applyResults } from '../../src/engine/damage.js';
import { CombatState } from '../../src/engine/state.js';
import { PlaceholderUsage } from '../../src/engine/usage.js';
import type { CompiledRules } from '../../src/rules/compile.js';
import type { UnitCard } from '../../src/units/types.js';
import { rulesFor, unit } from '../helpers/units.js';

const V121 = rulesFor('1.2.1');
const V122 = rulesFor('1.2.2');

function plan(rules: CompiledRules, attacker: UnitCard, target: UnitCard, at: Situation) {
  const r = planAttack(rules, new CombatState(attacker), attacker.weapons[0], new CombatState(target), at, new PlaceholderUsage(rules));
  if (!r.ok) throw new Error(r.reason);
  return r.plan;
}

const gunship = unit({ id: 'a', sensors: 3, weapons: [{ ac: 3, as: 2, macro: 1 }] });
const longFront: Situation = { rangeInches: 10, aspect: 'front', targetArc: 'F' };

describe('versions agree where the rules agree', () => {
  it('long range, front arc, no armor or traits: identical pools and identical exact damage', () => {
    const target = unit({ id: 't', armor: { fore: 0, portStarboard: 0, aft: 0 } });
    const p1 = plan(V121, gunship, target, longFront);
    const p2 = plan(V122, gunship, target, longFront);
    expect(p1.pool).toEqual(p2.pool);
    expect(exactAttack(V121, p1, new CombatState(target)).summary.meanRatingDamage).toEqual(exactAttack(V122, p2, new CombatState(target)).summary.meanRatingDamage);
  });

  it('squadron against squadron at long range: the same distribution of Structure lost', () => {
    const squadron = unit({ id: 's', type: 'exo_armor', structure: 5, crippledAt: 0, weapons: [{ ac: null, as: 3, macro: 1 }] });
    const at: Situation = { rangeInches: 5, aspect: 'front', targetArc: 'F' };
    const s1 = exactAttack(V121, plan(V121, squadron, squadron, at), new CombatState(squadron)).summary;
    const s2 = exactAttack(V122, plan(V122, squadron, squadron, at), new CombatState(squadron)).summary;
    expect(s1.structureDamage).toEqual(s2.structureDamage);
    expect(s1.pDestroyed).toBe(s2.pDestroyed);
  });

  it('[Q+] destroys a squadron outright in both versions', () => {
    for (const rules of [V121, V122]) {
      const s = new CombatState(unit({ type: 'fighter', structure: 6 }));
      applyResults(rules, s, parseOutcome('[Q3]')!, new DamageTally());
      expect(s.destroyed).toBe(true);
    }
  });
});

describe('versions differ where the rules differ', () => {
  it('Armor: v1.2.2 subtracts the attacked arc\'s Armor from the Macro Pool; v1.2.1 has no per-arc Armor', () => {
    const armored = unit({ id: 't', armor: { fore: 2, portStarboard: 0, aft: 0 } });
    expect(plan(V121, gunship, armored, longFront).pool.macro).toBe(1);
    expect(plan(V122, gunship, armored, longFront).pool.macro).toBe(-1);
  });

  it('Belt:X: v1.2.1 takes X Macro dice from attacks into the side; v1.2.2 ignores the trait', () => {
    const belted = unit({ id: 't', traits: [['Belt', 2]] });
    const side: Situation = { ...longFront, aspect: 'side' };
    expect(plan(V121, gunship, belted, side).pool).toMatchObject({ base: 4, macro: -1 }); // +1 base flank, 1 - 2 Macro
    expect(plan(V122, gunship, belted, side).pool).toMatchObject({ base: 3, flex: 1, macro: 1 });
  });

  it('positional bonus: v1.2.1 adds base dice (side +1, rear +2), v1.2.2 Flex dice (+1, +2)', () => {
    const target = unit({ id: 't' });
    for (const [aspect, n] of [['side', 1], ['rear', 2]] as const) {
      const at: Situation = { ...longFront, aspect };
      expect(plan(V121, gunship, target, at).pool).toMatchObject({ base: 3 + n, flex: 0 });
      expect(plan(V122, gunship, target, at).pool).toMatchObject({ base: 3, flex: n });
    }
  });

  it('short range: v1.2.2 adds 1 Flex die against any target, v1.2.1 nothing', () => {
    const short: Situation = { ...longFront, rangeInches: 5 };
    const target = unit({ id: 't' });
    expect(plan(V121, gunship, target, short).pool.flex).toBe(0);
    expect(plan(V122, gunship, target, short).pool.flex).toBe(1);
    expect(plan(V122, gunship, target, short).band).toBe('short');
  });

  it('a capital ship at 0 Structure: Crippled in v1.2.1, Catastrophic roll (placeholder: Destroyed) in v1.2.2', () => {
    const ship = unit({ structure: 1 });
    const s1 = new CombatState(ship);
    const s2 = new CombatState(ship);
    applyResults(V121, s1, parseOutcome('[T4]')!, new DamageTally());
    applyResults(V122, s2, parseOutcome('[T4]')!, new DamageTally());
    expect([s1.crippled, s1.destroyed]).toEqual([true, false]);
    expect(s2.destroyed).toBe(true);
    // An overlay table saying "crippled" with no rating at 0 keeps the ship afloat in v1.2.2.
    const table = { ...V122, combat: { ...V122.combat, catastrophicTable: ['crippled', 'destroyed', 'destroyed', 'destroyed'] as const } };
    const s3 = new CombatState(ship);
    applyResults(table, s3, parseOutcome('[T4]')!, new DamageTally());
    expect([s3.crippled, s3.destroyed]).toEqual([true, false]);
  });

  it('squadrons: v1.2.1 cripples at the small boxes (Fire Control 1), v1.2.2 has no Crippled state', () => {
    const sq = unit({ type: 'exo_armor', structure: 6, crippledAt: 2, fireControl: 3 });
    const s1 = new CombatState(sq);
    const s2 = new CombatState(sq);
    applyResults(V121, s1, parseOutcome('[T1,T2]')!, new DamageTally());
    applyResults(V122, s2, parseOutcome('[T1,T2]')!, new DamageTally());
    expect(s1.structure).toBe(2);
    expect(s2.structure).toBe(2);
    expect([s1.crippled, s1.fireControl()]).toEqual([true, 1]);
    expect([s2.crippled, s2.fireControl()]).toEqual([false, 3]);
  });

  it('Beam Projector reroll: with reroll_policy=BELOW_T, v1.2.2 rerolls a [D], v1.2.1 only an [N]', () => {
    const beam = unit({ id: 'b', weapons: [{ cls: 'beam_projector', ac: 3, as: 2 }] });
    const target = unit({ id: 't' });
    const r1 = rulesFor('1.2.1', ['reroll_policy=BELOW_T']);
    const r2 = rulesFor('1.2.2', ['reroll_policy=BELOW_T']);
    const e1 = exactAttack(r1, plan(r1, beam, target, longFront), new CombatState(target)).summary;
    const e2 = exactAttack(r2, plan(r2, beam, target, longFront), new CombatState(target)).summary;
    // 3 dice reach [T] with 1/36 per roll; rerolling every non-[T] (v1.2.2) raises it, v1.2.1 can't.
    expect(e2.meanStructureDamage).toBeCloseTo(1 / 36 + (35 / 36) * (1 / 36), 12);
    expect(e1.meanStructureDamage).toBeCloseTo(1 / 36 + (5 / 9) * (1 / 36), 12);
    // With the default policy (reroll [N] only) the versions agree.
    const d1 = exactAttack(V121, plan(V121, beam, target, longFront), new CombatState(target)).summary;
    const d2 = exactAttack(V122, plan(V122, beam, target, longFront), new CombatState(target)).summary;
    expect(d1.meanStructureDamage).toBeCloseTo(d2.meanStructureDamage, 14);
  });
});
