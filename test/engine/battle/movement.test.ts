// Battle movement (game.md §6.1, §6.2, §6.6, §6.7, GM-14, GM-15, GM-54, GM-55, GM-57):
// move limits per version, the moves offered, the pivot point, clamping at the table edge,
// and where a model may end a normal move.
import { describe, expect, it } from 'vitest';
import { GEOM_EPSILON, cosDeg, onTable, separation, sinDeg } from '../../../src/engine/geometry.js';
import { LIMITS, capitalLimits, capitalMoves, capitalPlan, followCapitalMove, legalEnd, loadLimits, nearestLegal, pivot, planOfLimits, type Pose } from '../../../src/engine/battle/movement.js';
import { brOf, card, cardWith, placed } from '../../helpers/battle.js';

const V121 = brOf('1.2.1');
const V122 = brOf('1.2.2');

/** A Shan-Yu (Speed 6, Turns 1, Thrusters 4 on the sample roster: all SOURCED from §6.2). */
function shanYu(thrusters?: number) {
  const m = placed(card('venus.shan-yu'), 24, 24);
  if (thrusters !== undefined) m.state.thrusters = thrusters;
  return m;
}

describe('capital-ship move limits, v1.2.2 (§6.2, GM-57, GM-10)', () => {
  it('the sample Shan-Yu carries the sourced ratings used by the examples', () => {
    const u = card('venus.shan-yu');
    expect([u.speed, u.turns, u.thrusters]).toEqual([6, 1, 4]);
  });

  it('Shan-Yu, Speed 6, Thrusters 4: 2"-10", one turn', () => {
    expect(capitalLimits(V122, shanYu(), false)).toEqual({ min: 2, max: 10, turns: 1 });
  });

  it('Shan-Yu with Thrusters cut to 2: 4"-8"', () => {
    expect(capitalLimits(V122, shanYu(2), false)).toEqual({ min: 4, max: 8, turns: 1 });
  });

  it('Thrusters 0: exactly Speed and no turn (GM-12 test aside)', () => {
    expect(capitalLimits(V122, shanYu(0), false)).toEqual({ min: 6, max: 6, turns: 0 });
  });

  it('maximum turns = min(Turns, Thrusters)', () => {
    const two = (thr: number) => {
      const m = placed(cardWith('jovian.alexander', { turns: 2, thrusters: 3 }), 24, 24);
      m.state.thrusters = thr;
      return capitalLimits(V122, m, false).turns;
    };
    expect(two(3)).toBe(2);
    expect(two(2)).toBe(2);
    expect(two(1)).toBe(1);
    expect(two(0)).toBe(0);
    // Turns 1 caps it however many Thrusters are left (Shan-Yu example).
    expect(capitalLimits(V122, shanYu(4), false).turns).toBe(1);
  });

  it('Station Keep waives the minimum; the maximum and turns stay (GM-10)', () => {
    expect(capitalLimits(V122, shanYu(), true)).toEqual({ min: 0, max: 10, turns: 1 });
    expect(capitalLimits(V122, shanYu(2), true)).toEqual({ min: 0, max: 8, turns: 1 });
  });

  it('the minimum is clamped at 0: Speed 4, Thrusters 5 gives 0"-9" (GM-57)', () => {
    const m = placed(cardWith('unknown.poseidon', { speed: 4, thrusters: 5, turns: 1 }), 24, 24);
    expect(capitalLimits(V122, m, false)).toEqual({ min: 0, max: 9, turns: 1 });
  });
});

describe('capital-ship move limits, v1.2.1 (§6.1, GM-08, GM-10)', () => {
  it('half Speed to Speed, one turn when Thrusters >= 1', () => {
    expect(capitalLimits(V121, shanYu(), false)).toEqual({ min: 3, max: 6, turns: 1 });
    expect(capitalLimits(V121, shanYu(1), false)).toEqual({ min: 3, max: 6, turns: 1 });
  });

  it('Thrusters do not widen the band, and Thrusters 0 forbids the turn', () => {
    expect(capitalLimits(V121, shanYu(0), false)).toEqual({ min: 3, max: 6, turns: 0 });
  });

  it('exactly one heading change even with Turns 2 and Thrusters 3 (GM-08)', () => {
    const m = placed(cardWith('jovian.alexander', { turns: 2, thrusters: 3 }), 24, 24);
    expect(capitalLimits(V121, m, false)).toEqual({ min: 3.5, max: 7, turns: 1 });
  });

  it('Station Keeping: minimum 0, maximum Speed', () => {
    expect(capitalLimits(V121, shanYu(), true)).toEqual({ min: 0, max: 6, turns: 1 });
  });
});

