// Table geometry (game.md §3.7 GM-45–GM-47, combat.md §3.2–§3.3): the GEO-xx vectors of
// game.md §14, the geometric parts of DEP-01 / DEP-05, and properties.
import { describe, expect, it } from 'vitest';
import {
  type Base,
  GEOM_EPSILON,
  atLeast,
  baseInRect,
  bearing,
  capitalBase,
  capitalBaseSize,
  cosDeg,
  distance,
  hypot,
  hypotAtLeast,
  BISECTED,
  guidedBisection,
  overlapSpan,
  loadVertices,
  markerPoint,
  nearestPoint,
  onTable,
  overlapping,
  pointDistance,
  pointWithin,
  separation,
  separationAbove,
  segmentDistance,
  segmentWithin,
  separationBelow,
  sinDeg,
  squadronBase,
  touching,
  trigInto,
  within,
} from '../../src/engine/geometry.js';
import { DEFENDER_FAVOUR, type FacingArc, arcOfPoint, aspect, baseInArc, canBear, contactInArc, headOn, longRangeMax, pointInArc, rangeBand } from '../../src/engine/geometryArcs.js';
import { RULES_VERSIONS } from '../../src/rules/registry.js';

const R121 = RULES_VERSIONS['1.2.1'].data.combat;
import { UserError } from '../../src/errors.js';
import { prng } from '../helpers/prng.js';

const ARCS: readonly FacingArc[] = ['F', 'P', 'S', 'R'];
const arcsHolding = (ship: Base, target: Base): FacingArc[] => ARCS.filter((a) => baseInArc(ship, a, target));

function randomBase(r: () => number, spread = 6): Base {
  const x = 20 + r() * spread, y = 20 + r() * spread;
  const k = r();
  if (k < 0.45) return capitalBase(x, y, r() * 360, 1 + r() * 3, 0.5 + r() * 2);
  if (k < 0.75) return squadronBase(x, y, 'hex');
  if (k < 0.95) return squadronBase(x, y, 'circle');
  return markerPoint(x, y);
}

/** Points along a base's outline (or the base itself for a point). */
function outline(b: Base, perEdge = 400): Array<[number, number]> {
  if (b.shape === 'point') return [[b.x, b.y]];
  if (b.shape === 'circle') {
    return Array.from({ length: perEdge * 4 }, (_, i) => {
      const t = (2 * Math.PI * i) / (perEdge * 4);
      return [b.x + (b.width / 2) * Math.cos(t), b.y + (b.width / 2) * Math.sin(t)] as [number, number];
    });
  }
  const v = new Float64Array(12);
  const n = loadVertices(b, v);
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    for (let k = 0; k < perEdge; k++) {
      const t = k / perEdge;
      pts.push([v[2 * i] + t * (v[2 * j] - v[2 * i]), v[2 * i + 1] + t * (v[2 * j + 1] - v[2 * i + 1])]);
    }
  }
  return pts;
}

function bruteOutlineDistance(a: Base, b: Base): number {
  const pa = outline(a, 60), pb = outline(b, 60);
  let best = Infinity;
  for (const [x0, y0] of pa) for (const [x1, y1] of pb) best = Math.min(best, Math.hypot(x1 - x0, y1 - y0));
  return best;
}

function rotateAbout(b: Base, cx: number, cy: number, deg: number): Base {
  const t = (-deg * Math.PI) / 180; // compass clockwise = mathematical negative
  const dx = b.x - cx, dy = b.y - cy;
  return { ...b, x: cx + dx * Math.cos(t) - dy * Math.sin(t), y: cy + dx * Math.sin(t) + dy * Math.cos(t), heading: b.heading + deg };
}

