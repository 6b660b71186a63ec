// Capital-ship arcs from position and heading (game.md §3.4, §3.7 GM-46), the aspect / struck
// arc (GM-47 = combat.md §3.3 ArcOfAttack), the head-on test (GM-22) and front-arc ram contact
// (GM-73), and range bands (§3.5, combat.md §3.2). Frame and bases: geometry.ts. Only rect
// (capital-ship) bases have arcs. Nothing here allocates.
//
// Each arc is a closed 90-degree wedge with its apex at the base centre:
//   F = heading - 45 .. heading + 45     S = heading + 45 .. heading + 135
//   R = heading + 135 .. heading + 225   P = heading + 225 .. heading + 315
// A wedge is tested as the intersection of two half-planes, each widened by eps (so a point
// within eps of a dividing ray is on it, and on it counts for both arcs, GM-46).
import { type Base, GEOM_EPSILON, QUICK_MARGIN, cosDeg, hypot, loadVertices, nearestPoint, outerOf, pointPolygonSigned, discRadius, separation, sinDeg } from './geometry.js';
import type { CombatRules } from '../rules/types.js';
import type { Aspect } from './attackPlan.js';

export type FacingArc = 'F' | 'P' | 'S' | 'R';
export type WeaponArc = FacingArc | 'T';

/** Clockwise start of each wedge, relative to the heading (degrees); each wedge spans 90. */
export const ARC_START: Readonly<Record<FacingArc, number>> = { F: -45, S: 45, R: 135, P: 225 };

/**
 * GM-47 / combat.md ArcOfAttack tie-break on a dividing ray: "the arc more favourable to the
 * defender". Order used, best for the defender first: F, then S and P, then R. Reason: the
 * attacker's positional bonus grows F (none) < P/S < R in both versions (combat.md §4.4
 * Flank121: P/S +1d6 base, Aft +2d6 base; §5.3 Table122: P/S +1 flex, Aft +2 flex; game.md
 * GM-23 ram: side +1, rear +2). S and P never share a ray, so their mutual order never matters.
 * Per-arc Armor (v1.2.2 Fore, P/S, Aft) is unit data and is not consulted.
 */
export const DEFENDER_FAVOUR: readonly FacingArc[] = ['F', 'S', 'P', 'R'];

const TINY = 1e-9;
const V = new Float64Array(12);
const W = new Float64Array(12);
const C = new Float64Array(24);
const P = new Float64Array(2);

// Wedge of the current query: apex (ax, ay), boundary rays d0 (start) and d1 (end, 90 degrees
// clockwise from d0). For a 90-degree wedge the outward normals are n0 = -d1 and n1 = -d0.
// Kept in typed-array slots (WEDGE: ax, ay, d0x, d0y, d1x, d1y): module variables holding
// doubles boxed each value stored into a new heap number, six per wedge set (canBear and
// arcOfPoint were a steady share of a battle's allocation).
const WEDGE = new Float64Array(6);

function setWedge(ship: Base, arc: FacingArc): void {
  // ARC_START's value by comparisons: a read of the table by a variable key is a keyed load,
  // with its lookup of the name, on every wedge (several per arc and aspect test).
  const b = ship.heading + (arc === 'F' ? -45 : arc === 'S' ? 45 : arc === 'R' ? 135 : 225);
  const d0x = sinDeg(b), d0y = cosDeg(b);
  WEDGE[0] = ship.x;
  WEDGE[1] = ship.y;
  WEDGE[2] = d0x;
  WEDGE[3] = d0y;
  WEDGE[4] = d0y;
  WEDGE[5] = -d0x;
}

function inWedge(px: number, py: number, eps: number): boolean {
  const x = px - WEDGE[0], y = py - WEDGE[1];
  return -(WEDGE[4] * x + WEDGE[5] * y) <= eps && -(WEDGE[2] * x + WEDGE[3] * y) <= eps;
}

/** Gap between the wedge and the points v[0..n) projected on unit axis (nx, ny); > 0 separates. */
function wedgeGap(v: Float64Array, n: number, nx: number, ny: number): number {
  let pMin = Infinity, pMax = -Infinity;
  for (let k = 0; k < n; k++) { const s = v[2 * k] * nx + v[2 * k + 1] * ny; if (s < pMin) pMin = s; if (s > pMax) pMax = s; }
  const a = WEDGE[0] * nx + WEDGE[1] * ny, s0 = WEDGE[2] * nx + WEDGE[3] * ny, s1 = WEDGE[4] * nx + WEDGE[5] * ny;
  const wMin = s0 < -TINY || s1 < -TINY ? -Infinity : a;
  const wMax = s0 > TINY || s1 > TINY ? Infinity : a;
  return Math.max(wMin - pMax, pMin - wMax);
}