describe('loadLimits: capitalLimits as numbers (move menus)', () => {
  it('gives the same limits, and the same plan, for each version, Thrusters, Station Keep and Speed', () => {
    const ships = [shanYu(), placed(cardWith('jovian.alexander', { turns: 2, thrusters: 3 }), 24, 24), placed(cardWith('unknown.poseidon', { speed: 4, thrusters: 5, turns: 1 }), 24, 24)];
    const base = card('venus.shan-yu');
    ships.push(placed(cardWith('venus.shan-yu', { traits: new Map([...base.traits, ['Sluggish', 1]]) }), 24, 24));
    for (const br of [V121, V122]) {
      for (const m of ships) {
        for (const thr of [0, 1, 2, 4]) {
          m.state.thrusters = thr;
          for (const sk of [false, true]) {
            for (const speed of [m.unit.speed, 2 * m.unit.speed, 5]) {
              const lim = capitalLimits(br, m, sk, speed);
              loadLimits(br, m, sk, speed);
              expect([LIMITS[0], LIMITS[1], LIMITS[2], LIMITS[3]]).toEqual([lim.min, lim.max, lim.turns, lim.sluggish === true ? 1 : 0]);
              expect(planOfLimits()).toBe(capitalPlan(lim));
            }
          }
        }
      }
    }
  });
});

describe('capitalMoves: the moves offered stay inside the limits', () => {
  const cases = [
    { min: 2, max: 10, turns: 1 },
    { min: 4, max: 8, turns: 2 },
    { min: 0, max: 9, turns: 1 },
    { min: 6, max: 6, turns: 0 },
    { min: 3, max: 6, turns: 1 },
    { min: 0, max: 0, turns: 1 },
  ];
  for (const lim of cases) {
    it(`${lim.min}"-${lim.max}", ${lim.turns} turn(s)`, () => {
      const moves = capitalMoves(lim);
      expect(moves.length).toBeGreaterThan(0);
      const distances = new Set<number>();
      for (const mv of moves) {
        const d = mv.pre + mv.mid + mv.post;
        distances.add(d);
        expect(d).toBeGreaterThanOrEqual(lim.min - 1e-9);
        expect(d).toBeLessThanOrEqual(lim.max + 1e-9);
        const turns = [mv.turn1, mv.turn2].filter((t) => t !== 0);
        expect(turns.length).toBeLessThanOrEqual(lim.turns);
        for (const t of turns) expect(Math.abs(t)).toBe(45);
        for (const seg of [mv.pre, mv.mid, mv.post]) expect(seg).toBeGreaterThanOrEqual(0);
      }
      // The extremes are always offered.
      expect(distances.has(lim.min)).toBe(true);
      expect(distances.has(lim.max)).toBe(true);
      if (lim.turns === 0) expect(moves.every((mv) => mv.turn1 === 0 && mv.turn2 === 0)).toBe(true);
      else expect(moves.some((mv) => mv.turn1 === 45) && moves.some((mv) => mv.turn1 === -45)).toBe(true);
    });
  }
});