describe('game.md geometry vectors (GEO-xx)', () => {
  it('GEO-01: two ships heading 0 at (10,10) and (10,14) are 2.0" apart (front edge y=11 to rear edge y=13)', () => {
    const a = capitalBase(10, 10, 0), b = capitalBase(10, 14, 0);
    expect(distance(a, b)).toBeCloseTo(2, 12);
    expect(distance(b, a)).toBeCloseTo(2, 12);
    expect(touching(a, b)).toBe(false);
    expect(overlapping(a, b)).toBe(false);
  });

  it('GEO-02: ship at (10,10) heading 0 to a squadron at (12,10): hex 0.673", circle 0.75"; squadron at (10,13): 1.5" either shape', () => {
    const ship = capitalBase(10, 10, 0);
    expect(distance(ship, squadronBase(12, 10, 'hex'))).toBeCloseTo(12 - 1 / Math.sqrt(3) - 10.75, 12);
    expect(distance(ship, squadronBase(12, 10, 'hex'))).toBeCloseTo(0.673, 3);
    expect(distance(ship, squadronBase(12, 10, 'circle'))).toBeCloseTo(0.75, 12);
    expect(distance(ship, squadronBase(10, 13, 'hex'))).toBeCloseTo(1.5, 12);
    expect(distance(ship, squadronBase(10, 13, 'circle'))).toBeCloseTo(1.5, 12);
  });

  it('GEO-03: a squadron centred on the F/S dividing ray is a legal target for F and for S weapons, not P or R', () => {
    const ship = capitalBase(24, 24, 0), sq = squadronBase(29, 29);
    expect(bearing(24, 24, 29, 29)).toBeCloseTo(45, 12);
    expect(arcsHolding(ship, sq).sort()).toEqual(['F', 'S']);
    expect(canBear(ship, 'F', sq)).toBe(true);
    expect(canBear(ship, 'S', sq)).toBe(true);
    expect(canBear(ship, 'P', sq)).toBe(false);
    // Its centre is on the ray; as an aspect point it counts for F, the defender's favourite.
    expect(arcOfPoint(ship, 29, 29)).toBe('F');
  });

  it('GEO-04: a squadron centred (21,14), bearing 196.7 from the ship at (24,24), is inside the R arc only', () => {
    const ship = capitalBase(24, 24, 0), sq = squadronBase(21, 14);
    expect(bearing(24, 24, 21, 14)).toBeCloseTo(196.7, 1);
    expect(arcsHolding(ship, sq)).toEqual(['R']);
    expect(arcsHolding(ship, squadronBase(21, 14, 'circle'))).toEqual(['R']);
  });

  it('GEO-05: Valiant (21.75,20) heading 270 rams Tengu (20,20) heading 0: touch on x=20.75, front-arc contact, struck arc S, not head-on', () => {
    const tengu = capitalBase(20, 20, 0), valiant = capitalBase(21.75, 20, 270);
    expect(touching(tengu, valiant)).toBe(true);
    expect(overlapping(tengu, valiant)).toBe(false);
    expect(distance(tengu, valiant)).toBe(0);
    // The touching segment x = 20.75, y 19.25–20.75, lies in the Valiant's F wedge (GM-73).
    for (const y of [19.25, 20, 20.75]) expect(pointInArc(valiant, 'F', 20.75, y)).toBe(true);
    expect(contactInArc(valiant, 'F', tengu)).toBe(true);
    expect(contactInArc(valiant, 'S', tengu)).toBe(false);
    // Struck arc (GM-47/GM-80): Valiant point nearest the Tengu's centre is (20.75,20), bearing 90.
    const p = [0, 0];
    nearestPoint(valiant, 20, 20, p);
    expect(p).toEqual([20.75, 20]);
    expect(bearing(20, 20, p[0], p[1])).toBe(90);
    expect(aspect(valiant, tengu)).toBe('S');
    // The Tengu is in the Valiant's F arc; the Valiant is not in the Tengu's (by GM-47): not head-on.
    expect(aspect(tengu, valiant)).toBe('F');
    expect(headOn(valiant, tengu)).toBe(false);
    expect(headOn(tengu, valiant)).toBe(false);
    // Weapon-arc test (GM-46) is looser: the Valiant's corner (20.75,20.75) sits on the Tengu's F/S ray.
    expect(baseInArc(valiant, 'F', tengu)).toBe(true);
    expect(baseInArc(tengu, 'F', valiant)).toBe(true);
    expect(baseInArc(tengu, 'S', valiant)).toBe(true);
  });

  it('GEO-06: Tengu (20,20) heading 90 and Valiant (22,20) heading 270 touch on x=21, each in the other\'s F arc: head-on', () => {
    const tengu = capitalBase(20, 20, 90), valiant = capitalBase(22, 20, 270);
    expect(touching(tengu, valiant)).toBe(true);
    expect(overlapping(tengu, valiant)).toBe(false);
    expect(aspect(valiant, tengu)).toBe('F');
    expect(aspect(tengu, valiant)).toBe('F');
    expect(headOn(valiant, tengu)).toBe(true);
    expect(contactInArc(valiant, 'F', tengu)).toBe(true);
    expect(contactInArc(tengu, 'F', valiant)).toBe(true);
  });
});

describe('other game.md vectors with a geometric part', () => {
  it('DEP-01: beacons at (10,10)/(18,14) are 8.94" apart (closer than 12"); (10,10)/(22,10) are exactly 12" (far enough)', () => {
    const a = markerPoint(10, 10);
    expect(distance(a, markerPoint(18, 14))).toBeCloseTo(8.944, 3);
    expect(atLeast(distance(a, markerPoint(18, 14)), 12)).toBe(false);
    expect(atLeast(distance(a, markerPoint(22, 10)), 12)).toBe(true);
    expect(within(distance(a, markerPoint(22, 10)), 12)).toBe(true);
  });

  it('DEP-05: zone 0 <= y <= 12, ship heading 0: centre (20,11.5) is out (front edge 12.5), centre (20,11) is in (front edge 12)', () => {
    expect(baseInRect(capitalBase(20, 11.5, 0), 0, 0, 48, 12)).toBe(false);
    expect(baseInRect(capitalBase(20, 11, 0), 0, 0, 48, 12)).toBe(true);
  });
});

