// Missile support (combat.md §4.3 and §8.2, Assist122; vector DV-12): every friendly model of
// the target with Defense >= 1 within 3" of the shortest line between the attacker's base and
// the target's base adds one die to the target's missile defence. Played through a battle's
// own fire (Battle.fireFrom -> Gunnery -> planAttack), catching the plans Gunnery builds.
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../src/dice/pool.js';
import { capitalBase, pointDistance, segmentDistance, separation, shortestLine, squadronBase } from '../../../src/engine/geometry.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { Battle, handBattle, miniScenario, policiesOf, put, watchShots } from '../../helpers/battle.js';
import { rulesFor, unit } from '../../helpers/units.js';

const launcher = unit({ id: 'test.launcher', name: 'Launcher', fireControl: 1, sensors: 6, weapons: [{ name: 'Missiles', cls: 'missile', ac: 3, as: 3, macro: 0 }] });
const ship = (defense: number, id: string, structure = 12) => unit({ id, name: id, defense, structure, weapons: [] });

/** The missile-defence pool the target rolls when the launcher at (24, 10) fires at it at (24, 20). */
function defencePool(version: '1.2.1' | '1.2.2', friends: Array<{ defense: number; x: number; y: number }>): { pool: Pool | null; notes: string[] } {
  const target = ship(2, 'test.target');
  const battle = new Battle(rulesFor(version), miniScenario({ a: [launcher], b: [target, ...friends.map((f, i) => ship(f.defense, `test.friend${i}`))] }));
  const inner = handBattle(battle, 'dv-12');
  const [att, tgt, ...rest] = battle.models;
  put(att, 24, 10, 0);
  put(tgt, 24, 20, 180);
  rest.forEach((m, i) => put(m, friends[i].x, friends[i].y, 0));
  const seen: Array<{ defence: Pool | null; notes: string[] }> = [];
  watchShots(battle, (plan, _w, target, mods) => {
    // The attack itself (the policy's estimates ask first, without the situation's supporters).
    if (target === tgt && mods.missileSupporters !== undefined) seen.push({ defence: plan.defence, notes: [...plan.notes] });
  });
  // The launcher fires at the target (whatever its policy would rank first).
  policiesOf(battle)[0].targetOrder = () => [tgt];
  (inner as unknown as { fireFrom(m: BattleModel, fc: number, action: string, cf: null, rec: null): number }).fireFrom(att, 1, 'none', null, null);
  expect(seen.length).toBeGreaterThan(0);
  return { pool: seen[0].defence, notes: seen[0].notes };
}

describe('missile support (combat.md §4.3, DV-12)', () => {
  for (const version of ['1.2.1', '1.2.2'] as const) {
    it(`DV-12: Defense 2, two supporting ships near the line, one with Defense 0, one too far -> 4 dice [v${version}]`, () => {
      // The line runs along x = 24 from y 11 (launcher's bow) to y 19 (target's bow).
      const { pool, notes } = defencePool(version, [
        { defense: 1, x: 21.5, y: 15 }, // nearest edge at x 22.25: 1.75" from the line
        { defense: 3, x: 26.5, y: 14 }, // 1.75" on the other side
        { defense: 0, x: 24, y: 16 }, // on the line, but Defense 0: no help
        { defense: 3, x: 29, y: 15 }, // nearest edge 4.25" away: too far
      ]);
      expect(pool?.base).toBe(4);
      expect(notes.some((n) => n.includes('point defence 2 + 2 from supporting models'))).toBe(true);
    });
  }

  it('without friends near the line the target defends with its own Defense only', () => {
    expect(defencePool('1.2.2', [{ defense: 3, x: 40, y: 40 }]).pool?.base).toBe(2);
  });

  it('the 3" limit is measured from the base to the line, inclusive', () => {
    // Friend's nearest edge exactly 3" from the line (x = 24 + 3 = 27, base half-width 0.75).
    expect(defencePool('1.2.1', [{ defense: 1, x: 27.75, y: 15 }]).pool?.base).toBe(3);
    expect(defencePool('1.2.1', [{ defense: 1, x: 27.8, y: 15 }]).pool?.base).toBe(2);
  });
});

