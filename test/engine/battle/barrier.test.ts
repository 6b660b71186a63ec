// Barrier defending friends (combat.md §7.2-7.3, §8.2). v1.2.1: a friend within 3" of a Barrier
// model may defend against missiles with the Barrier model's Defense instead of its own, other
// friends still supporting (the Barrier model itself then adds no support); Mass Driver and
// Kinetic Cannon defence covers the Barrier model only. v1.2.2: the Barrier model's Defense
// also covers friends within 3" against Mass Driver and Kinetic Cannon attacks, and no other
// model may assist a roll made with it. None of it in windows without missile defence.
// Played through a battle's own fire, catching the plans Gunnery builds, and checked on
// defenceDice directly.
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../src/dice/pool.js';
import { defenceDice } from '../../../src/engine/attackPlan.js';
import { segmentDistance, separation, shortestLine } from '../../../src/engine/geometry.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { CombatState } from '../../../src/engine/state.js';
import type { WeaponLine } from '../../../src/units/types.js';
import { Battle, handBattle, miniScenario, policiesOf, put, watchShots } from '../../helpers/battle.js';
import { rulesFor, unit } from '../../helpers/units.js';

type Version = '1.2.1' | '1.2.2';
const shooter = (cls: WeaponLine['cls']) =>
  unit({ id: `test.${cls}`, name: cls, fireControl: 1, sensors: 6, weapons: [{ name: cls, cls, ac: 3, as: 3, macro: 0 }] });
const ship = (id: string, defense: number, barrier = false) => unit({ id, name: id, defense, structure: 12, weapons: [], traits: barrier ? [['Barrier', 1]] : [] });

interface Friend {
  defense: number;
  barrier?: boolean;
  x: number;
  y: number;
}

/** The defence pool of the target (Defense 2, at (24, 20)) against one attack from (24, 10). */
function defencePool(version: Version, cls: WeaponLine['cls'], friends: Friend[]): { pool: Pool | null; notes: string[]; supporters: boolean[]; nearTarget: boolean[] } {
  return defencePoolWith(version, cls, friends, () => {});
}

/** defencePool, with the friends' models handed to `prepare` once placed. */
function defencePoolWith(version: Version, cls: WeaponLine['cls'], friends: Friend[], prepare: (models: BattleModel[]) => void): { pool: Pool | null; notes: string[]; supporters: boolean[]; nearTarget: boolean[] } {
  const target = ship('test.target', 2);
  const battle = new Battle(rulesFor(version), miniScenario({ a: [shooter(cls)], b: [target, ...friends.map((f, i) => ship(`test.friend${i}`, f.defense, f.barrier))] }));
  const inner = handBattle(battle, 'barrier');
  const [att, tgt, ...rest] = battle.models;
  put(att, 24, 10, 0);
  put(tgt, 24, 20, 180);
  rest.forEach((m, i) => put(m, friends[i].x, friends[i].y, 0));
  prepare(rest);
  // Where each friend stands, measured independently: near the line of fire, near the target.
  const line = new Float64Array(4);
  shortestLine(att.base, tgt.base, line);
  const supporters = rest.map((m) => segmentDistance(m.base, line[0], line[1], line[2], line[3]) <= 3);
  const nearTarget = rest.map((m) => separation(m.base, tgt.base) <= 3);
  const seen: Array<{ defence: Pool | null; notes: string[] }> = [];
  watchShots(battle, (plan, _w, t, mods) => {
    // The attack itself (the policy's estimates ask without the situation's helpers).
    if (t === tgt && (mods.supporters !== undefined || mods.barrier !== undefined)) seen.push({ defence: plan.defence, notes: [...plan.notes] });
  });
  policiesOf(battle)[0].targetOrder = () => [tgt];
  (inner as unknown as { fireFrom(m: BattleModel, fc: number, action: string, cf: null, rec: null): number }).fireFrom(att, 1, 'none', null, null);
  expect(seen.length).toBeGreaterThan(0);
  return { pool: seen[0].defence, notes: seen[0].notes, supporters, nearTarget };
}

// Places used below (capital bases 1.5" x 2"; the line of fire runs along x = 24 from y 11 to 19).
const BARRIER_BESIDE = { x: 28.2, y: 21 }; // 2.7" from the target, 3.6" from the line
const BARRIER_ON_LINE = { x: 26.5, y: 16 }; // 2.2" from the target, 1.75" from the line
const SUPPORTER = { x: 21.5, y: 15 }; // 1.75" from the line, 3.2" from the target
const BARRIER_FAR = { x: 29, y: 21 }; // 3.5" from the target

