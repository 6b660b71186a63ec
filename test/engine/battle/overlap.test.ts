// Overlapping after a forced minimum move (game.md §6.7, GM-64, GM-65, GM-66; vectors MV-13
// and MV-15): first through a whole activation in which every move the ship may make ends on
// another base, then through the private resolveOverlaps on bases placed by hand.
import { describe, expect, it } from 'vitest';
import type { Battle as BattleT } from '../../../src/engine/battle/game.js';
import { MovingBase, type BattleModel } from '../../../src/engine/battle/model.js';
import { separation } from '../../../src/engine/geometry.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { UnitCard } from '../../../src/units/types.js';
import { Battle, cardWith, handBattle, miniScenario, put, rules, type BattleInternals } from '../../helpers/battle.js';

/** A 1.5" x 2" ship (Tengu) of Speed 2 with no weapons: v1.2.1 moves 1"-2" (Thrusters 0: no turn). */
const slowSmall = cardWith('unknown.tengu', { id: 'test.slow-tengu', speed: 2, weapons: [] });
/** A 2" x 4" ship (MV-13's ship B). */
const big = cardWith('unknown.poseidon', { id: 'test.big', base: { widthIn: 2, lengthIn: 4 }, weapons: [] });
const squadron = cardWith('jovian.pathfinder', { id: 'test.squadron', weapons: [] });

function setUp(version: RulesVersionId, a: UnitCard[], b: UnitCard[]): { battle: BattleT; inner: BattleInternals; models: BattleModel[] } {
  const battle = new Battle(rules(version), miniScenario({ a, b }));
  const inner = handBattle(battle);
  return { battle, inner, models: battle.models };
}

/** No two bases on the table overlap (touching is allowed after a GM-64/GM-65 placement). */
function expectApart(battle: BattleT): void {
  const on = battle.models.filter((m) => m.where === 'table');
  for (let i = 0; i < on.length; i++) for (let j = i + 1; j < on.length; j++) expect(separation(on[i].base, on[j].base), `${on[i].label} / ${on[j].label}`).toBeGreaterThan(-0.001);
}

describe('a forced minimum move onto a capital ship, through a whole activation (MV-13, v1.2.1)', () => {
  // A (1.5" x 2", heading 0) at (10, 12): its front edge touches B's near side, so holding
  // position is illegal and each of its moves (1", 1.5", 2" straight) ends on B (2" x 4",
  // heading 90, centre (10, 14): x 8..12, y 13..15).
  const run = () => {
    const s = setUp('1.2.1', [slowSmall], [big]);
    const [a, b] = s.models;
    put(a, 10, 12, 0);
    put(b, 10, 14, 90);
    a.state.thrusters = 0;
    s.inner.activate(a);
    return { ...s, a, b };
  };

  it('A is smaller, so A is moved: its minimum move ends at (10, 13), then it is pushed forward to (10, 16), rear touching B', () => {
    const { battle, inner, a, b } = run();
    expect(a.where).toBe('table');
    expect(a.base.x).toBeCloseTo(10, 9);
    expect(a.base.heading).toBe(0);
    // 0.05" push steps: the first clear spot is y = 16 (rear edge on y = 15).
    expect(a.base.y).toBeGreaterThanOrEqual(16 - 1e-6);
    expect(a.base.y).toBeLessThan(16 + 0.05);
    expect(separation(a.base, b.base)).toBeLessThan(0.05);
    expect([b.base.x, b.base.y, b.base.heading]).toEqual([10, 14, 90]);
    expectApart(battle);
    const rec = inner.trace!.activations[0];
    expect(rec.before).toEqual({ x: 10, y: 12, heading: 0 });
    expect(rec.notes).toContain(`overlap with ${b.label}: ${a.label} repositioned (GM-64)`);
  });
});