describe('pivot about the front corner on the turn side (GM-55)', () => {
  // A 2" x 1.5" base (Tengu on the sample roster) at (10, 10) heading 0 (+y).
  const tengu = () => placed(card('unknown.tengu'), 10, 10, 0);

  it('the Tengu base is 2" long and 1.5" wide', () => {
    const m = tengu();
    expect([m.base.length, m.base.width]).toEqual([2, 1.5]);
  });

  it('starboard 45°: pivots on the front-right corner (10.75, 11)', () => {
    const p: Pose = { x: 10, y: 10, heading: 0 };
    pivot(tengu(), p, 45);
    // By hand: centre - corner = (-0.75, -1); rotated 45° clockwise: ((-0.75 - 1)·r, (0.75 - 1)·r), r = √½.
    const r = Math.SQRT1_2;
    expect(p.heading).toBeCloseTo(45, 9);
    expect(p.x).toBeCloseTo(10.75 - 1.75 * r, 9); // 9.51256...
    expect(p.y).toBeCloseTo(11 - 0.25 * r, 9); // 10.82322...
    expect(p.x).toBeCloseTo(9.512563, 5);
    expect(p.y).toBeCloseTo(10.823223, 5);
  });

  it('the pivot corner does not move: it is still the front-starboard corner after the turn', () => {
    const p: Pose = { x: 10, y: 10, heading: 0 };
    pivot(tengu(), p, 45);
    const fx = sinDeg(p.heading), fy = cosDeg(p.heading); // forward
    const sx = cosDeg(p.heading), sy = -sinDeg(p.heading); // starboard (heading + 90°)
    expect(p.x + fx * 1 + sx * 0.75).toBeCloseTo(10.75, 9);
    expect(p.y + fy * 1 + sy * 0.75).toBeCloseTo(11, 9);
  });

  it('port 45°: the mirror image, about the front-left corner (9.25, 11)', () => {
    const p: Pose = { x: 10, y: 10, heading: 0 };
    pivot(tengu(), p, -45);
    const r = Math.SQRT1_2;
    expect(p.heading).toBeCloseTo(315, 9);
    expect(p.x).toBeCloseTo(9.25 + 1.75 * r, 9);
    expect(p.y).toBeCloseTo(11 - 0.25 * r, 9);
  });

  it('a turn adds no distance: followCapitalMove counts only the straight segments (GM-54)', () => {
    const m = tengu();
    const out: Pose = { x: 0, y: 0, heading: 0 };
    const r = followCapitalMove(m, { x: 24, y: 24, heading: 0 }, { pre: 2, turn1: 45, mid: 3, turn2: 0, post: 0 }, 48, 48, out);
    expect(r).toEqual({ travelled: 5, clamped: false });
    // 2" north, pivot, then 3" along 45°.
    const p: Pose = { x: 24, y: 26, heading: 0 };
    pivot(m, p, 45);
    expect(out.x).toBeCloseTo(p.x + 3 * Math.SQRT1_2, 9);
    expect(out.y).toBeCloseTo(p.y + 3 * Math.SQRT1_2, 9);
    expect(out.heading).toBeCloseTo(45, 9);
  });
});

describe('followCapitalMove at the table edge (GM-15)', () => {
  it('a straight move stops where the base still lies wholly on the table, and says so', () => {
    // Alexander base 2.5" long: at y = 44 heading north its front edge is at 45.25; 2.75" to the edge.
    const m = placed(card('jovian.alexander'), 24, 44, 0);
    expect(m.base.length).toBe(2.5);
    const out: Pose = { x: 0, y: 0, heading: 0 };
    const r = followCapitalMove(m, { x: 24, y: 44, heading: 0 }, { pre: 6, turn1: 0, mid: 0, turn2: 0, post: 0 }, 48, 48, out);
    expect(r.clamped).toBe(true);
    expect(r.travelled).toBeGreaterThan(2.75 - 0.002);
    expect(r.travelled).toBeLessThanOrEqual(2.75 + GEOM_EPSILON);
    expect(out.x).toBeCloseTo(24, 9);
    expect(out.y).toBeCloseTo(44 + r.travelled, 9);
    expect(out.heading).toBe(0);
    m.base.set(out.x, out.y, out.heading);
    expect(onTable(m.base, 48, 48)).toBe(true);
  });

  it('a move that stays on the table is not clamped', () => {
    const m = placed(card('jovian.alexander'), 24, 30, 0);
    const out: Pose = { x: 0, y: 0, heading: 0 };
    expect(followCapitalMove(m, { x: 24, y: 30, heading: 0 }, { pre: 6, turn1: 0, mid: 0, turn2: 0, post: 0 }, 48, 48, out)).toEqual({ travelled: 6, clamped: false });
    expect(out.y).toBeCloseTo(36, 9);
  });

  it('clamping on a later segment keeps the distance already travelled', () => {
    // 1" north, turn 45° to starboard at x = 44, then 6" more: the right edge stops it.
    const m = placed(card('unknown.tengu'), 44, 10, 0);
    const out: Pose = { x: 0, y: 0, heading: 0 };
    const r = followCapitalMove(m, { x: 44, y: 10, heading: 0 }, { pre: 1, turn1: 45, mid: 6, turn2: 0, post: 0 }, 48, 48, out);
    expect(r.clamped).toBe(true);
    expect(r.travelled).toBeGreaterThan(1);
    expect(r.travelled).toBeLessThan(7);
    expect(out.heading).toBeCloseTo(45, 9);
    m.base.set(out.x, out.y, out.heading);
    expect(onTable(m.base, 48, 48)).toBe(true);
    // A little further along the heading would be off the table.
    m.base.set(out.x + 0.01 * Math.SQRT1_2, out.y + 0.01 * Math.SQRT1_2, out.heading);
    expect(onTable(m.base, 48, 48)).toBe(false);
  });

  it('a pivot that would swing the base off the table is refused: the move ends before it', () => {
    // Hard against the left edge heading north, a starboard pivot about the front-right corner
    // swings the stern out past x = 0; a port pivot about the front-left corner does not.
    const m = placed(card('unknown.tengu'), 0.76, 10, 0);
    const out: Pose = { x: 0, y: 0, heading: 0 };
    const r = followCapitalMove(m, { x: 0.76, y: 10, heading: 0 }, { pre: 2, turn1: 45, mid: 3, turn2: 0, post: 0 }, 48, 48, out);
    expect(r).toEqual({ travelled: 2, clamped: true });
    expect(out.x).toBeCloseTo(0.76, 9);
    expect(out.y).toBeCloseTo(12, 9);
    expect(out.heading).toBe(0);
    // The port pivot is fine; the 3" leg towards the edge is then clamped a little after it.
    const q = followCapitalMove(m, { x: 0.76, y: 10, heading: 0 }, { pre: 2, turn1: -45, mid: 3, turn2: 0, post: 0 }, 48, 48, out);
    expect(q.clamped).toBe(true);
    expect(q.travelled).toBeGreaterThan(2);
    expect(q.travelled).toBeLessThan(2.1);
    expect(out.heading).toBeCloseTo(315, 9);
  });
});

