// Searches for where a squadron goes, checked against the plain searches, to the bit:
//   * contactPose (moving straight at a model until the bases touch: interception, bombing,
//     assault, squadron rams, landing), whose bisection is guided by where contact begins;
//   * Launch (GM-18), which turns down a spot beside the carrier before bisecting for it when
//     a third base certainly lies on it, and skips the clearance check when all are clear;
//   * nearestLegal for a squadron (Return to Base moves, GM-65 placement), which turns down
//     spots within the depth of an overlap found at an earlier spot without testing them.
import { describe, expect, it } from 'vitest';
import { GEOM_EPSILON, bearing, cosDeg, hypot, onTable, separationAbove, separationBelow, sinDeg } from '../../../src/engine/geometry.js';
import { baseAt, legalEnd, nearestLegal, type Pose } from '../../../src/engine/battle/movement.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { Battle, miniScenario, rules } from '../../helpers/battle.js';
import { prng } from '../../helpers/prng.js';

/** The search without shortcuts: a plain bisection to first contact, then the three checks. */
function plainContact(models: readonly BattleModel[], m: BattleModel, e: BattleModel, reach: number, W: number, H: number): Pose | null {
  const dx = e.base.x - m.base.x, dy = e.base.y - m.base.y, len = hypot(dx, dy);
  if (len < 1e-9) return null;
  let lo = Math.max(0, len - m.reach - e.reach - 0.01);
  if (lo > reach + 1e-9) return null;
  const ux = dx / len, uy = dy / len;
  let hi = len;
  for (let i = 0; i < 18; i++) {
    const t = (lo + hi) / 2;
    if (separationAbove(baseAt(m, { x: m.base.x + ux * t, y: m.base.y + uy * t, heading: 0 }), e.base, 0)) lo = t;
    else hi = t;
  }
  const b = baseAt(m, { x: m.base.x + ux * lo, y: m.base.y + uy * lo, heading: 0 });
  if (lo > reach + 1e-9 || !onTable(b, W, H)) return null;
  for (const o of models) if (o !== m && o !== e && o.where === 'table' && !separationAbove(b, o.base, GEOM_EPSILON)) return null;
  return { x: b.x, y: b.y, heading: 0 };
}

describe('contact spot of a straight squadron move', () => {
  it('is the plain search\'s, to the bit, in 3000 cluttered random layouts', () => {
    const battle = new Battle(
      rules('1.2.2'),
      miniScenario({ a: ['jovian.pathfinder', 'cega.wyvern', 'unknown.tengu'], b: ['jovian.alexander', 'cega.wyvern', 'jovian.pathfinder', 'unknown.tengu'] }),
    );
    const internals = battle as unknown as { contactPose(m: BattleModel, e: BattleModel, reach: number): Pose | null };
    const models = battle.models;
    for (const x of models) {
      x.reset();
      x.side = x.fleet;
      x.where = 'table';
    }
    const rnd = prng(2718);
    const squadrons = models.filter((x) => !x.unit.isCapital);
    const tally = { found: 0, blocked: 0, other: 0 };
    for (let k = 0; k < 3000; k++) {
      // Everything within a few inches of the middle (or of an edge), so that third bases
      // often lie on or beside the line of approach, and the spot is sometimes off the table.
      const cx = k % 4 === 0 ? 1 + rnd() * 3 : 20 + rnd() * 8, cy = 20 + rnd() * 8;
      for (const x of models) x.base.set(cx + (rnd() - 0.5) * 10, cy + (rnd() - 0.5) * 10, k % 7 === 0 ? 90 * Math.floor(rnd() * 4) : rnd() * 360);
      for (const x of models) x.where = rnd() < 0.15 ? 'destroyed' : 'table';
      const m = squadrons[Math.floor(rnd() * squadrons.length)];
      m.where = 'table';
      m.base.set(m.base.x, m.base.y, 0);
      const others = models.filter((x) => x !== m);
      const e = others[Math.floor(rnd() * others.length)];
      e.where = 'table';
      const reach = rnd() < 0.2 ? Infinity : 2 + rnd() * 8;
      const want = plainContact(models, m, e, reach, 48, 48);
      const got = internals.contactPose(m, e, reach);
      expect(got).toEqual(want);
      if (want) tally.found++;
      else if (plainContact(models.filter((x) => x === m || x === e), m, e, reach, 48, 48)) tally.blocked++;
      else tally.other++;
    }
    // The layouts reach every answer often.
    expect(tally.found).toBeGreaterThan(300);
    expect(tally.blocked).toBeGreaterThan(300);
    expect(tally.other).toBeGreaterThan(100);
  });
});