describe('a forced minimum move onto a squadron, through a whole activation (GM-65)', () => {
  // A at (10, 10) heading 0 (y 9..11); a squadron hex centred (10, 11.5), flats parallel to x
  // (y 11..12), touches A's front edge. A's minimum move (1" in v1.2.1, 2" in v1.2.2 with
  // Thrusters 0) ends over it; the squadron is moved clear by the least distance: straight up.
  const run = (version: RulesVersionId) => {
    const s = setUp(version, [slowSmall], [squadron, big]);
    const [a, sq, far] = s.models;
    put(a, 10, 10, 0);
    put(sq, 10, 11.5, 0);
    put(far, 40, 40, 90);
    a.state.thrusters = 0;
    s.inner.activate(a);
    return { ...s, a, sq };
  };

  it('v1.2.1: the ship ends at (10, 11) after exactly its minimum move; the squadron goes to (10, 13.5), 1" from it', () => {
    const { battle, inner, a, sq } = run('1.2.1');
    expect([a.base.x, a.base.y, a.base.heading]).toEqual([10, 11, 0]);
    expect(sq.base.x).toBeCloseTo(10, 6);
    expect(sq.base.y).toBeCloseTo(13.5, 6);
    expect(separation(sq.base, a.base)).toBeGreaterThanOrEqual(1 - 0.001);
    expectApart(battle);
    expect(inner.trace!.activations[0].notes).toContain(`${sq.label} moved clear of ${a.label} (GM-65)`);
  });

  it('v1.2.2: the ship ends at (10, 12) (Speed 2, Thrusters 0: exactly 2"); the squadron moves the least distance that clears it', () => {
    const { battle, a, sq } = run('1.2.2');
    expect([a.base.x, a.base.y, a.base.heading]).toEqual([10, 12, 0]);
    const moved = Math.hypot(sq.base.x - 10, sq.base.y - 11.5);
    expect(separation(sq.base, a.base)).toBeGreaterThan(-0.001); // touching is legal (GM-65)
    expectApart(battle);
    // No spot clear of the ship lies nearer the start than the engine's 0.05" search grid allows.
    const probe = new MovingBase(sq.base.shape, 0, 0, 0, 1, 1);
    let nearestClear = Infinity;
    for (let r = 0; r < moved && nearestClear === Infinity; r += 0.01) {
      for (let deg = 0; deg < 360; deg += 1) {
        probe.set(10 + r * Math.sin((deg * Math.PI) / 180), 11.5 + r * Math.cos((deg * Math.PI) / 180), 0);
        if (separation(probe, a.base) >= 0) {
          nearestClear = r;
          break;
        }
      }
    }
    expect(nearestClear).toBeGreaterThan(moved - 0.06);
    // Touching is legal here, so the nearest clear spot is straight behind the ship: the hex's
    // top flat (0.5" above its centre) on the ship's rear edge at y = 11, a shift of exactly 1".
    expect(moved).toBeCloseTo(1, 6);
    expect(sq.base.x).toBeCloseTo(10, 6);
    expect(sq.base.y).toBeCloseTo(10.5, 6);
  });
});

