// The arc a direction lies in (BattleState.arcIndex, branch-free) against the plain branching form.
import { describe, expect, it } from 'vitest';
import { BattleState } from '../../../src/engine/battle/battleState.js';
import { openStream } from '../../../src/rng/stream.js';

/** The branching form: F (0) when f >= |st|, else R (3) when -f >= |st|, else S (2) for st > 0, P (1) otherwise. */
function arcOfDir(dx: number, dy: number, hx: number, hy: number): number {
  const f = dx * hx + dy * hy, st = dx * hy - dy * hx;
  const a = st < 0 ? -st : st;
  return f >= a ? 0 : -f >= a ? 3 : st > 0 ? 2 : 1;
}

describe('arcIndex', () => {
  it('names the arcs of a ship heading north (forward 0, 1): F ahead, S to starboard (east), R astern, P to port', () => {
    expect(BattleState.arcIndex(0, 5, 0, 1)).toBe(0);
    expect(BattleState.arcIndex(5, 0, 0, 1)).toBe(2);
    expect(BattleState.arcIndex(0, -5, 0, 1)).toBe(3);
    expect(BattleState.arcIndex(-5, 0, 0, 1)).toBe(1);
    // On the wedge lines (45 degrees off the bow or stern): F and R take them.
    expect(BattleState.arcIndex(5, 5, 0, 1)).toBe(0);
    expect(BattleState.arcIndex(-5, -5, 0, 1)).toBe(3);
  });

  it('agrees with the branching form everywhere, signed zeros and wedge lines included', () => {
    const values = [0, -0, 1, -1, 0.5, -0.5, Math.SQRT1_2, -Math.SQRT1_2, 3, -3];
    for (const dx of values) for (const dy of values) for (const hx of values) for (const hy of values) {
      expect(BattleState.arcIndex(dx, dy, hx, hy), `${dx} ${dy} ${hx} ${hy}`).toBe(arcOfDir(dx, dy, hx, hy));
    }
    const rng = openStream({ seed: 'arcs', experiment: 'arcIndex', purpose: 'test', chunk: 0 });
    for (let i = 0; i < 100_000; i++) {
      const h = rng.next() * 2 * Math.PI;
      const [dx, dy, hx, hy] = [rng.next() * 40 - 20, rng.next() * 40 - 20, Math.sin(h), Math.cos(h)];
      expect(BattleState.arcIndex(dx, dy, hx, hy)).toBe(arcOfDir(dx, dy, hx, hy));
    }
  });
});