describe('legalEnd: where a normal move may end (§6.1, §6.3, GM-14)', () => {
  // Capital ship (Tengu, 2" x 1.5") at (10, 10) heading 0: x in [9.25, 10.75], y in [9, 11].
  // A squadron hex is 1" across the flats, flats parallel to x: directly above at
  // y = 11.5 + gap its bottom flat is `gap` from the ship's front edge.
  const cap = () => placed(card('unknown.tengu'), 10, 10, 0, 0, 0);
  const sqd = (x: number, y: number, side: 0 | 1 = 0, index = 1) => placed(card('jovian.pathfinder'), x, y, 0, side, index);
  const at = (x: number, y: number): Pose => ({ x, y, heading: 0 });

  it('the constructed gaps are what the geometry measures', () => {
    const c = cap();
    for (const gap of [0, 0.5, 0.99, 1]) expect(separation(sqd(10, 11.5 + gap).base, c.base)).toBeCloseTo(gap, 9);
  });

  it('no model may end touching or overlapping another base, in either version', () => {
    for (const br of [V121, V122]) {
      const c = cap();
      const s = sqd(30, 30);
      expect(legalEnd(br, s, at(10, 11.5), [c, s], 48, 48)).toBe(false); // touching a capital ship
      expect(legalEnd(br, s, at(10, 11.2), [c, s], 48, 48)).toBe(false); // overlapping it
      const friend = sqd(20, 20, 0, 2);
      expect(legalEnd(br, s, at(20, 21), [friend, s], 48, 48)).toBe(false); // touching a friendly squadron
      const other = placed(card('unknown.tengu'), 10, 14, 0, 1, 3);
      expect(legalEnd(br, other, at(10, 12), [c, other], 48, 48)).toBe(false); // capital touching capital
      expect(legalEnd(br, other, at(10, 12.01), [c, other], 48, 48)).toBe(true);
    }
  });

  it('v1.2.1: a squadron must end at least 1" from every capital ship (friendly or enemy)', () => {
    for (const side of [0, 1] as const) {
      const c = cap();
      c.side = side;
      const s = sqd(30, 30);
      expect(legalEnd(V121, s, at(10, 12), [c, s], 48, 48)).toBe(false); // 0.5"
      expect(legalEnd(V121, s, at(10, 12.49), [c, s], 48, 48)).toBe(false); // 0.99"
      expect(legalEnd(V121, s, at(10, 12.5), [c, s], 48, 48)).toBe(true); // exactly 1": far enough (GM-45)
    }
  });

  it('v1.2.1: a squadron must end at least 1" from enemy squadrons, but may end 0.5" from a friendly one', () => {
    const s = sqd(30, 30, 0, 1);
    const enemy = sqd(20, 20, 1, 2);
    const friend = sqd(20, 20, 0, 3);
    expect(legalEnd(V121, s, at(20, 21.5), [enemy, s], 48, 48)).toBe(false);
    expect(legalEnd(V121, s, at(20, 22), [enemy, s], 48, 48)).toBe(true);
    expect(legalEnd(V121, s, at(20, 21.5), [friend, s], 48, 48)).toBe(true);
  });

  it('v1.2.2: only the no-touch limit is left (GM-14)', () => {
    const c = cap();
    const s = sqd(30, 30, 0, 1);
    const enemy = sqd(20, 20, 1, 2);
    expect(legalEnd(V122, s, at(10, 12), [c, s], 48, 48)).toBe(true); // 0.5" from a capital ship
    expect(legalEnd(V122, s, at(10, 11.52), [c, s], 48, 48)).toBe(true); // 0.02"
    expect(legalEnd(V122, s, at(20, 21.5), [enemy, s], 48, 48)).toBe(true); // 0.5" from an enemy
    expect(legalEnd(V122, s, at(20, 21), [enemy, s], 48, 48)).toBe(false); // touching
  });

  it('a capital ship has no 1" spacing from squadrons, even in v1.2.1 (§6.1: only no contact)', () => {
    const s = sqd(10, 12, 1, 1);
    const c = placed(card('unknown.tengu'), 30, 30, 0, 0, 0);
    expect(legalEnd(V121, c, at(10, 10), [s, c], 48, 48)).toBe(true); // 0.5" from the squadron
  });

  it('the mover itself and models not on the table are ignored; off-table ends are illegal', () => {
    const s = sqd(10, 10);
    const gone = sqd(10, 12, 1, 2);
    gone.where = 'destroyed';
    expect(legalEnd(V121, s, at(10, 10.2), [s, gone], 48, 48)).toBe(true);
    expect(legalEnd(V121, s, at(10, 12), [s, gone], 48, 48)).toBe(true);
    expect(legalEnd(V122, s, at(0.2, 10), [s], 48, 48)).toBe(false);
    expect(legalEnd(V122, s, at(10, 47.7), [s], 48, 48)).toBe(false);
  });
});