describe('bases and frame (GM-37, GM-45)', () => {
  it('headings are compass-style: 0 = +y, 90 = +x, clockwise', () => {
    expect(bearing(0, 0, 0, 5)).toBe(0);
    expect(bearing(0, 0, 5, 0)).toBe(90);
    expect(bearing(0, 0, 0, -5)).toBe(180);
    expect(bearing(0, 0, -5, 0)).toBe(270);
    const v = new Float64Array(12);
    loadVertices(capitalBase(0, 0, 90, 2, 1.5), v); // length along +x now
    const xs = [v[0], v[2], v[4], v[6]], ys = [v[1], v[3], v[5], v[7]];
    expect(Math.max(...xs)).toBe(1);
    expect(Math.max(...ys)).toBe(0.75);
    expect(v[0]).toBe(1); // vertex 0 is front-right: front at +x, starboard at -y
    expect(v[1]).toBe(-0.75);
  });

  it('the squadron hex never rotates: vertices at (x +- 1/sqrt3, y), flats at y +- 0.5, heading ignored', () => {
    const v = new Float64Array(12);
    for (const heading of [0, 17, 90, 200]) {
      const n = loadVertices({ ...squadronBase(5, 5), heading }, v);
      expect(n).toBe(6);
      expect(v[0]).toBeCloseTo(5 + 1 / Math.sqrt(3), 12);
      expect(v[1]).toBe(5);
      expect(v[6]).toBeCloseTo(5 - 1 / Math.sqrt(3), 12);
      expect(v[3]).toBe(5.5); // top side, parallel to the x axis
      expect(v[5]).toBe(5.5);
      expect(v[9]).toBe(4.5);
      expect(v[11]).toBe(4.5);
      expect(distance(capitalBase(5, 8, 0), { ...squadronBase(5, 5), heading })).toBeCloseTo(1.5, 12);
    }
  });

  it('GM-37: base size from the data; default 2 x 1.5 (flagged) for Structure <= 2; error for larger ships', () => {
    expect(capitalBaseSize({ id: 'a', structure: 5, base: { lengthIn: 3, widthIn: 1 } })).toEqual({ length: 3, width: 1, defaulted: false });
    expect(capitalBaseSize({ id: 'b', structure: 2, base: null })).toEqual({ length: 2, width: 1.5, defaulted: true });
    expect(() => capitalBaseSize({ id: 'c', structure: 3, base: null })).toThrow(UserError);
  });

  it('a base is on the table only when wholly inside it (edges inclusive)', () => {
    expect(onTable(capitalBase(0.75, 1, 0))).toBe(true);
    expect(onTable(capitalBase(0.7, 1, 0))).toBe(false);
    expect(onTable(capitalBase(1, 0.75, 90))).toBe(true);
    expect(onTable(capitalBase(46.7, 46.7, 45))).toBe(true); // half-extent (1 + 0.75) / sqrt 2 = 1.237
    expect(onTable(capitalBase(46.8, 46.8, 45))).toBe(false);
    expect(onTable(squadronBase(1 / Math.sqrt(3), 0.5))).toBe(true);
    expect(onTable(squadronBase(0.5, 0.5))).toBe(false);
    expect(onTable(squadronBase(0.5, 0.5, 'circle'))).toBe(true);
    expect(onTable(markerPoint(48, 0))).toBe(true);
    expect(onTable(markerPoint(48.01, 0))).toBe(false);
    expect(onTable(capitalBase(10, 10, 0), 10.5, 10.5)).toBe(false);
  });

  it('point-to-base distance: 0 inside, distance to the nearest edge outside', () => {
    const ship = capitalBase(10, 10, 0);
    expect(pointDistance(10, 10, ship)).toBe(0);
    expect(pointDistance(10, 13, ship)).toBe(2);
    expect(pointDistance(12.75, 13, ship)).toBeCloseTo(Math.hypot(2, 2), 12);
    expect(pointDistance(13, 10, squadronBase(10, 10, 'circle'))).toBe(2.5);
    expect(pointDistance(10, 12, squadronBase(10, 10))).toBeCloseTo(1.5, 12);
    expect(distance(markerPoint(10, 13), ship)).toBe(2);
  });
});

describe('compass sin and cos', () => {
  it('are exact at multiples of 90 degrees and agree with Math.sin/cos elsewhere, from the table, the memo or fresh', () => {
    for (const [d, s, c] of [[0, 0, 1], [90, 1, 0], [180, 0, -1], [270, -1, 0], [-90, -1, 0], [450, 1, 0], [-720, 0, 1]]) {
      expect([sinDeg(d), cosDeg(d)]).toEqual([s, c]);
    }
    const angles: number[] = [];
    for (let d = -900; d <= 900; d += 0.37) angles.push(d, Math.round(d));
    angles.push(33.69006752597979, 1e6 + 0.5, -1e-9);
    for (let pass = 0; pass < 2; pass++) {
      for (const d of angles) {
        const r = (d * Math.PI) / 180;
        expect(Math.abs(sinDeg(d) - Math.sin(r)), `sin ${d}`).toBeLessThan(1e-9);
        expect(Math.abs(cosDeg(d) - Math.cos(r)), `cos ${d}`).toBeLessThan(1e-9);
      }
    }
    // The same angle gives the same bits however it is reached (table or memo hit, or miss).
    expect(sinDeg(12.5)).toBe(sinDeg(12.5 + 0));
    expect(cosDeg(-33.25)).toBe(cosDeg(-33.25));
  });

  it('trigInto writes the very numbers sinDeg and cosDeg give, from the table, the memo, on a memo miss and for NaN', () => {
    const s = new Float64Array(4), c = new Float64Array(4);
    // Whole degrees in and beyond the table's span, fractions (memo hits and misses: 0.37 steps
    // share memo slots), a huge angle and NaN. Each angle is asked twice, so the second read
    // finds the slot the first one filled.
    const angles = [0, 45, -135, 720, -720, 721, 1e6, 12.5, -33.25, 33.69006752597979, 1e6 + 0.5, -1e-9, NaN];
    for (let d = -400; d <= 400; d += 0.37) angles.push(d);
    for (const d of angles) {
      for (let pass = 0; pass < 2; pass++) {
        trigInto(d, s, c, 2);
        expect(Object.is(s[2], sinDeg(d)), `sin ${d}`).toBe(true);
        expect(Object.is(c[2], cosDeg(d)), `cos ${d}`).toBe(true);
      }
      // Only slot 2 is written.
      expect([s[1], c[1], s[3], c[3]]).toEqual([0, 0, 0, 0]);
    }
  });
});