describe('Barrier lends its Defense to friends (combat.md §7.2-7.3)', () => {
  it('the places are where the tests say', () => {
    const r = defencePool('1.2.1', 'missile', [
      { defense: 1, barrier: true, ...BARRIER_BESIDE },
      { defense: 1, barrier: true, ...BARRIER_ON_LINE },
      { defense: 1, ...SUPPORTER },
      { defense: 1, barrier: true, ...BARRIER_FAR },
    ]);
    expect(r.nearTarget).toEqual([true, true, false, false]);
    expect(r.supporters).toEqual([false, true, true, false]);
  });

  for (const version of ['1.2.1', '1.2.2'] as const) {
    it(`missiles: the target defends with a nearby Barrier model's higher Defense [v${version}]`, () => {
      const { pool, notes } = defencePool(version, 'missile', [{ defense: 4, barrier: true, ...BARRIER_BESIDE }]);
      expect(pool?.base).toBe(4);
      expect(notes).toContain('point defence 4 lent by a friendly Barrier model');
    });

    it(`missiles: a lower Barrier Defense is not taken; a Barrier model over 3" away lends nothing [v${version}]`, () => {
      expect(defencePool(version, 'missile', [{ defense: 1, barrier: true, ...BARRIER_BESIDE }]).pool?.base).toBe(2);
      expect(defencePool(version, 'missile', [{ defense: 5, barrier: true, ...BARRIER_FAR }]).pool?.base).toBe(2);
    });

    it(`missiles: several Barrier models do not stack, the best one is used [v${version}]`, () => {
      const { pool } = defencePool(version, 'missile', [
        { defense: 3, barrier: true, ...BARRIER_BESIDE },
        { defense: 4, barrier: true, x: 28.2, y: 18 },
      ]);
      expect(pool?.base).toBe(4);
    });
  }

  it('v1.2.1: other friends still support a lent Defense', () => {
    // Own: 2 + 1 supporter = 3; lent: 4 + 1 = 5.
    const { pool, notes } = defencePool('1.2.1', 'missile', [{ defense: 4, barrier: true, ...BARRIER_BESIDE }, { defense: 1, ...SUPPORTER }]);
    expect(pool?.base).toBe(5);
    expect(notes).toContain('point defence 4 lent by a friendly Barrier model + 1 from supporting models');
  });

  it('v1.2.2: no other model assists a roll with the Barrier Defense (the better of the two is taken)', () => {
    // Own: 2 + 1 (Assist122) = 3; lent: 4, unassisted.
    expect(defencePool('1.2.2', 'missile', [{ defense: 4, barrier: true, ...BARRIER_BESIDE }, { defense: 1, ...SUPPORTER }]).pool?.base).toBe(4);
    // Own: 2 + 2 = 4 beats a lent 3.
    const own = defencePool('1.2.2', 'missile', [{ defense: 3, barrier: true, ...BARRIER_BESIDE }, { defense: 1, ...SUPPORTER }, { defense: 1, x: 26.5, y: 14 }]);
    expect(own.pool?.base).toBe(4);
    expect(own.notes).toContain('point defence 2 + 2 from supporting models');
  });

  it('v1.2.1: a lending Barrier model near the line does not also add its support', () => {
    // Supporters: the Barrier model and one other. Own: 2 + 2 = 4; lent: 3 + 1 = 4 (tie: own).
    expect(defencePool('1.2.1', 'missile', [{ defense: 3, barrier: true, ...BARRIER_ON_LINE }, { defense: 1, ...SUPPORTER }]).notes).toContain('point defence 2 + 2 from supporting models');
    // Defense 4: lent 4 + 1 = 5.
    expect(defencePool('1.2.1', 'missile', [{ defense: 4, barrier: true, ...BARRIER_ON_LINE }, { defense: 1, ...SUPPORTER }]).pool?.base).toBe(5);
  });

  for (const cls of ['mass_driver', 'kinetic_cannon'] as const) {
    it(`${cls}: v1.2.2 covers friends within 3"; v1.2.1 covers only the Barrier model itself`, () => {
      expect(defencePool('1.2.2', cls, [{ defense: 3, barrier: true, ...BARRIER_BESIDE }]).pool?.base).toBe(3);
      expect(defencePool('1.2.2', cls, [{ defense: 3, barrier: true, ...BARRIER_FAR }]).pool).toBeNull();
      expect(defencePool('1.2.1', cls, [{ defense: 3, barrier: true, ...BARRIER_BESIDE }]).pool).toBeNull();
      // Supporters never help against these.
      expect(defencePool('1.2.2', cls, [{ defense: 3, barrier: true, ...BARRIER_BESIDE }, { defense: 2, ...SUPPORTER }]).pool?.base).toBe(3);
    });
  }

  it('beam weapons are never defended', () => {
    expect(defencePool('1.2.2', 'beam_projector', [{ defense: 3, barrier: true, ...BARRIER_BESIDE }]).pool).toBeNull();
  });
});