describe('resolveOverlaps on bases placed by hand (GM-64)', () => {
  const rec = () => ({ notes: [] as string[] });

  it('equal bases: the mover is moved, forward along its heading, after using its Fire Control where it stopped', () => {
    const tengu = cardWith('unknown.tengu', { weapons: [] });
    const { battle, inner, models } = setUp('1.2.2', [tengu], [tengu]);
    const [mover, other] = models;
    put(mover, 10, 10, 0); // y 9..11
    put(other, 10, 11.5, 0); // y 10.5..12.5
    const firedAt: Array<[number, number]> = [];
    inner.resolveOverlaps(mover, () => firedAt.push([mover.base.x, mover.base.y]), rec());
    expect(firedAt).toEqual([[10, 10]]);
    expect(mover.base.x).toBeCloseTo(10, 9);
    expect(mover.base.y).toBeGreaterThanOrEqual(13.5 - 1e-6); // rear edge on y = 12.5
    expect(mover.base.y).toBeLessThan(13.55);
    expect([other.base.x, other.base.y, other.base.heading]).toEqual([10, 11.5, 0]);
    expectApart(battle);
  });

  it('a larger mover stays; the smaller ship is pushed forward along its own heading, and the mover does not lose its fire', () => {
    const { battle, inner, models } = setUp('1.2.2', [big], [cardWith('unknown.tengu', { weapons: [] })]);
    const [mover, small] = models;
    put(mover, 10, 10, 0); // 2" x 4": x 9..11, y 8..12
    put(small, 10, 12, 90); // heading 90: x 9..11, y 11.25..12.75
    let fired = 0;
    const r = rec();
    inner.resolveOverlaps(mover, () => fired++, r);
    expect(fired).toBe(0);
    expect([mover.base.x, mover.base.y, mover.base.heading]).toEqual([10, 10, 0]);
    expect(small.base.x).toBeGreaterThanOrEqual(12 - 1e-6); // rear edge on x = 11
    expect(small.base.x).toBeLessThan(12.05);
    expect(small.base.y).toBeCloseTo(12, 9);
    expect(small.base.heading).toBe(90);
    expect(r.notes).toEqual([`overlap with ${mover.label}: ${small.label} repositioned (GM-64)`]);
    expectApart(battle);
  });

  it('pushed forward it would leave the table: it goes backward instead, front edge touching', () => {
    const { battle, inner, models } = setUp('1.2.2', [cardWith('unknown.tengu', { weapons: [] })], [big]);
    const [mover, b] = models;
    put(mover, 10, 46, 0); // y 45..47
    put(b, 10, 46.5, 90); // y 45.5..47.5: forward would need centre 48.5
    inner.resolveOverlaps(mover, () => {}, rec());
    expect(mover.base.x).toBeCloseTo(10, 9);
    expect(mover.base.y).toBeLessThanOrEqual(44.5 + 1e-6); // front edge on y = 45.5
    expect(mover.base.y).toBeGreaterThan(44.45);
    expect(mover.base.heading).toBe(0);
    expectApart(battle);
  });

  it('a ship pushed clear (GM-64) takes the squadrons Assaulting it along, still in base contact (§11.4)', () => {
    const { battle, inner, models } = setUp('1.2.2', [big], [cardWith('unknown.tengu', { weapons: [] }), squadron]);
    const [mover, small, exo] = models;
    put(mover, 10, 10, 0); // 2" x 4": x 9..11, y 8..12
    put(small, 10, 12, 90); // pushed forward to x >= 12
    put(exo, 10, 12.75 + 0.5, 0); // touching the small ship's port side (y 12.75)
    exo.assaulting = small;
    expect(separation(exo.base, small.base)).toBeLessThan(0.01);
    const r = rec();
    inner.resolveOverlaps(mover, () => {}, r);
    expect(small.base.x).toBeGreaterThanOrEqual(12 - 1e-6);
    expect(exo.assaulting).toBe(small);
    expect(separation(exo.base, small.base)).toBeGreaterThanOrEqual(-0.001);
    expect(separation(exo.base, small.base)).toBeLessThan(0.01);
    expectApart(battle);
  });

  it('MV-15, v1.2.1: a squadron hex at (20, 21.2) under a ship spanning y 19..21 goes to (20, 22.5), exactly 1" away', () => {
    const { battle, inner, models } = setUp('1.2.1', [cardWith('unknown.tengu', { weapons: [] })], [squadron]);
    const [ship, sq] = models;
    put(ship, 20, 20, 0);
    put(sq, 20, 21.2, 0);
    inner.resolveOverlaps(ship, () => {}, rec());
    expect([ship.base.x, ship.base.y]).toEqual([20, 20]);
    expect(sq.base.x).toBeCloseTo(20, 6);
    expect(sq.base.y).toBeCloseTo(22.5, 6);
    expect(separation(sq.base, ship.base)).toBeCloseTo(1, 6);
    expectApart(battle);
  });

  it('MV-15, v1.2.2: the same squadron only has to stop overlapping, so it ends touching at (20, 21.5) (GM-65)', () => {
    const { battle, inner, models } = setUp('1.2.2', [cardWith('unknown.tengu', { weapons: [] })], [squadron]);
    const [ship, sq] = models;
    put(ship, 20, 20, 0);
    put(sq, 20, 21.2, 0);
    inner.resolveOverlaps(ship, () => {}, rec());
    expect(sq.base.x).toBeCloseTo(20, 6);
    expect(sq.base.y).toBeCloseTo(21.5, 6);
    expect(Math.abs(separation(sq.base, ship.base))).toBeLessThan(0.002);
    expectApart(battle);
  });

  it('squadrons already clear of the capital ship are left where they are', () => {
    const { inner, models } = setUp('1.2.1', [cardWith('unknown.tengu', { weapons: [] })], [squadron]);
    const [ship, sq] = models;
    put(ship, 20, 20, 0);
    put(sq, 20, 22.6, 0); // 1.1" from the front edge
    const r = rec();
    inner.resolveOverlaps(ship, () => {}, r);
    expect([sq.base.x, sq.base.y]).toEqual([20, 22.6]);
    expect(r.notes).toEqual([]);
  });
});