describe('hypotAtLeast', () => {
  it('answers exactly as Math.hypot(dx, dy) >= d, also at and a hair either side of the threshold', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 96 - 48;
    let near = 0;
    for (let i = 0; i < 20000; i++) {
      const dx = rnd(), dy = rnd();
      const h = Math.hypot(dx, dy);
      // Thresholds far off, within a few ulps, and exactly at hypot's own value.
      for (const d of [Math.abs(rnd()), h, h * (1 + 1e-15), h * (1 - 1e-15), h + 1e-12, h - 1e-12, 12 - 1e-6]) {
        if (Math.abs(d - h) < 1e-9 * h) near++;
        expect(hypotAtLeast(dx, dy, d), `${dx}, ${dy}, ${d}`).toBe(h >= d);
      }
    }
    expect(near).toBeGreaterThan(50_000); // the near-threshold cases the fallback decides were exercised
    expect(hypotAtLeast(3, 4, 5)).toBe(true);
    expect(hypotAtLeast(3, 4, 5 + 1e-12)).toBe(false);
  });
});

describe('hypot', () => {
  it('is Math.hypot(x, y) to the bit: table distances, tiny and huge magnitudes, zeros, infinities, NaN', () => {
    let seed = 13;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const special = [0, -0, 1, -1, 3, 4, 0.1, 48, Infinity, -Infinity, NaN, Number.MIN_VALUE, 1e-310, Number.MAX_VALUE, 1e308];
    const pairs: Array<[number, number]> = [];
    for (const a of special) for (const b of special) pairs.push([a, b]);
    for (let i = 0; i < 200_000; i++) {
      const scale = i % 3 === 0 ? 100 : i % 3 === 1 ? 10 ** (rnd() * 40 - 20) : 10 ** (rnd() * 600 - 300);
      pairs.push([(rnd() - 0.5) * scale, (rnd() - 0.5) * scale]);
    }
    let differ = 0;
    for (const [x, y] of pairs) if (!Object.is(hypot(x, y), Math.hypot(x, y))) differ++;
    expect(differ).toBe(0);
  });
});

describe('pointWithin', () => {
  it('answers exactly as pointDistance(px, py, base) <= r, also a hair either side of r, for every base shape', () => {
    let seed = 17;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const bases: Base[] = [capitalBase(24, 24, 0, 4, 2), capitalBase(24, 24, 45, 6.5, 2.25), capitalBase(24, 24, 137.3), squadronBase(24, 24), squadronBase(24, 24, 'circle'), markerPoint(24, 24)];
    let near = 0;
    for (let i = 0; i < 60_000; i++) {
      const b = bases[i % bases.length];
      const r = i % 2 === 0 ? 3 + GEOM_EPSILON : rnd() * 5;
      const a = rnd() * 2 * Math.PI, d = rnd() * (r + 8);
      const px = 24 + d * Math.sin(a), py = 24 + d * Math.cos(a);
      const exact = pointDistance(px, py, b);
      for (const rr of [r, exact, exact * (1 + 1e-15), exact * (1 - 1e-15), exact + 1e-12, exact - 1e-12]) {
        if (Math.abs(rr - exact) < 1e-9) near++;
        expect(pointWithin(px, py, b, rr), `${b.shape} ${px}, ${py}, ${rr}`).toBe(exact <= rr);
      }
    }
    expect(near).toBeGreaterThan(100_000);
  });
});

