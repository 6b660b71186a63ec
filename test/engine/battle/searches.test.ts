// The engine's searches that skip work must land where the plain searches land, to the bit.
// GM-15 clamping: a capital move that would take the base off the table stops at the last
// point where the whole base is still on it; followCapitalMove finds it by a guided bisection.
// GM-65 placement: nearestLegal spirals out from a spot, skipping the rings that are certainly
// too close to some model.
import { describe, expect, it } from 'vitest';
import { capitalBase, cosDeg, onTable, sinDeg } from '../../../src/engine/geometry.js';
import { followCapitalMove, legalEnd, nearestLegal, type Pose } from '../../../src/engine/battle/movement.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { brOf, card, placed } from '../../helpers/battle.js';

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

describe('nearest legal spot (GM-65)', () => {
  it('is the spot a full spiral of legalEnd checks finds first, in 500 cluttered random cases per version', () => {
    let seed = 9;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let far = 0;
    for (const version of ['1.2.1', '1.2.2'] as const) {
      const br = brOf(version);
      for (let k = 0; k < 500; k++) {
        // Two ships and a few squadrons around the middle; the squadron to place is wanted
        // somewhere among them, often deep inside a ship.
        const others: BattleModel[] = [
          placed(card('jovian.alexander'), 24 + rnd() * 4, 24 + rnd() * 4, rnd() * 360, 1, 0),
          placed(card('unknown.tengu'), 20 + rnd() * 8, 20 + rnd() * 8, rnd() * 360, 0, 1),
        ];
        for (let i = 0; i < 4; i++) others.push(placed(card('cega.wyvern'), 18 + rnd() * 12, 18 + rnd() * 12, 0, (i % 2) as 0 | 1, 2 + i));
        const m = placed(card('jovian.pathfinder'), 0, 0, 0, 0, 9);
        const p: Pose = { x: 22 + rnd() * 6, y: 22 + rnd() * 6, heading: 0 };
        const all = [m, ...others];
        let want: Pose | null = legalEnd(br, m, p, all, 48, 48) ? { ...p } : null;
        if (!want) {
          search: for (let r = 0.05; r <= 6 + 1e-9; r += 0.05) {
            for (let b = 0; b < 360; b += 10) {
              const q = { x: p.x + r * sinDeg(b), y: p.y + r * cosDeg(b), heading: 0 };
              if (legalEnd(br, m, q, all, 48, 48)) {
                want = q;
                break search;
              }
            }
          }
        }
        const got = nearestLegal(br, m, p, all, 48, 48, 6);
        expect(got).toEqual(want);
        if (want && Math.hypot(want.x - p.x, want.y - p.y) > 1) far++;
      }
    }
    expect(far).toBeGreaterThan(100); // many searches had to go well out: the skipped rings were exercised
  });
});