/** Launch's spot without shortcuts: each direction bisected in full, then the two checks. */
function plainLaunchSpot(models: readonly BattleModel[], m: BattleModel, c: BattleModel, aim: number, W: number, H: number): Pose | null {
  for (let k = 0; k < 16; k++) {
    const dir = aim + (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 22.5;
    const ux = sinDeg(dir), uy = cosDeg(dir);
    let lo = 0, hi = c.reach + m.reach + 0.01;
    for (let i = 0; i < 20; i++) {
      const t = (lo + hi) / 2;
      if (separationBelow(baseAt(m, { x: c.base.x + ux * t, y: c.base.y + uy * t, heading: 0 }), c.base, 0)) lo = t;
      else hi = t;
    }
    const b = baseAt(m, { x: c.base.x + ux * hi, y: c.base.y + uy * hi, heading: 0 });
    if (!onTable(b, W, H)) continue;
    if (!models.every((o) => o === m || o === c || o.where !== 'table' || separationAbove(b, o.base, GEOM_EPSILON))) continue;
    return { x: b.x, y: b.y, heading: 0 };
  }
  return null;
}

describe('launch spot beside a carrier (GM-18)', () => {
  it('is the plain search\'s, to the bit, for 3 squadrons in each of 600 cluttered random layouts', () => {
    const battle = new Battle(
      rules('1.2.2'),
      miniScenario({ a: ['jovian.valiant', 'jovian.pathfinder', 'jovian.pathfinder', 'jovian.pathfinder', 'cega.wyvern'], b: ['unknown.tengu', 'cega.wyvern', 'jovian.pathfinder'] }),
    );
    const internals = battle as unknown as { launch(m: BattleModel, rec: null): boolean; nearestEnemies(m: BattleModel): BattleModel[] };
    const models = battle.models;
    const [carrier, ...rest] = models;
    const aboard = rest.slice(0, 3);
    const rnd = prng(1414);
    const tally = { first: 0, later: 0 };
    for (let k = 0; k < 600; k++) {
      for (const x of models) {
        x.reset();
        x.side = x.fleet;
        x.where = 'table';
      }
      const cx = k % 3 === 0 ? 2 + rnd() * 3 : 20 + rnd() * 8, cy = 20 + rnd() * 8;
      carrier.base.set(cx, cy, rnd() * 360);
      for (const x of rest) x.base.set(cx + (rnd() - 0.5) * 5, cy + (rnd() - 0.5) * 5, rnd() * 360);
      for (const x of aboard) {
        x.where = 'embarked';
        x.carrier = carrier;
      }
      for (const x of aboard) {
        const enemy = internals.nearestEnemies(carrier)[0] ?? null;
        const aim = enemy ? bearing(carrier.base.x, carrier.base.y, enemy.base.x, enemy.base.y) : carrier.base.heading;
        const want = plainLaunchSpot(models, x, carrier, aim, 48, 48);
        const launched = internals.launch(x, null);
        expect(launched).toBe(want !== null);
        if (want) expect([x.base.x, x.base.y, x.where]).toEqual([want.x, want.y, 'table']);
        else expect(x.where).toBe('embarked');
        if (!want) continue;
        if (x === aboard[0]) tally.first++;
        else tally.later++;
      }
    }
    expect(tally.first).toBeGreaterThan(200);
    expect(tally.later).toBeGreaterThan(300);
  });
});

describe('nearest legal spot for a squadron (Return to Base, GM-65)', () => {
  it('is the plain ring search\'s, to the bit, in 1500 cluttered random cases per version', () => {
    for (const version of ['1.2.1', '1.2.2'] as const) {
      const battle = new Battle(
        rules(version),
        miniScenario({ a: ['jovian.pathfinder', 'cega.wyvern', 'unknown.tengu', 'cega.wyvern'], b: ['jovian.alexander', 'cega.wyvern', 'jovian.pathfinder', 'cega.wyvern'] }),
      );
      const internals = battle as unknown as { br: Parameters<typeof nearestLegal>[0] };
      const models = battle.models;
      const rnd = prng(version === '1.2.1' ? 31 : 41);
      let far = 0;
      for (let k = 0; k < 1500; k++) {
        for (const x of models) {
          x.reset();
          x.side = x.fleet;
          x.where = rnd() < 0.1 ? 'destroyed' : 'table';
          x.base.set(18 + rnd() * 12, (k % 5 === 0 ? 1 : 18) + rnd() * 12, x.unit.isCapital ? rnd() * 360 : 0);
        }
        const squadrons = models.filter((x) => !x.unit.isCapital);
        const m = squadrons[Math.floor(rnd() * squadrons.length)];
        m.where = 'table';
        // Now and then a squadron rides on another model (Assaulting it): the legality test leaves it out.
        if (k % 7 === 0) squadrons[(squadrons.indexOf(m) + 1) % squadrons.length].assaulting = m;
        // Wanted beside m, or on top of another model (deep in a ship: long searches).
        const on = k % 2 === 0 ? m : models[Math.floor(rnd() * models.length)];
        const p: Pose = { x: on.base.x + (rnd() - 0.5) * 2, y: on.base.y + (rnd() - 0.5) * 2, heading: 0 };
        const maxShift = k % 3 === 0 ? 6 : 3 + rnd() * 4;
        // The plain search: every ring, every model, legalEnd's answer for each spot.
        const want = nearestLegal(internals.br, m, p, models, 48, 48, maxShift, (q) => legalEnd(internals.br, m, q, models, 48, 48));
        expect(nearestLegal(internals.br, m, p, models, 48, 48, maxShift)).toEqual(want);
        if (want && Math.hypot(want.x - p.x, want.y - p.y) > 0.5) far++;
      }
      expect(far).toBeGreaterThan(300);
    }
  });
});
