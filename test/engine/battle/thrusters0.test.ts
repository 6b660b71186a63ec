// GM-12 (game.md §6.2): under v1.2.2 a ship at Thrusters 0 may still make one turn after a
// passed Skill Test [D+]; on a failure it goes the same distance straight ahead. v1.2.1 has no
// such test: with no Thrusters a ship never turns (§6.1).
import { describe, expect, it } from 'vitest';
import type { MoveOption } from '../../../src/policies/types.js';
import { Battle, cardWith, handBattle, miniScenario, put, rules } from '../../helpers/battle.js';

const shanYu = cardWith('venus.shan-yu', {}); // Speed 6, Thrusters 4, Turns 1
const tengu = cardWith('unknown.tengu', {});

function setUp(version: '1.2.1' | '1.2.2', seed: string) {
  const battle = new Battle(rules(version), miniScenario({ a: [shanYu], b: [tengu] }));
  const inner = handBattle(battle, seed);
  const [ship, enemy] = battle.models;
  put(ship, 24, 10, 0);
  put(enemy, 40, 30, 270); // off to starboard: worth turning towards
  ship.state.thrusters = 0;
  const tiers = (m: unknown) => (inner as unknown as { moveTiers(m: unknown, sk: boolean): MoveOption[][] }).moveTiers(m, false);
  return { inner, tiers, ship };
}

describe('the Thrusters-0 turn (GM-12)', () => {
  it('v1.2.2 offers 45-degree turns that carry a straight fallback of the same distance; v1.2.1 offers none', () => {
    const { tiers, ship } = setUp('1.2.2', 't0');
    const tests = tiers(ship)[0].filter((o) => o.failPose);
    expect(tests.length).toBeGreaterThan(0);
    for (const o of tests) {
      expect(o.pose.heading).not.toBe(0);
      expect(o.failPose!.heading).toBe(0);
      expect(o.failPose!.x).toBeCloseTo(24, 9);
      expect(o.failPose!.y - 10).toBeCloseTo(o.travelled, 9); // Speed 6 - Thrusters 0 = 6" minimum, up to 6"
    }
    const old = setUp('1.2.1', 't0');
    const all = old.tiers(old.ship)[0];
    expect(all.some((o) => o.failPose)).toBe(false);
    expect(all.every((o) => o.pose.heading === 0)).toBe(true);
  });

  it('the test decides: a pass turns, a failure goes straight; the trace says which', () => {
    let passed = 0;
    let failed = 0;
    for (let k = 0; k < 24; k++) {
      const { inner, ship } = setUp('1.2.2', `t0-${k}`);
      inner.activate(ship);
      const act = inner.trace!.activations[0];
      if (!act.test?.startsWith('Thrusters 0 turn')) continue;
      if (act.test.includes('passed')) {
        passed++;
        expect(ship.base.heading).not.toBe(0);
      } else {
        failed++;
        expect(ship.base.heading).toBe(0);
        expect(ship.base.x).toBeCloseTo(24, 9);
      }
    }
    expect(passed).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
  });
});