describe('contact searches guided by overlapSpan', () => {
  let seed = 11;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const plain = (lo: number, hi: number, steps: number, test: (t: number) => boolean): [number, number] => {
    for (let i = 0; i < steps; i++) {
      const t = (lo + hi) / 2;
      if (test(t)) lo = t;
      else hi = t;
    }
    return [lo, hi];
  };

  it('overlapSpan brackets exactly the t where a moving polygon overlaps another', () => {
    const span = new Float64Array(2);
    let checked = 0;
    for (let k = 0; k < 300; k++) {
      const ship = capitalBase(24, 24, rnd() * 360, 1 + rnd() * 4, 0.5 + rnd() * 2);
      const a = rnd() * 360, r = 3 + rnd() * 6;
      const sq = squadronBase(24 + r * Math.sin(a), 24 + r * Math.cos(a));
      const ux = (24 - sq.x) / r, uy = (24 - sq.y) / r;
      expect(overlapSpan(sq, ux, uy, ship, span)).toBe(true);
      for (const t of [span[0] - 1e-6, span[0] + 1e-6, (span[0] + span[1]) / 2, span[1] - 1e-6, span[1] + 1e-6]) {
        const moved = squadronBase(sq.x + ux * t, sq.y + uy * t);
        expect(separation(moved, ship) < 0, `t ${t} in [${span[0]}, ${span[1]}]`).toBe(t > span[0] && t < span[1]);
        checked++;
      }
    }
    expect(checked).toBe(1500);
    // Discs are not polygons; bases that never meet along the line give no span.
    expect(overlapSpan(squadronBase(0, 0, 'circle'), 1, 0, capitalBase(10, 0, 0), span)).toBe(false);
    expect(overlapSpan(squadronBase(0, 0), 1, 0, capitalBase(10, 10, 0), span)).toBe(false);
  });

  it('end on the same bits as a plain bisection, testing outlines only near the edge', () => {
    const span = new Float64Array(2);
    let plainTests = 0, guidedTests = 0;
    for (let k = 0; k < 400; k++) {
      const ship = capitalBase(24, 24, rnd() * 360, 1 + rnd() * 4, 0.5 + rnd() * 2);
      const a = rnd() * 360, r = 3 + rnd() * 6;
      const sx = 24 + r * Math.sin(a), sy = 24 + r * Math.cos(a);
      const ux = (24 - sx) / r, uy = (24 - sy) / r;
      // Approach: a squadron moving at the ship stops where contact begins (separationAbove).
      const approach = (count: () => void) => (t: number) => {
        count();
        return separationAbove(squadronBase(sx + ux * t, sy + uy * t), ship, 0);
      };
      const edge = overlapSpan(squadronBase(sx, sy), ux, uy, ship, span) ? span[0] : NaN;
      const lo0 = Math.max(0, r - 3.5);
      const want = plain(lo0, r, 18, approach(() => plainTests++));
      const got = guidedBisection(lo0, r, 18, edge, approach(() => guidedTests++));
      expect([got, BISECTED[1]]).toEqual(want);
      // Launch: from the ship's centre outwards until the bases stop overlapping (separationBelow).
      const launch = (t: number) => separationBelow(squadronBase(24 + ux * t, 24 + uy * t), ship, 0);
      const out = overlapSpan(squadronBase(24, 24), ux, uy, ship, span) ? span[1] : NaN;
      guidedBisection(0, 4, 20, out, launch);
      expect([BISECTED[0], BISECTED[1]]).toEqual(plain(0, 4, 20, launch));
      // A wrong guide is caught by the confirmation either side of it: still the plain answer.
      expect(guidedBisection(lo0, r, 18, edge + 0.5, approach(() => {}))).toBe(want[0]);
    }
    expect(guidedTests).toBeLessThan(plainTests / 3);
  });

  it('brackets the overlap of two hexagons, and of a ship moving past a hexagon, from the half sizes', () => {
    // overlapSpan takes a hexagon's pairs from its half sizes, not its outline: the span must
    // still bracket the overlap, and guide a contact search to the plain bisection's bits.
    const span = new Float64Array(2);
    let checked = 0;
    for (let k = 0; k < 400; k++) {
      const a = rnd() * 360, r = 1.5 + rnd() * 6;
      const sx = 24 + r * Math.sin(a), sy = 24 + r * Math.cos(a);
      const ux = (24 - sx) / r, uy = (24 - sy) / r;
      const other = k % 2 === 0 ? squadronBase(24 + rnd() - 0.5, 24 + rnd() - 0.5) : capitalBase(24, 24, rnd() * 360, 1 + rnd() * 4, 0.5 + rnd() * 2);
      // Even k: a hexagon moving at a hexagon; odd k: the ship moving at a hexagon at (sx, sy).
      const mover = (t: number) => (k % 2 === 0 ? squadronBase(sx + ux * t, sy + uy * t) : capitalBase(24 - ux * t, 24 - uy * t, other.heading, other.length, other.width));
      const target = k % 2 === 0 ? other : squadronBase(sx, sy);
      const vx = k % 2 === 0 ? ux : -ux, vy = k % 2 === 0 ? uy : -uy;
      expect(overlapSpan(mover(0), vx, vy, target, span)).toBe(true);
      for (const t of [span[0] - 1e-6, span[0] + 1e-6, (span[0] + span[1]) / 2, span[1] - 1e-6, span[1] + 1e-6]) {
        if (t < span[0] - 1) continue;
        expect(separation(mover(t), target) < 0, `t ${t} in [${span[0]}, ${span[1]}]`).toBe(t > span[0] && t < span[1]);
        checked++;
      }
      if (k % 2 === 0) {
        const approach = (t: number) => separationAbove(mover(t), target, 0);
        const lo0 = Math.max(0, r - 2);
        expect(guidedBisection(lo0, r, 18, span[0], approach)).toBe(plain(lo0, r, 18, approach)[0]);
      }
    }
    expect(checked).toBeGreaterThan(1500);
  });
});

