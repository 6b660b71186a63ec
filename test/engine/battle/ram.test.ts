// Ramming contact (game.md §8.1, GM-73): the rammer must make a *legal* move that ends with
// its front arc touching the target. A legal end position overlaps no other base (§6.1/§6.2,
// GM-45), so a successful ram may never leave the rammer on top of a third model.
//
// The ram move is a private step of Battle (doRam); it is reached here through a cast so the
// situation can be built exactly, with dice that pass every test.
import { describe, expect, it } from 'vitest';
import type { Battle as BattleT } from '../../../src/engine/battle/game.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { separation } from '../../../src/engine/geometry.js';
import type { RandomStream } from '../../../src/rng/stream.js';
import { Battle, miniScenario, rules } from '../../helpers/battle.js';

const SIXES: RandomStream = { next: () => 0.99, d6: () => 6 };

function setUp(): { battle: BattleT; rammer: BattleModel; target: BattleModel; bystander: BattleModel } {
  const battle = new Battle(rules('1.2.2'), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu', 'jovian.pathfinder'] }));
  const [rammer, target, bystander] = battle.models;
  for (const m of battle.models) {
    m.reset();
    m.side = m.fleet;
    m.where = 'table';
  }
  // Rammer (2" x 1.5") at (24, 10) heading north; target broadside at (24, 16), y 15.25..16.75;
  // a squadron of the target's fleet at (25.2, 14): hex x 24.62..25.78, y 13.5..14.5, clear of both.
  rammer.base.set(24, 10, 0);
  target.base.set(24, 16, 90);
  bystander.base.set(25.2, 14, 0);
  rammer.state.structure = 1;
  (battle as unknown as { dice: RandomStream }).dice = SIXES;
  return { battle, rammer, target, bystander };
}

describe('ram contact (GM-73)', () => {
  it('the constructed start is legal: nothing touches', () => {
    const { rammer, target, bystander } = setUp();
    expect(separation(rammer.base, target.base)).toBeGreaterThan(4);
    expect(separation(rammer.base, bystander.base)).toBeGreaterThan(2);
    expect(separation(target.base, bystander.base)).toBeGreaterThan(0.5);
  });

  it('a ram ends touching the target and overlapping nothing else (or fails without moving)', () => {
    const { battle, rammer, target, bystander } = setUp();
    const rec: { ram?: { result: string } } & Record<string, unknown> = { turn: 1, model: rammer.label, action: 'ram', attacks: [], notes: [] };
    const internals = battle as unknown as { ramOption(m: BattleModel): { target: BattleModel } | null; doRam(m: BattleModel, o: unknown, r: unknown): void };
    const option = internals.ramOption(rammer);
    if (option) internals.doRam(rammer, option, rec);
    const result = option ? rec.ram?.result : 'failed';
    expect(['rammed', 'failed']).toContain(result);
    if (result === 'rammed') {
      // It reached the target by some legal path: in contact, and on top of nothing.
      expect(Math.abs(separation(rammer.base, target.base))).toBeLessThan(0.002);
      expect(separation(rammer.base, bystander.base), 'rammer overlaps the bystander squadron').toBeGreaterThan(-0.001);
    } else {
      // No legal move into contact exists (v1.2.3 step 2): the ram fails and nobody moves.
      expect([rammer.base.x, rammer.base.y, rammer.base.heading]).toEqual([24, 10, 0]);
    }
  });

  it('with the way clear, the rammer finds the target dead ahead and ends in front-arc contact', () => {
    const { battle, rammer, target, bystander } = setUp();
    bystander.where = 'destroyed';
    // v1.2.2 Tengu: Speed 8, Thrusters 3, so a legal move is 5"-11". Target broadside at y = 17
    // (near side y = 16.25): contact after 5.25" of straight movement.
    target.base.set(24, 17, 90);
    const internals = battle as unknown as { ramOption(m: BattleModel): { target: BattleModel; pose: { x: number; y: number; heading: number } } | null };
    const option = internals.ramOption(rammer);
    expect(option?.target).toBe(target);
    // Straight ahead: the front edge (1" ahead of the centre) meets the target's near side at y = 16.25.
    expect(option!.pose.x).toBeCloseTo(24, 6);
    expect(option!.pose.y).toBeCloseTo(15.25, 3);
    expect(option!.pose.heading).toBe(0);
  });

  it('a target closer than the minimum move cannot be rammed: the move into contact would not be legal (GM-73)', () => {
    const { battle, rammer, bystander } = setUp();
    bystander.where = 'destroyed';
    // Target near side at y = 15.25: contact after 4.25", under the 5" minimum.
    const internals = battle as unknown as { ramOption(m: BattleModel): unknown };
    expect(internals.ramOption(rammer)).toBeNull();
  });
});