describe('defenceDice', () => {
  const target = (defense: number, barrier: boolean) => new CombatState(ship('test.t', defense, barrier));
  const dice = (version: Version, cls: WeaponLine['cls'], t: CombatState, at: Parameters<typeof defenceDice>[3]) => {
    const d = defenceDice(rulesFor(version).combat, t, cls, at);
    return { dice: d >> 2, lent: (d & 2) !== 0, support: (d & 1) !== 0 };
  };

  it('a Barrier ship defends itself against Mass Driver and Kinetic Cannon fire, unassisted, in both versions', () => {
    for (const version of ['1.2.1', '1.2.2'] as const) {
      expect(dice(version, 'mass_driver', target(3, true), { missileSupporters: 2 })).toEqual({ dice: 3, lent: false, support: false });
      expect(dice(version, 'kinetic_cannon', target(3, false), { missileSupporters: 2 })).toEqual({ dice: 0, lent: false, support: false });
    }
  });

  it('windows without missile defence: no missile defence; Barrier against kinetic fire per version', () => {
    for (const version of ['1.2.1', '1.2.2'] as const) {
      for (const window of ['dogfight', 'bombing', 'assault', 'boarding'] as const) {
        expect(dice(version, 'missile', target(3, true), { noMissileDefence: true, window, missileSupporters: 2, barrierDefense: 4 }).dice).toBe(0);
      }
    }
    // v1.2.1: Barrier defends "exactly as if they were Missile Attacks": not where missile defence is denied.
    expect(dice('1.2.1', 'mass_driver', target(3, true), { noMissileDefence: true, window: 'bombing' }).dice).toBe(0);
    // v1.2.2 names its own exclusions (Assault, Boarding, Dogfight): Bombing attacks are defended.
    expect(dice('1.2.2', 'mass_driver', target(3, true), { noMissileDefence: true, window: 'bombing', barrierDefense: 4 })).toEqual({ dice: 4, lent: true, support: false });
    for (const window of ['dogfight', 'assault', 'boarding'] as const) {
      expect(dice('1.2.2', 'kinetic_cannon', target(3, true), { noMissileDefence: true, window, barrierDefense: 4 }).dice).toBe(0);
    }
  });

  it('an inert Crippled hulk neither lends its Barrier Defense nor supports missile defence (GM-21)', () => {
    const hulk = (defense: number) => ({ defense, barrier: true, ...BARRIER_BESIDE });
    expect(defencePool('1.2.2', 'mass_driver', [hulk(3)]).pool?.base).toBe(3);
    const crippled = defencePoolWith('1.2.2', 'mass_driver', [hulk(3)], (friends) => (friends[0].state.crippled = true));
    expect(crippled.pool).toBeNull();
  });

  it('a Barrier ship hit by Mass Driver fire takes a friend\'s higher Barrier Defense only under v1.2.2', () => {
    expect(dice('1.2.2', 'mass_driver', target(2, true), { barrierDefense: 4 })).toEqual({ dice: 4, lent: true, support: false });
    expect(dice('1.2.1', 'mass_driver', target(2, true), { barrierDefense: 4 })).toEqual({ dice: 2, lent: false, support: false });
  });

  it('missiles with Defense 0 and no help: no roll', () => {
    expect(dice('1.2.1', 'missile', target(0, false), {}).dice).toBe(0);
    expect(dice('1.2.1', 'missile', target(0, false), { barrierDefense: 2 })).toEqual({ dice: 2, lent: true, support: false });
  });
});