describe('distance, contact and overlap (GM-45)', () => {
  it('the quick predicates agree with separation, segmentDistance and the outline test for every shape', () => {
    // A small LCG so the cases are the same on every run; thresholds at, around and far from the true separation.
    let s = 12345;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const make = (): Base => {
      const k = Math.floor(rnd() * 4), x = rnd() * 12, y = rnd() * 12;
      if (k === 0) return capitalBase(x, y, Math.floor(rnd() * 16) * 22.5, 1 + rnd() * 5, 0.5 + rnd() * 2);
      if (k === 1) return squadronBase(x, y);
      if (k === 2) return squadronBase(x, y, 'circle');
      return markerPoint(x, y);
    };
    let decided = 0;
    for (let i = 0; i < 4000; i++) {
      const a = make(), b = make(), sep = separation(a, b);
      for (const t of [sep, sep - 1e-9, sep + 1e-9, sep - 0.3, sep + 0.3, -GEOM_EPSILON, 0, GEOM_EPSILON, 3, 12]) {
        expect(separationAbove(a, b, t)).toBe(sep > t);
        expect(separationBelow(a, b, t)).toBe(sep < t);
        decided++;
      }
      const x0 = rnd() * 4, y0 = rnd() * 4, x1 = x0 + 2 + rnd() * 10, y1 = y0 + 2 + rnd() * 10;
      const n = loadVertices(a, new Float64Array(12));
      const v = new Float64Array(12);
      loadVertices(a, v);
      let inside = true;
      if (n === 0) {
        const r = a.shape === 'circle' ? a.width / 2 : 0;
        inside = a.x - r >= x0 - GEOM_EPSILON && a.x + r <= x1 + GEOM_EPSILON && a.y - r >= y0 - GEOM_EPSILON && a.y + r <= y1 + GEOM_EPSILON;
      } else for (let k = 0; k < n; k++) if (v[2 * k] < x0 - GEOM_EPSILON || v[2 * k] > x1 + GEOM_EPSILON || v[2 * k + 1] < y0 - GEOM_EPSILON || v[2 * k + 1] > y1 + GEOM_EPSILON) inside = false;
      expect(baseInRect(a, x0, y0, x1, y1)).toBe(inside);
      // segmentWithin (missile support: a friend within 3" of the line of fire) against the outline measurement.
      const d = segmentDistance(b, x0, y0, x1, y1);
      for (const t of [d, d - 1e-9, d + 1e-9, d - 0.3, d + 0.3, 0, GEOM_EPSILON, 3 + GEOM_EPSILON]) {
        expect(segmentWithin(b, x0, y0, x1, y1, t)).toBe(d <= t);
        decided++;
      }
    }
    expect(decided).toBe(72000);
  });

  it('touching and overlapping honour eps = 0.001"', () => {
    const a = capitalBase(10, 10, 0);
    expect(GEOM_EPSILON).toBe(0.001);
    expect(touching(a, capitalBase(10, 12.0009, 0))).toBe(true);
    expect(touching(a, capitalBase(10, 12.0011, 0))).toBe(false);
    expect(touching(a, capitalBase(10, 11.9991, 0))).toBe(true);
    expect(overlapping(a, capitalBase(10, 11.9991, 0))).toBe(false);
    expect(overlapping(a, capitalBase(10, 11.9989, 0))).toBe(true);
    expect(touching(a, capitalBase(10, 11.9989, 0))).toBe(false);
    expect(separation(a, capitalBase(10, 11.5, 0))).toBeCloseTo(-0.5, 12);
  });

  it('crossing bases with no vertex inside the other still overlap (distance 0)', () => {
    const long = capitalBase(10, 10, 0, 6, 1), across = capitalBase(10, 10, 90, 6, 1);
    expect(distance(long, across)).toBe(0);
    expect(overlapping(long, across)).toBe(true);
    expect(separation(long, across)).toBeCloseTo(-3.5, 12); // smallest push: 3 + 0.5 along either axis
  });

  it('"within X" is inclusive: a target at exactly X (and up to X + eps) is within', () => {
    expect(within(6, 6)).toBe(true);
    expect(within(6.0009, 6)).toBe(true);
    expect(within(6.0011, 6)).toBe(false);
    expect(atLeast(0.9991, 1)).toBe(true);
    expect(atLeast(0.9989, 1)).toBe(false);
  });

  it('property: distance is symmetric and matches a brute-force outline sampling', () => {
    const r = prng(1);
    for (let i = 0; i < 150; i++) {
      const a = randomBase(r), b = randomBase(r);
      const d = distance(a, b);
      expect(distance(b, a)).toBeCloseTo(d, 12);
      expect(separation(b, a)).toBeCloseTo(separation(a, b), 12);
      if (d > 0) {
        const brute = bruteOutlineDistance(a, b); // samples: never below the true minimum
        expect(brute).toBeGreaterThanOrEqual(d - 1e-9);
        expect(brute - d).toBeLessThan(0.03);
      }
      expect(touching(a, b)).toBe(touching(b, a));
      expect(overlapping(a, b)).toBe(overlapping(b, a));
    }
  });

  it('property: distance is 0 and bases overlap when their centres coincide or are close', () => {
    const r = prng(2);
    for (let i = 0; i < 100; i++) {
      const a = randomBase(r);
      if (a.shape === 'point') continue;
      const b = { ...randomBase(r), x: a.x + (r() - 0.5) * 0.2, y: a.y + (r() - 0.5) * 0.2 };
      if (b.shape === 'point') continue;
      expect(distance(a, b)).toBe(0);
      expect(overlapping(a, b)).toBe(true);
      expect(touching(a, b)).toBe(false);
    }
  });

  it('property: rotating a whole capital-ship configuration, or turning a ship by 180, keeps distances', () => {
    const r = prng(3);
    for (let i = 0; i < 100; i++) {
      const a = capitalBase(20 + r() * 6, 20 + r() * 6, r() * 360, 1 + r() * 3, 0.5 + r() * 2);
      const b = capitalBase(20 + r() * 6, 20 + r() * 6, r() * 360, 1 + r() * 3, 0.5 + r() * 2);
      const d = distance(a, b), deg = r() * 360;
      expect(distance(rotateAbout(a, 24, 24, deg), rotateAbout(b, 24, 24, deg))).toBeCloseTo(d, 9);
      expect(distance({ ...a, heading: a.heading + 180 }, b)).toBeCloseTo(d, 9);
      expect(distance(a, { ...b, heading: b.heading - 180 })).toBeCloseTo(d, 9);
    }
  });

  it('property: rotating ship + hex by a multiple of 60 about the hex centre keeps the distance (hex symmetry)', () => {
    const r = prng(4);
    for (let i = 0; i < 60; i++) {
      const sq = squadronBase(24, 24);
      const ship = capitalBase(24 + (r() - 0.5) * 8, 24 + (r() - 0.5) * 8, r() * 360);
      const d = distance(ship, sq), k = 1 + Math.floor(r() * 5);
      expect(distance(rotateAbout(ship, 24, 24, 60 * k), sq)).toBeCloseTo(d, 9);
    }
  });
});