describe('nearestLegal (GM-65 placement)', () => {
  it('returns the pose itself when it is already legal', () => {
    const s = placed(card('jovian.pathfinder'), 10, 10);
    expect(nearestLegal(V122, s, { x: 10, y: 10, heading: 0 }, [s], 48, 48, 3)).toEqual({ x: 10, y: 10, heading: 0 });
  });

  it('moves a squadron off a capital ship by about the least distance, with 1" spacing in v1.2.1', () => {
    const c = placed(card('unknown.tengu'), 10, 10, 0, 1, 0);
    const s = placed(card('jovian.pathfinder'), 30, 30, 0, 0, 1);
    // Start just above the ship's front edge, overlapping by 0.2".
    const p122 = nearestLegal(V122, s, { x: 10, y: 11.3, heading: 0 }, [c, s], 48, 48, 5)!;
    expect(p122).not.toBeNull();
    const d122 = Math.hypot(p122.x - 10, p122.y - 11.3);
    expect(d122).toBeGreaterThan(0.2 - 0.01);
    expect(d122).toBeLessThan(0.2 + 0.06); // 0.05" search steps
    const p121 = nearestLegal(V121, s, { x: 10, y: 11.3, heading: 0 }, [c, s], 48, 48, 5)!;
    const d121 = Math.hypot(p121.x - 10, p121.y - 11.3);
    expect(d121).toBeGreaterThan(1.2 - 0.01);
    expect(d121).toBeLessThan(1.2 + 0.06);
    s.base.set(p121.x, p121.y, 0);
    expect(separation(s.base, c.base)).toBeGreaterThanOrEqual(1 - GEOM_EPSILON);
  });

  it('returns null when nothing within the shift is legal', () => {
    const c = placed(card('unknown.poseidon'), 10, 10, 0, 1, 0);
    const s = placed(card('jovian.pathfinder'), 30, 30, 0, 0, 1);
    expect(nearestLegal(V121, s, { x: 10, y: 10, heading: 0 }, [c, s], 48, 48, 0.5)).toBeNull();
  });
});