/** MV-13's set-up (A's forced move ends on B, and A is pushed clear) with a squadron of B's fleet at (x, y). */
function pushedPast(version: RulesVersionId, x: number, y: number) {
  const s = setUp(version, [slowSmall], [big, squadron]);
  const [a, b, sq] = s.models;
  put(a, 10, 12, 0);
  put(b, 10, 14, 90);
  put(sq, x, y, 0);
  a.state.thrusters = 0;
  return { ...s, a, b, sq };
}

describe('an active ship to be repositioned acts where it stopped (seed 002, GM-64)', () => {
  // v1.2.2: A (Speed 2, Thrusters 0) must move exactly 2", onto B, and is pushed clear to
  // y >= 16. An enemy squadron at (6.5, 12) is within 3" of where A stops (10, 14), and more
  // than 3" from where it is put: its Engage Point Defense is made at the stop.
  it('Engage Point Defense reaches the squadron near the stop position', () => {
    const { a, b, sq, ...s } = pushedPast('1.2.2', 6.5, 12);
    const near: number[] = [];
    const internals = s.battle as unknown as { squadronsNear(m: BattleModel, p: { x: number; y: number; heading: number }, d: number): BattleModel[] };
    const find = internals.squadronsNear.bind(s.battle);
    internals.squadronsNear = (m, p, d) => {
      const r = find(m, p, d);
      if (m === a && p === a.base) near.push(a.base.y, r.length);
      return r;
    };
    s.inner.activate(a);
    const rec = s.inner.trace!.activations[0];
    expect(rec.action).toBe('engage_point_defence');
    expect(rec.notes).toContain(`overlap with ${b.label}: ${a.label} repositioned (GM-64)`);
    expect(a.base.y).toBeGreaterThanOrEqual(16 - 1e-6);
    // Measured once, at the stop (y 14), where the squadron is in reach.
    expect(near).toEqual([14, 1]);
    expect(separation(sq.base, a.base)).toBeGreaterThan(3);
  });
});

describe('a squadron near, but not under, a ship\'s forced end position (seed 002)', () => {
  it('v1.2.1: only an overlapped squadron is moved; one 0.75" from the ship stays where it is', () => {
    // MV-13's push: A ends at (10, 16) (x 9.25..10.75, y 15..17). The squadron at (12, 16.5) is
    // 0.75" from that, clear of A's path and of B.
    const { a, b, sq, ...s } = pushedPast('1.2.1', 12, 16.5);
    s.inner.activate(a);
    const rec = s.inner.trace!.activations[0];
    expect(rec.notes).toContain(`overlap with ${b.label}: ${a.label} repositioned (GM-64)`);
    expect(separation(sq.base, a.base)).toBeGreaterThan(0);
    expect(separation(sq.base, a.base)).toBeLessThan(1);
    expect([sq.base.x, sq.base.y]).toEqual([12, 16.5]);
    expect(rec.notes.some((n) => n.includes('moved clear'))).toBe(false);
  });
});
