// squadronSpotTest sizes its discs of ruled-out spots with closedFormSeparation (geometry.ts), a
// closed form for a squadron's hexagon against another hexagon or, overlapping, a capital
// ship's rectangle. A disc may rule out only spots legalEnd turns down, with 1e-9 in hand, so
// closedFormSeparation must agree with geometry's separation far inside that margin.
import { describe, expect, it } from 'vitest';
import { capitalBase, closedFormSeparation, separation, squadronBase } from '../../src/engine/geometry.js';
import { prng } from '../helpers/prng.js';

describe('closedFormSeparation: separation by closed forms', () => {
  it('agrees with separation for hexagons and for hexagons against rectangles', () => {
    const rnd = prng(22);
    for (let i = 0; i < 20000; i++) {
      const a = squadronBase(rnd() * 10, rnd() * 10, 'hex', 0.5 + rnd());
      const hex = squadronBase(a.x + (rnd() - 0.5) * 5, a.y + (rnd() - 0.5) * 5, 'hex', 0.5 + rnd());
      expect(Math.abs(closedFormSeparation(a, hex) - separation(a, hex))).toBeLessThan(1e-12);
      const heading = i % 7 === 0 ? 45 * (i % 8) : rnd() * 360;
      const rect = capitalBase(a.x + (rnd() - 0.5) * 6, a.y + (rnd() - 0.5) * 6, heading, 1 + 3 * rnd(), 0.5 + 2 * rnd());
      expect(Math.abs(closedFormSeparation(a, rect) - separation(a, rect))).toBeLessThan(1e-12);
    }
  });
});