/** The convex point set v[0..n) (a point, a segment, or a CCW polygon) meets the wedge (SAT). */
function convexMeetsWedge(v: Float64Array, n: number, eps: number): boolean {
  if (wedgeGap(v, n, -WEDGE[4], -WEDGE[5]) > eps || wedgeGap(v, n, -WEDGE[2], -WEDGE[3]) > eps) return false;
  for (let i = 0; n > 1 && i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const nx = v[2 * j + 1] - v[2 * i + 1], ny = v[2 * i] - v[2 * j], len = hypot(nx, ny);
    if (len > TINY && wedgeGap(v, n, nx / len, ny / len) > eps) return false;
  }
  return true;
}

/** Distance from a point to the wedge (0 inside). */
function wedgeDistance(px: number, py: number): number {
  const x = px - WEDGE[0], y = py - WEDGE[1];
  const d0x = WEDGE[2], d0y = WEDGE[3], d1x = WEDGE[4], d1y = WEDGE[5];
  if (-(d1x * x + d1y * y) <= 0 && -(d0x * x + d0y * y) <= 0) return 0;
  const t0 = Math.max(0, x * d0x + y * d0y), t1 = Math.max(0, x * d1x + y * d1y);
  return Math.min(hypot(x - t0 * d0x, y - t0 * d0y), hypot(x - t1 * d1x, y - t1 * d1y));
}

/** The point (px, py) lies in the ship's closed wedge `arc` (within eps of it). */
export function pointInArc(ship: Base, arc: FacingArc, px: number, py: number, eps = GEOM_EPSILON): boolean {
  setWedge(ship, arc);
  return inWedge(px, py, eps);
}

/** GM-46 weapon-arc test: some point of the target's base lies in the ship's closed wedge `arc`. */
export function baseInArc(ship: Base, arc: FacingArc, target: Base, eps = GEOM_EPSILON): boolean {
  setWedge(ship, arc);
  // Most targets are settled by their centre alone: how far it lies outside each of the two
  // half-planes whose intersection is the wedge. A centre inside both (by a margin far above
  // rounding) is a point of the base in the wedge; a base whose outer circle lies beyond one
  // of them by more than eps misses it. Only the rest need the outline (SAT).
  const x = target.x - WEDGE[0], y = target.y - WEDGE[1];
  const out1 = -(WEDGE[4] * x + WEDGE[5] * y), out0 = -(WEDGE[2] * x + WEDGE[3] * y);
  if (out1 < -QUICK_MARGIN && out0 < -QUICK_MARGIN) return true;
  const clear = outerOf(target) + eps + QUICK_MARGIN;
  if (out1 > clear || out0 > clear) return false;
  const n = loadVertices(target, V);
  return n > 0 ? convexMeetsWedge(V, n, eps) : wedgeDistance(target.x, target.y) <= discRadius(target) + eps;
}

/** GM-46: a weapon firing in `arc` bears on the target. T weapons and squadron (non-rect) firers always do. Range is separate. */
export function canBear(firer: Base, arc: WeaponArc, target: Base, eps = GEOM_EPSILON): boolean {
  return arc === 'T' || firer.shape !== 'rect' || baseInArc(firer, arc, target, eps);
}

/**
 * The arc whose wedge holds the offset (x, y) from the ship's centre deeper than `depth` from
 * both of its rays, or null when the offset lies within `depth` of a dividing line. The four
 * wedges are the quadrants of the F wedge's two rays: with a and b the offset's components
 * along them, F is a, b >= 0; S is b >= 0, a <= 0; R is a, b <= 0; P is a >= 0, b <= 0 (each
 * wedge's rays are F's, or F's reversed). So one wedge's trig settles a point well clear of
 * the dividing lines, instead of up to four. The other wedges' own trig differs from F's by
 * rounding only (some 1e-14 over a table), far below QUICK_MARGIN, which `depth` must hold.
 */
function deepArc(ship: Base, x: number, y: number, depth: number): FacingArc | null {
  const h = ship.heading - 45;
  const d0x = sinDeg(h), d0y = cosDeg(h);
  const a = d0x * x + d0y * y, b = d0y * x - d0x * y;
  if (a > depth) return b > depth ? 'F' : b < -depth ? 'P' : null;
  if (a < -depth) return b > depth ? 'S' : b < -depth ? 'R' : null;
  return null;
}

/** The ship's arc containing the point; on a dividing ray (within eps), the defender's favourite (DEFENDER_FAVOUR); F at the centre. */
export function arcOfPoint(ship: Base, px: number, py: number, eps = GEOM_EPSILON): FacingArc {
  // A point deeper than eps (and a margin) inside one wedge is within eps of no other, nor of
  // the centre: that wedge is the answer the tests below would give.
  const deep = eps >= 0 ? deepArc(ship, px - ship.x, py - ship.y, eps + QUICK_MARGIN) : null;
  if (deep !== null) return deep;
  if (hypot(px - ship.x, py - ship.y) <= eps) return 'F';
  for (let i = 0; i < DEFENDER_FAVOUR.length; i++) {
    setWedge(ship, DEFENDER_FAVOUR[i]);
    if (inWedge(px, py, eps)) return DEFENDER_FAVOUR[i];
  }
  return 'R'; // unreachable: the four closed wedges cover the plane
}

