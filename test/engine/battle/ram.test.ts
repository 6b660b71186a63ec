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
import { aspect, headOn } from '../../../src/engine/geometryArcs.js';
import type { RandomStream } from '../../../src/rng/stream.js';
import { ScriptedDice } from '../../../src/rng/scripted.js';
import { Battle, handBattle, miniScenario, policiesOf, put, rules } from '../../helpers/battle.js';

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

// ------------------------------------------------------------------ ramming inside an activation
// game.md §8.2 (Case A, v1.2.1) and its vectors RAM-01/02/04/06, played through Battle.activate
// with scripted dice. Valiant (Structure 4, Skill 3, Speed 7: a legal v1.2.1 move is 3.5"-7")
// at (24, 10) heading north; an undamaged Tengu (Structure 3) broadside at (24, 17) heading
// east, so the Valiant's front edge (y = 11.5) meets the Tengu's starboard side (y = 16.25)
// after 4.75" of straight movement: a side ram, not head-on (the Valiant is not in the Tengu's
// F arc), as in GEO-05 / RAM-01.
describe('ramming in a v1.2.1 activation (game.md §8.2, RAM-01/02/04/06)', () => {
  interface Offered {
    action: string;
    travelled: number;
  }
  function valiantRams(structure: number, faces: number[] | null) {
    const battle = new Battle(rules('1.2.1'), miniScenario({ a: ['jovian.valiant'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle, 'ram-121');
    const [valiant, tengu] = battle.models;
    put(valiant, 24, 10, 0);
    put(tengu, 24, 17, 90);
    valiant.state.structure = structure;
    // Record every move the engine offers the policy (and the one it takes).
    const offered: Offered[][] = [];
    const pol = policiesOf(battle)[0];
    const pick = pol.pickMove.bind(pol);
    pol.pickMove = (view, m, options, legal, rng) => {
      offered.push(options.map((o) => ({ action: o.action, travelled: o.travelled })));
      return pick(view, m, options, legal, rng);
    };
    const dice = faces ? new ScriptedDice(faces) : null;
    if (dice) inner.dice = dice;
    const option = (battle as unknown as { ramOption(m: BattleModel): { target: BattleModel } | null }).ramOption(valiant);
    inner.activate(valiant);
    dice?.assertConsumed();
    return { valiant, tengu, option, offered, rec: inner.trace!.activations[0] };
  }

  it('RAM-01 / RAM-06: Skill [D3], Valiant 5 dice [D2,D5] -> [T2,T5], Tengu 3 dice [D2] -> [T2]; the rammer makes no attack', () => {
    // Skill Test 3,3,1; Valiant pool 4 + 1 (side) = 2,2,5,5,1; Tengu pool 3 = 2,2,6.
    const { valiant, tengu, option, rec } = valiantRams(1, [3, 3, 1, 2, 2, 5, 5, 1, 2, 2, 6]);
    expect(option?.target).toBe(tengu);
    expect(rec.action).toBe('ram');
    expect(rec.ram?.result).toBe('rammed');
    expect(Math.abs(separation(valiant.base, tengu.base))).toBeLessThan(0.002); // contact made
    expect(tengu.state.structure).toBe(1); // 3 - 2
    expect(valiant.state.structure).toBe(0);
    expect(valiant.state.crippled).toBe(true);
    // RAM-06 (a rammer declares no attacks): the ram is settled at the start of the activation,
    // before any fire, and the activation ends with it, so no attack is made, although the
    // Tengu stands in range and in the arcs of two of the Valiant's weapons.
    expect(rec.attacks).toEqual([]);
    expect(rec.fired).toBe('none');
  });

  it('RAM-02: the Skill Test fails (1,2,4 = [N]): no contact, no more dice, it still moves, and it makes no attacks (GM-90)', () => {
    const { valiant, tengu, rec, offered } = valiantRams(1, [1, 2, 4]);
    expect(rec.action).toBe('ram');
    expect(rec.ram?.result).toBe('failed');
    expect(tengu.state.structure).toBe(3);
    expect(valiant.state.structure).toBe(1);
    expect(separation(valiant.base, tengu.base)).toBeGreaterThan(0); // never touched
    expect(offered).toHaveLength(1); // it still moves (its move is chosen once)
    expect([rec.after.x, rec.after.y, rec.after.heading]).not.toEqual([24, 10, 0]);
    expect(rec.attacks).toEqual([]); // GM-90: the ram was declared, so no attacks
  });

  // RAM-02 says the ship "must still make a legal move of at least half Speed" (GM-90: "its
  // minimum distance still applies"): Ram was its action, so the menu after the failed test
  // offers no Station Keep (or Boost) moves.
  it('RAM-02: every move offered after the failed ram is at least half Speed (3.5")', () => {
    const { offered } = valiantRams(1, [1, 2, 4]);
    const short = offered[0].filter((o) => o.travelled < 3.5 - 1e-9);
    expect(short).toEqual([]);
  });

  it('RAM-04: at 2 Structure the Valiant may not ram (exactly 1 is required): no ram offered, no dice for one, and it moves and fires as usual', () => {
    const { option, rec, valiant } = valiantRams(2, null);
    expect(option).toBeNull();
    expect(rec.action).not.toBe('ram');
    expect(rec.ram).toBeUndefined();
    expect(rec.attacks.length).toBeGreaterThan(0); // the yardstick for the no-attack checks above
    expect(valiant.state.structure).toBe(2);
    // The same position at 1 Structure does offer the ram.
    expect(valiantRams(1, [1, 2, 4]).option).not.toBeNull();
  });
});

// ------------------------------------------------------------------ what the ram plan is built from
// GM-22: the head-on bonus needs both front arcs (the rammer in the target's F arc and the target
// in the rammer's F arc), not only a hit on the target's front. A squadron rammer meets point
// defence rolled from the target's current Defense (combat.md §8.1 PDAttackPool).
describe('the ram plan a battle uses', () => {
  function planned(rammerId: string, targetId: string, place: (r: BattleModel, t: BattleModel) => void, prepare: (t: BattleModel) => void = () => {}) {
    const battle = new Battle(rules('1.2.1'), miniScenario({ a: [rammerId], b: [targetId] }));
    handBattle(battle, 'ram-plan');
    const [rammer, target] = battle.models;
    put(rammer, 10, 10, 0);
    put(target, 30, 30, 0);
    rammer.state.structure = 1;
    prepare(target);
    place(rammer, target);
    const pose = { x: rammer.base.x, y: rammer.base.y, heading: rammer.base.heading };
    const internals = battle as unknown as { doRam(m: BattleModel, o: unknown, r: null): string; ramPlans: Map<number, import('../../../src/engine/ram.js').RamPlan> };
    (battle as unknown as { dice: RandomStream }).dice = SIXES;
    internals.doRam(rammer, { target, pose }, null);
    expect(internals.ramPlans.size).toBe(1);
    return { plan: [...internals.ramPlans.values()][0], rammer, target };
  }

  it('a ram into the target\'s front arc that is not head-on gives neither ship the +1 (GM-22)', () => {
    // Target heading 0 at (24, 16); the rammer at its bow, turned to 240°: it is in the target's
    // F arc, but the target lies in the rammer's port arc, not its front.
    const { plan, rammer, target } = planned('jovian.valiant', 'unknown.tengu', (r, t) => {
      put(t, 24, 16, 0);
      put(r, 24.447, 18.147, 240.2);
    });
    expect(aspect(rammer.base, target.base)).toBe('F');
    expect(headOn(rammer.base, target.base)).toBe(false);
    expect(plan.notes.some((n) => n.includes('head-on'))).toBe(false);
    expect(plan.targetAttack?.base).toBe(3); // Tengu's starting Structure, no bonus
    expect(plan.rammerAttack.base).toBe(4); // Valiant's starting Structure, no bonus
  });

  it('bow to bow is head-on: both ships get +1 die', () => {
    const { plan } = planned('jovian.valiant', 'unknown.tengu', (r, t) => {
      put(t, 24, 16, 0);
      put(r, 24, 18.75, 180);
    });
    expect(plan.notes).toContain('head-on: both +1');
    expect(plan.targetAttack?.base).toBe(4);
    expect(plan.rammerAttack.base).toBe(5);
  });

  it('a squadron rammer meets point defence from the ship\'s current Defense', () => {
    const place = (r: BattleModel, t: BattleModel) => put(r, t.base.x, t.base.y + 1.6, 0);
    const whole = planned('jovian.pathfinder', 'unknown.tengu', place);
    expect(whole.plan.defence?.base).toBe(whole.target.unit.defense);
    const hit = planned('jovian.pathfinder', 'unknown.tengu', place, (t) => (t.state.defense = 1));
    expect(hit.target.unit.defense).toBeGreaterThan(1);
    expect(hit.plan.defence?.base).toBe(1);
    expect(hit.plan.notes).toContain('point defence 1');
  });
});
