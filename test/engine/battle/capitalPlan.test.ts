// The capital move menu's shared-step plan (movement.ts: capitalPlan, followPlan, planMove)
// must give, for every move of every menu, exactly what followCapitalMove gives for that move
// alone: the same end pose to the bit, the same distance travelled, the same clamped flag, near
// the table's edges and corners included. Battles read menus only through the plan, so any
// difference would change results silently.
import { describe, expect, it } from 'vitest';
import { capitalPlan, followCapitalMove, followPlan, planMove, type MoveLimits, type Pose } from '../../../src/engine/battle/movement.js';
import { card, placed } from '../../helpers/battle.js';
import { prng } from '../../helpers/prng.js';

const LIMITS: MoveLimits[] = [
  { min: 4, max: 8, turns: 1 },
  { min: 3, max: 9, turns: 2 },
  { min: 0, max: 3, turns: 2 },
  { min: 6, max: 6, turns: 1 },
  { min: 5, max: 12, turns: 2, sluggish: true },
  { min: 2, max: 10, turns: 0 },
];

describe('capitalPlan: every move as followCapitalMove takes it', () => {
  for (const id of ['unknown.tengu', 'jovian.alexander', 'venus.shan-yu', 'unknown.poseidon']) {
    for (const centre of [false, true]) {
      it(`${id}, pivot on ${centre ? 'centre' : 'front corner'}: same poses, travel and clamping on and near the edges`, () => {
        const next = prng(id.length * 7 + (centre ? 1 : 0));
        const W = 48, H = 36;
        const a: Pose = { x: 0, y: 0, heading: 0 }, b: Pose = { x: 0, y: 0, heading: 0 };
        let moves = 0, clamped = 0;
        for (let trial = 0; trial < 60; trial++) {
          // The whole base on the table, as every ship that moves is; half the poses within 6"
          // of an edge, so that clamping and pivots off the table occur.
          const r = placed(card(id), 0, 0).reach;
          const x = r + (trial % 2 ? next() * (W - 2 * r) : next() < 0.5 ? next() * 6 : W - 2 * r - next() * 6);
          const y = r + (trial % 2 ? next() * (H - 2 * r) : next() < 0.5 ? next() * 6 : H - 2 * r - next() * 6);
          const heading = Math.floor(next() * 8) * 45 + (trial % 3 === 0 ? next() * 360 : 0);
          const m = placed(card(id), x, y, heading % 360);
          const from: Pose = { x: m.base.x, y: m.base.y, heading: m.base.heading };
          for (const lim of LIMITS) {
            const plan = capitalPlan(lim);
            followPlan(m, from, plan, centre);
            for (let i = 0; i < plan.moves.length; i++) {
              for (const noted of [false, true]) {
                const ra = planMove(m, plan, i, W, H, a, noted);
                const ta = ra.travelled, ca = ra.clamped;
                const rb = followCapitalMove(m, from, plan.moves[i], W, H, b, centre, noted);
                // A clamp only noted drops the move: its pose is left unspecified, only the answer counts.
                if (noted && rb.clamped) expect([ta, ca]).toStrictEqual([rb.travelled, rb.clamped]);
                else expect([a.x, a.y, a.heading, ta, ca]).toStrictEqual([b.x, b.y, b.heading, rb.travelled, rb.clamped]);
                moves++;
                if (rb.clamped) clamped++;
              }
            }
          }
        }
        // The poses did reach the edges: some moves were clamped, most were not.
        expect(clamped).toBeGreaterThan(50);
        expect(clamped).toBeLessThan(moves / 2);
      });
    }
  }
});
