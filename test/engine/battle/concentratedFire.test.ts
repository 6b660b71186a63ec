// Concentrated Fire inside a battle activation (game.md §7.3 row "Concentrated Fire", GM-27;
// combat.md §5.4 and DV-13), v1.2.2: the Skill Test is rolled with scripted dice, then the
// attack plans the activation builds are caught on their way out of Gunnery.entry while the
// ship fires.
//
// Alexander (v1.2.2, Skill 2, Fire Control 3) with all three weapon lines made turrets, so that
// its Particle Cannon, Mass Driver Turret and Missiles all bear on one enemy Tengu 12" ahead
// (long range, front arc); the Tengu gets 12 Structure so no attack can end the fire early.
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../src/dice/pool.js';
import type { AttackPlan } from '../../../src/engine/attackPlan.js';
import type { RandomStream } from '../../../src/rng/stream.js';
import { name, playAttack } from '../../helpers/scriptedCombat.js';
import { Battle, card, cardWith, handBattle, miniScenario, put, watchShots } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

const rules = rulesFor('1.2.2');

interface Fired {
  weapon: string;
  cls: string;
  plan: AttackPlan;
}

/** One activation declaring Concentrated Fire; `skillFaces` are the Skill Test's dice. */
function concentrate(skillFaces: number[]) {
  const alex = card('jovian.alexander');
  const gun = cardWith('jovian.alexander', { weapons: alex.weapons.map((w) => ({ ...w, arcs: ['T'] as const })) });
  const battle = new Battle(rules, miniScenario({ a: [gun], b: [cardWith('unknown.tengu', { structure: 12 })] }));
  const inner = handBattle(battle, 'dv-13');
  const [m, tengu] = battle.models;
  put(m, 24, 10, 0);
  put(tengu, 24, 22, 180);

  const policy = inner.policies[0];
  policy.wants = (_v, _m, a) => a === 'concentrated_fire';
  policy.pickMove = (_v, _m, o, legal) => ({ index: o.findIndex((x, i) => x.action === 'none' && x.pose.heading === 0 && legal(i)), fireBefore: true });

  // Dice: the scripted faces for the Skill Test (the first dice rolled), then the seeded stream,
  // which the attacks draw from (they sample their exact Result distributions).
  const script = [...skillFaces];
  const seeded = inner.dice;
  const dice: RandomStream = {
    d6: () => (script.length ? script.shift()! : seeded.d6()),
    next: () => {
      if (script.length) throw new Error('an attack was rolled before the Skill Test');
      return seeded.next();
    },
  };
  inner.dice = dice;

  // The plans used while the ship fires (the policy's estimates before that are left out).
  const fired: Fired[] = [];
  const g = inner.gunnery;
  const fire = g.fire.bind(g);
  let firing = false;
  g.fire = (...a: Parameters<typeof fire>) => {
    firing = true;
    try {
      return fire(...a);
    } finally {
      firing = false;
    }
  };
  watchShots(battle, (plan, w) => {
    if (firing) fired.push({ weapon: w.name, cls: w.cls, plan });
  });

  inner.activate(m);
  expect(script).toEqual([]); // every Skill Test die was rolled
  const rec = inner.trace!.activations[0];
  return { rec, fired, tengu };
}

const shape = (p: Pool) => ({ base: p.base, flex: p.flex, macro: p.macro, rerolls: p.rerolls });
const lastPlan = (fired: Fired[], weapon: string): AttackPlan => fired.filter((f) => f.weapon === weapon).at(-1)!.plan;

describe('Concentrated Fire, v1.2.2 (combat.md DV-13)', () => {
  it('DV-13 Skill Test [N] (1,2): +/-1d6 Flex on the non-missile attacks and no reroll; every attack on the one capital target', () => {
    const { rec, fired } = concentrate([1, 2]);
    expect(rec.action).toBe('concentrated_fire');
    expect(rec.test).toBe('Concentrated Fire Skill Test (2 dice): [N]');
    expect(rec.attacks.map((a) => a.weapon).sort()).toEqual(['Mass Driver Turret', 'Missiles', 'Particle Cannon']);
    expect(new Set(rec.attacks.map((a) => a.target)).size).toBe(1);
    // Long range, front arc, Fore Armor 1 against Macro 1: Macro 0; the +1 Flex is Concentrated Fire's.
    expect(shape(lastPlan(fired, 'Particle Cannon').pool)).toEqual({ base: 5, flex: 1, macro: 0, rerolls: 0 });
    const md = lastPlan(fired, 'Mass Driver Turret');
    expect(shape(md.pool)).toEqual({ base: 3, flex: 1, macro: 0, rerolls: 0 });
    // Roll 4 keep 3: 1,2,3,5 is [N], and it stands: no reroll, exactly four dice.
    expect(name(playAttack(rules, md, [1, 2, 3, 5]))).toBe('[N]');
  });

  it('DV-13 Skill Test [D+] (4,4): the same Flex and one reroll of an [N] on the non-missile attacks; none on the missile', () => {
    const { rec, fired } = concentrate([4, 4]);
    expect(rec.test).toBe('Concentrated Fire Skill Test (2 dice): [D+] passed');
    expect(shape(lastPlan(fired, 'Particle Cannon').pool)).toEqual({ base: 5, flex: 1, macro: 0, rerolls: 1 });
    const md = lastPlan(fired, 'Mass Driver Turret');
    expect(shape(md.pool)).toEqual({ base: 3, flex: 1, macro: 0, rerolls: 1 });
    // The [N] (1,2,3,5) is rolled again (4,4,1,2: keep 4,4 -> [D4]): eight dice in all.
    expect(name(playAttack(rules, md, [1, 2, 3, 5, 4, 4, 1, 2]))).toBe('[D4]');
    expect(lastPlan(fired, 'Missiles').pool.rerolls).toBe(0);
  });

  // combat.md §5.4 / DV-13 and game.md §7.3 give the Flex die to non-missile attacks only.
  it('DV-13: the missile attack gets no Concentrated Fire Flex, after [N] or [D+]', () => {
    for (const faces of [[1, 2], [4, 4]]) {
      const { fired } = concentrate(faces);
      expect(lastPlan(fired, 'Missiles').pool.flex).toBe(0);
    }
  });
});