describe('shortestLine and segmentDistance', () => {
  it('find the nearest pair of two bases, and measure a base against a segment', () => {
    const out = new Float64Array(4);
    shortestLine(capitalBase(0, 0, 0, 2, 1.5), capitalBase(0, 10, 0, 2, 1.5), out);
    expect([...out].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 1, 0, 9]);
    shortestLine(squadronBase(10, 0, 'circle'), squadronBase(13, 4, 'circle'), out);
    expect(Math.hypot(out[2] - out[0], out[3] - out[1])).toBeCloseTo(4, 6); // 5 between centres less two radii of 0.5
    expect(segmentDistance(capitalBase(5, 5, 0, 2, 1.5), 0, 0, 10, 0)).toBeCloseTo(4, 9); // rear edge at y = 4
    expect(segmentDistance(capitalBase(5, 0.5, 0, 2, 1.5), 0, 0, 10, 0)).toBe(0); // crossing it
    expect(segmentDistance(squadronBase(12, 0, 'circle'), 0, 0, 10, 0)).toBeCloseTo(1.5, 9); // past the end
  });

  it('shortestLine is as long as the separation and ends on both bases, also for nearly parallel ships', () => {
    const out = new Float64Array(4);
    // Two long ships almost parallel: the nearest pair is near x = 23, not at the centres.
    const a = capitalBase(20, 20, 90, 6, 2), b = capitalBase(21, 23.2, 270.25, 6, 2);
    shortestLine(a, b, out);
    expect(Math.hypot(out[2] - out[0], out[3] - out[1])).toBeCloseTo(separation(a, b), 9);
    expect(out[0]).toBeGreaterThan(22);
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const shapes = [
      () => capitalBase(rnd() * 20, rnd() * 20, rnd() * 360, 1 + rnd() * 6, 0.5 + rnd() * 2),
      () => squadronBase(rnd() * 20, rnd() * 20),
      () => squadronBase(rnd() * 20, rnd() * 20, 'circle'),
    ];
    for (let k = 0; k < 3000; k++) {
      const p = shapes[k % 3](), q = shapes[Math.floor(k / 3) % 3]();
      const sep = separation(p, q);
      shortestLine(p, q, out);
      const len = Math.hypot(out[2] - out[0], out[3] - out[1]);
      expect(len, `pair ${k}`).toBeCloseTo(Math.max(0, sep), 9);
      expect(pointDistance(out[0], out[1], p), `pair ${k}`).toBeLessThan(1e-9);
      expect(pointDistance(out[2], out[3], q), `pair ${k}`).toBeLessThan(1e-9);
    }
  });
});

describe('missileSupporters', () => {
  it('counts the same friends as nearLineOfFire asked of each, also where the bases alone settle it', () => {
    // Ships of several sizes and squadrons, placed at random in a small area so that many
    // friends lie near the line, some beside the target or the attacker (where the count takes
    // them without measuring the line) and some near the 3" limit.
    const big = (id: string, l: number, w: number) => unit({ id, name: id, defense: 1, base: { lengthIn: l, widthIn: w }, weapons: [] });
    const sq = (id: string) => unit({ id, name: id, type: 'fighter', defense: 1, weapons: [] });
    const friends = [big('test.f0', 2, 1.5), big('test.f1', 4, 2.5), big('test.f2', 6, 2), sq('test.f3'), sq('test.f4'), sq('test.f5')];
    const battle = new Battle(rulesFor('1.2.2'), miniScenario({ a: [launcher, sq('test.s')], b: [big('test.t', 3.5, 2), sq('test.ts'), ...friends] }));
    const inner = handBattle(battle, 'support') as unknown as {
      missileSupporters(a: BattleModel, t: BattleModel): number;
      nearLineOfFire(o: BattleModel, a: BattleModel, t: BattleModel): boolean;
      mayHelpDefend(o: BattleModel, a: BattleModel, t: BattleModel): boolean;
    };
    const [ship, squadron, target, targetSq] = battle.models;
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let beside = 0, counted = 0;
    for (let k = 0; k < 2000; k++) {
      for (const m of battle.models) put(m, 10 + rnd() * 14, 10 + rnd() * 14, rnd() * 360);
      const att = k % 2 === 0 ? ship : squadron, tgt = k % 3 === 0 ? targetSq : target;
      let want = 0;
      for (const o of battle.models) if (inner.mayHelpDefend(o, att, tgt) && inner.nearLineOfFire(o, att, tgt)) want++;
      expect(inner.missileSupporters(att, tgt), `layout ${k}`).toBe(want);
      counted += want;
      for (const o of battle.models) if (inner.mayHelpDefend(o, att, tgt) && Math.hypot(o.base.x - tgt.base.x, o.base.y - tgt.base.y) + tgt.base.outerR - o.base.innerR < 3) beside++;
    }
    // The layouts did put friends beside the target, and friends near the line at all.
    expect(beside).toBeGreaterThan(100);
    expect(counted).toBeGreaterThan(1000);
  });
});
