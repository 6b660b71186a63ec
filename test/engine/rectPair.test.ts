// separationAbove / separationBelow for two rectangles (capital ships), whose SAT gap is
// worked out from the headings without the outlines: the answers must be separation's, at any
// heading, apart, near contact and overlapping, for thresholds near and far from it.
import { describe, expect, it } from 'vitest';
import { GEOM_EPSILON, capitalBase, separation, separationAbove, separationBelow } from '../../src/engine/geometry.js';
import { prng } from '../helpers/prng.js';

describe('separationAbove and separationBelow, two rectangles', () => {
  it('agree with separation at any heading and distance', () => {
    const r = prng(99);
    for (let i = 0; i < 30000; i++) {
      const h1 = r() < 0.5 ? Math.floor(r() * 8) * 45 : r() * 360, h2 = r() < 0.5 ? Math.floor(r() * 8) * 45 : r() * 360;
      const a = capitalBase(30, 30, h1, 1 + r() * 5, 0.5 + r() * 2.5);
      const d = r() * 9, ang = r() * 2 * Math.PI;
      const b = capitalBase(30 + d * Math.cos(ang), 30 + d * Math.sin(ang), h2, 1 + r() * 5, 0.5 + r() * 2.5);
      const sep = separation(a, b);
      for (const t of [sep, sep - 1e-9, sep + 1e-9, sep - 1e-6, sep + 1e-6, sep * 1.3, sep * 0.75, sep - 0.3, sep + 0.3, -GEOM_EPSILON, 0, GEOM_EPSILON, 1, 3]) {
        // The message is built only for a mismatch: a JSON string per check was most of the test's time.
        if (separationAbove(a, b, t) !== sep > t) expect(separationAbove(a, b, t), JSON.stringify([a, b, t])).toBe(sep > t);
        if (separationBelow(a, b, t) !== sep < t) expect(separationBelow(a, b, t), JSON.stringify([a, b, t])).toBe(sep < t);
      }
    }
  });
});