describe('arcs and aspect (GM-46, GM-47)', () => {
  it('closed wedges: each bearing from a ship heading 30 falls in the expected arcs; dividing rays in both', () => {
    const ship = capitalBase(24, 24, 30);
    const at = (b: number): FacingArc[] => ARCS.filter((a) => pointInArc(ship, a, 24 + 5 * Math.sin((b * Math.PI) / 180), 24 + 5 * Math.cos((b * Math.PI) / 180)));
    expect(at(30)).toEqual(['F']);
    expect(at(120)).toEqual(['S']);
    expect(at(210)).toEqual(['R']);
    expect(at(300)).toEqual(['P']);
    expect(at(75).sort()).toEqual(['F', 'S']);
    expect(at(165).sort()).toEqual(['R', 'S']);
    expect(at(255).sort()).toEqual(['P', 'R']);
    expect(at(345).sort()).toEqual(['F', 'P']);
  });

  it('on a dividing ray the aspect is the arc more favourable to the defender: F over P/S, P/S over R', () => {
    const ship = capitalBase(24, 24, 0);
    expect(arcOfPoint(ship, 29, 29)).toBe('F'); // F/S ray
    expect(arcOfPoint(ship, 19, 29)).toBe('F'); // F/P ray
    expect(arcOfPoint(ship, 29, 19)).toBe('S'); // S/R ray
    expect(arcOfPoint(ship, 19, 19)).toBe('P'); // P/R ray
    expect(arcOfPoint(ship, 29, 29.01)).toBe('F');
    expect(arcOfPoint(ship, 29.01, 29)).toBe('S');
    expect(arcOfPoint(ship, 24, 24)).toBe('F'); // degenerate: at the centre
  });

  it('aspect uses the attacker base point nearest the target centre, not the attacker centre', () => {
    const target = capitalBase(24, 24, 0);
    // A long ship whose centre is in the target's S arc but whose nose reaches into the F arc.
    const attacker = capitalBase(28, 26, 0, 6, 1); // front edge y = 29, x 27.5..28.5
    expect(arcOfPoint(target, attacker.x, attacker.y)).toBe('S');
    const p = [0, 0];
    nearestPoint(attacker, 24, 24, p);
    expect(p).toEqual([27.5, 24]);
    expect(aspect(attacker, target)).toBe('S');
    const nose = capitalBase(28.5, 32, 0, 6, 1); // rear edge y = 29, nearest point (28, 29)
    expect(aspect(nose, target)).toBe('F');
    // Squadron attackers: the hex point nearest the centre; squadron targets have no facing.
    expect(aspect(squadronBase(24, 20), target)).toBe('R');
    expect(aspect(target, squadronBase(24, 20))).toBe('F');
  });

  it('weapon arcs: T and squadron weapons always bear; a wedge reaches a base partly inside it', () => {
    const ship = capitalBase(24, 24, 0), behind = capitalBase(24, 14, 0);
    expect(canBear(ship, 'F', behind)).toBe(false);
    expect(canBear(ship, 'R', behind)).toBe(true);
    expect(canBear(ship, 'T', behind)).toBe(true);
    expect(canBear(squadronBase(24, 24), 'F', behind)).toBe(true);
    // A wide target beside the ship straddles S, F and R but not P.
    expect(arcsHolding(ship, capitalBase(30, 24, 90, 1, 20)).sort()).toEqual(['F', 'R', 'S']);
    // Points (markers) and discs.
    expect(arcsHolding(ship, markerPoint(30, 24))).toEqual(['S']);
    expect(arcsHolding(ship, squadronBase(29.3, 29, 'circle')).sort()).toEqual(['F', 'S']);
    expect(arcsHolding(ship, squadronBase(30, 24, 'circle'))).toEqual(['S']);
  });

  it('property: the aspect arc always holds the nearest point, and the target base lies in the aspect wedge', () => {
    const r = prng(5);
    const p = [0, 0];
    for (let i = 0; i < 200; i++) {
      const target = capitalBase(24, 24, r() * 360);
      const attacker = randomBase(r, 12);
      const arc = aspect(attacker, target);
      nearestPoint(attacker, target.x, target.y, p);
      expect(pointInArc(target, arc, p[0], p[1])).toBe(true);
      expect(baseInArc(target, arc, attacker)).toBe(true);
    }
  });

  it('property: arcOfPoint and aspect give the first arc in DEFENDER_FAVOUR whose wedge holds the point, near the rays too', () => {
    // arcOfPoint answers points well inside one quadrant from one pair of sines and cosines,
    // and aspect answers attackers whose whole base is well inside one: both must agree with
    // testing the wedges one by one, including points just off and just on a dividing ray.
    const r = prng(7);
    const p = [0, 0];
    const byWedges = (ship: ReturnType<typeof capitalBase>, x: number, y: number): FacingArc =>
      Math.hypot(x - ship.x, y - ship.y) <= GEOM_EPSILON ? 'F' : DEFENDER_FAVOUR.find((a) => pointInArc(ship, a, x, y)) ?? 'F';
    for (let i = 0; i < 3000; i++) {
      const heading = i % 4 === 0 ? Math.floor(r() * 8) * 45 : r() * 360;
      const ship = capitalBase(24, 24, heading);
      // A bearing from the ship's heading: half of them within a hair of a dividing ray.
      const ray = heading + 45 + 90 * Math.floor(r() * 4);
      const bearing = i % 2 ? ray + (r() - 0.5) * 1e-7 : r() * 360;
      const d = 0.001 + r() * 20;
      const x = 24 + d * Math.sin((bearing * Math.PI) / 180), y = 24 + d * Math.cos((bearing * Math.PI) / 180);
      expect(arcOfPoint(ship, x, y)).toBe(byWedges(ship, x, y));
      const attacker = i % 3 ? squadronBase(x, y) : capitalBase(x, y, r() * 360);
      nearestPoint(attacker, ship.x, ship.y, p);
      expect(aspect(attacker, ship)).toBe(byWedges(ship, p[0], p[1]));
    }
  });

  it('property: the wedge test agrees with sampling the target outline (and the apex inside the target)', () => {
    const r = prng(6);
    for (let i = 0; i < 150; i++) {
      const ship = capitalBase(24, 24, r() * 360);
      const target = randomBase(r, 12);
      const pts = outline(target, 100);
      for (const arc of ARCS) {
        const strict = pts.some(([x, y]) => pointInArc(ship, arc, x, y, -0.01)) || pointDistance(24, 24, target) === 0;
        const loose = pts.some(([x, y]) => pointInArc(ship, arc, x, y, 0.05)) || pointDistance(24, 24, target) === 0;
        const got = baseInArc(ship, arc, target);
        if (strict) expect(got).toBe(true);
        if (!loose) expect(got).toBe(false);
      }
    }
  });

  it('GM-73 contact in arc: a side-on touch is not front-arc contact for the ship touched on its side', () => {
    const a = capitalBase(20, 20, 0), b = capitalBase(21.75, 19.5, 270); // contact x = 20.75, y 19–20.25
    expect(touching(a, b)).toBe(true);
    expect(contactInArc(a, 'F', b)).toBe(false);
    expect(contactInArc(a, 'S', b)).toBe(true);
    expect(contactInArc(b, 'F', a)).toBe(true);
    expect(contactInArc(a, 'F', capitalBase(25, 20, 0))).toBe(false); // apart
    expect(contactInArc(a, 'F', capitalBase(20, 20.5, 0))).toBe(false); // overlapping
    // A long contact edge crossing the whole F wedge with both ends outside it still counts.
    const wide = capitalBase(20, 20, 0, 1, 6); // front edge y = 20.5, corners at bearings 80 and 280
    const wall = capitalBase(20, 21, 90, 20, 1); // its side at y = 20.5 spans x 10..30
    expect(touching(wide, wall)).toBe(true);
    expect(contactInArc(wide, 'F', wall)).toBe(true);
    expect(contactInArc(wide, 'R', wall)).toBe(false);
    // Squadron rammer: touching is enough; a capital ship touching a disc at its bow.
    expect(contactInArc(squadronBase(20, 21.5), 'F', a)).toBe(true);
    expect(contactInArc(a, 'F', squadronBase(20, 21.5, 'circle'))).toBe(true);
    expect(contactInArc(a, 'R', squadronBase(20, 21.5, 'circle'))).toBe(false);
  });
});