/** The aspect of an attack that comes in through the target's arc `arc` (GM-47): front, side or rear. */
export function aspectOfArc(arc: FacingArc): Aspect {
  return arc === 'F' ? 'front' : arc === 'R' ? 'rear' : 'side';
}

/**
 * GM-47 / combat.md ArcOfAttack: the target's arc the attacker is in (also the struck arc of a
 * ram, GM-80): the arc holding the point of the attacker's base nearest to the target's centre.
 * Squadron targets have no facing and always give F (no positional bonus).
 */
export function aspect(attacker: Base, target: Base, eps = GEOM_EPSILON): FacingArc {
  if (target.shape !== 'rect') return 'F';
  // The point sought is a point of the attacker's base, so within its outer radius of the
  // attacker's centre: a centre that much deeper in one wedge than arcOfPoint's own depth
  // puts that point there too, and the outline need not be measured.
  const deep = eps >= 0 ? deepArc(target, attacker.x - target.x, attacker.y - target.y, outerOf(attacker) + eps + QUICK_MARGIN) : null;
  if (deep !== null) return deep;
  nearestPoint(attacker, target.x, target.y, P);
  return arcOfPoint(target, P[0], P[1], eps);
}

/** GM-22 head-on contact: each capital ship is in the other's F arc, both by GM-47. */
export function headOn(a: Base, b: Base, eps = GEOM_EPSILON): boolean {
  return a.shape === 'rect' && b.shape === 'rect' && aspect(a, b, eps) === 'F' && aspect(b, a, eps) === 'F';
}

/**
 * GM-73 contact in an arc: the bases touch (GM-45; overlapping or apart gives false) and some
 * touching point lies in the ship's closed wedge `arc`. The contact set of two touching convex
 * bases is a point or a segment spanned by the vertices of either base lying within eps of
 * the other (a disc touches in one point), so the hull of those candidates is tested against
 * the wedge. A non-rect ship has no arcs: touching is enough (a ramming squadron).
 */
export function contactInArc(ship: Base, arc: FacingArc, other: Base, eps = GEOM_EPSILON): boolean {
  const s = separation(ship, other);
  if (s > eps || s < -eps) return false;
  if (ship.shape !== 'rect') return true;
  let m = 0;
  if (other.shape === 'rect' || other.shape === 'hex') {
    const ns = loadVertices(ship, V), no = loadVertices(other, W);
    for (let i = 0; i < ns; i++) if (pointPolygonSigned(V[2 * i], V[2 * i + 1], W, no) <= eps) { C[2 * m] = V[2 * i]; C[2 * m + 1] = V[2 * i + 1]; m++; }
    for (let i = 0; i < no; i++) if (pointPolygonSigned(W[2 * i], W[2 * i + 1], V, ns) <= eps) { C[2 * m] = W[2 * i]; C[2 * m + 1] = W[2 * i + 1]; m++; }
  } else {
    nearestPoint(ship, other.x, other.y, C);
    m = 1;
  }
  setWedge(ship, arc);
  for (let i = 0; i < m; i++) {
    if (inWedge(C[2 * i], C[2 * i + 1], eps)) return true;
    for (let j = i + 1; j < m; j++) {
      V[0] = C[2 * i]; V[1] = C[2 * i + 1]; V[2] = C[2 * j]; V[3] = C[2 * j + 1];
      if (convexMeetsWedge(V, 2, eps)) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Range bands (§3.5, combat.md §3.2): apply to a base-to-base distance (geometry.ts distance).

export type TargetKind = 'capital' | 'squadron';
export type RangeBand = 'short' | 'long' | 'out';
/** The range figures of a rules version (its `combat` block); no hidden default, so a battle always uses its own rules. */
export type RangeTable = Pick<CombatRules, 'shortRangeAC' | 'shortRangeAS' | 'longRangePerSensors'>;

/** Long-range maximum: short range + longRangePerSensors x Sensors (Sensors below 0 count as 0: no long band). */
export function longRangeMax(ranges: RangeTable, target: TargetKind, sensors: number): number {
  const short = target === 'capital' ? ranges.shortRangeAC : ranges.shortRangeAS;
  return short + ranges.longRangePerSensors * (sensors > 0 ? sensors : 0);
}

/** Band of a base-to-base distance; both limits inclusive (GM-45 "within"). */
export function rangeBand(ranges: RangeTable, dist: number, target: TargetKind, sensors: number, eps = GEOM_EPSILON): RangeBand {
  if (dist <= (target === 'capital' ? ranges.shortRangeAC : ranges.shortRangeAS) + eps) return 'short';
  return dist <= longRangeMax(ranges, target, sensors) + eps ? 'long' : 'out';
}
