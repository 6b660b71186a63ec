// GM-15 clamping: a capital move that would take the base off the table stops at the last
// point where the whole base is still on it. followCapitalMove finds that point by a guided
// bisection; these tests hold it to a plain bisection on the same predicate, bit for bit.
import { describe, expect, it } from 'vitest';
import { capitalBase, cosDeg, onTable, sinDeg } from '../../../src/engine/geometry.js';
import { followCapitalMove, type Pose } from '../../../src/engine/battle/movement.js';
import { card, placed } from '../../helpers/battle.js';

describe('clamped capital moves (GM-15)', () => {
  it('stop where a plain bisection of "wholly on the table" stops, to the bit, in 600 random runs at the edges', () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const W = 48, H = 36;
    let clamped = 0;
    for (const id of ['jovian.alexander', 'unknown.tengu', 'jovian.valiant']) {
      const m = placed(card(id), 0, 0);
      for (let k = 0; k < 200; k++) {
        // A start near an edge, on the table, heading anywhere (also exactly along the axes).
        const heading = k % 5 === 0 ? 90 * Math.floor(rnd() * 4) : rnd() * 360;
        const from: Pose = { x: 3 + rnd() * (W - 6), y: 3 + rnd() * (H - 6), heading };
        if (!onTable(capitalBase(from.x, from.y, heading, m.base.length, m.base.width), W, H)) continue;
        const d = 2 + rnd() * 30;
        const out: Pose = { x: 0, y: 0, heading: 0 };
        const r = followCapitalMove(m, from, { pre: d, turn1: 0, mid: 0, turn2: 0, post: 0 }, W, H, out);
        const ux = sinDeg(heading), uy = cosDeg(heading);
        const on = (t: number) => onTable(capitalBase(from.x + t * ux, from.y + t * uy, heading, m.base.length, m.base.width), W, H);
        if (on(d)) {
          expect(r.clamped).toBe(false);
          continue;
        }
        let lo = 0, hi = d;
        for (let i = 0; i < 20; i++) {
          const t = (lo + hi) / 2;
          if (on(t)) lo = t;
          else hi = t;
        }
        expect(r).toEqual({ travelled: lo, clamped: true });
        expect([out.x, out.y, out.heading]).toEqual([from.x + lo * ux, from.y + lo * uy, heading]);
        expect(on(lo)).toBe(true);
        clamped++;
      }
    }
    expect(clamped).toBeGreaterThan(200);
  });
});