describe('range bands (§3.5, combat.md §3.2)', () => {
  it('short 6" / 3", long to short + 3" x Sensors, inclusive; the Alexander example (Sensors 3)', () => {
    expect(longRangeMax(R121, 'capital', 3)).toBe(15);
    expect(longRangeMax(R121, 'squadron', 3)).toBe(12);
    expect(rangeBand(R121, 13, 'capital', 3)).toBe('long');
    expect(rangeBand(R121, 13, 'squadron', 3)).toBe('out');
    expect(rangeBand(R121, 6, 'capital', 3)).toBe('short');
    expect(rangeBand(R121, 6.0005, 'capital', 3)).toBe('short');
    expect(rangeBand(R121, 6.01, 'capital', 3)).toBe('long');
    expect(rangeBand(R121, 3, 'squadron', 3)).toBe('short');
    expect(rangeBand(R121, 15, 'capital', 3)).toBe('long');
    expect(rangeBand(R121, 15.0009, 'capital', 3)).toBe('long');
    expect(rangeBand(R121, 15.01, 'capital', 3)).toBe('out');
    expect(rangeBand(R121, 0, 'squadron', 0)).toBe('short');
  });

  it('Sensors 0 (or below) leaves no long band', () => {
    expect(rangeBand(R121, 6, 'capital', 0)).toBe('short');
    expect(rangeBand(R121, 6.5, 'capital', 0)).toBe('out');
    expect(rangeBand(R121, 3.5, 'squadron', -1)).toBe('out');
    expect(longRangeMax(R121, 'squadron', -2)).toBe(3);
  });

  it('a custom range table (compiled rules) is honoured', () => {
    const CUSTOM = { shortRangeAC: 8, shortRangeAS: 4, longRangePerSensors: 2 };
    expect(rangeBand(CUSTOM, 8, 'capital', 1)).toBe('short');
    expect(rangeBand(CUSTOM, 10, 'capital', 1)).toBe('long');
    expect(rangeBand(CUSTOM, 10.1, 'capital', 1)).toBe('out');
  });
});
