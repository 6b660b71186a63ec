// Table geometry (game.md §3.3, §3.5, §3.7 GM-45; combat.md §3.2 RangeMeasure): the frame,
// model bases, distances between them, contact, overlap, table containment and range bands.
// Arcs, aspect (GM-46, GM-47) and range bands live in geometryArcs.ts.
//
// Frame (GM-45): the table is 0 <= x <= w, 0 <= y <= h, in inches. Headings and bearings are
// compass degrees: 0 points along +y and angles grow clockwise (90 = +x).
//
// Pure functions on plain numbers. The hot functions (separation, distance, pointDistance,
// nearestPoint, baseInRect) allocate nothing: polygon vertices go into module scratch buffers.
import { UserError } from '../errors.js';
import type { UnitCard } from '../units/types.js';

/** GM-45 `geom_epsilon`, inches. */
export const GEOM_EPSILON = 0.001;
/** GM-01 `table_w` / `table_h`. */
export const DEFAULT_TABLE_W = 48, DEFAULT_TABLE_H = 48;
/** GM-37 default capital-ship base (Structure <= 2 only). */
export const DEFAULT_CAPITAL_LENGTH = 2, DEFAULT_CAPITAL_WIDTH = 1.5;
/** §3.3: squadrons stand on a 1" hex (across the flats); the circle option is a 1" disc. */
export const SQUADRON_BASE_SIZE = 1;

/** rect = capital ship; hex / circle = squadron (GM-45 `squadron_base_shape`); point = marker. */
export type BaseShape = 'rect' | 'hex' | 'circle' | 'point';
export type SquadronBaseShape = 'hex' | 'circle';

export interface Base {
  readonly shape: BaseShape;
  /** Centre of the base (the model's position). */
  readonly x: number;
  readonly y: number;
  /** Compass degrees. Only rect bases use it: hexes, discs and points never rotate. */
  readonly heading: number;
  /** rect: along the heading. Others: equal to `width` (unused). */
  readonly length: number;
  /** rect: across the heading; hex: across the flats; circle: diameter; point: 0. */
  readonly width: number;
  /**
   * outerRadius(this) and innerRadius(this), kept by bases that move many times between size
   * changes (the battle's MovingBase): the separation tests read them on every call, and a
   * number field is cheaper than working them out from the shape name each time. When present
   * they must equal what those functions return for the current shape, length and width.
   */
  readonly outerR?: number;
  readonly innerR?: number;
}

export function capitalBase(x: number, y: number, heading: number, length = DEFAULT_CAPITAL_LENGTH, width = DEFAULT_CAPITAL_WIDTH): Base {
  return { shape: 'rect', x, y, heading, length, width };
}

export function squadronBase(x: number, y: number, shape: SquadronBaseShape = 'hex', size = SQUADRON_BASE_SIZE): Base {
  return { shape, x, y, heading: 0, length: size, width: size };
}

export function markerPoint(x: number, y: number): Base {
  return { shape: 'point', x, y, heading: 0, length: 0, width: 0 };
}

/**
 * GM-37: base size from the unit data; without it, 2" x 1.5" for Structure <= 2 (`defaulted`
 * flags the unit); a larger ship without base data is an error.
 */
export function capitalBaseSize(unit: Pick<UnitCard, 'id' | 'structure' | 'base'>): { length: number; width: number; defaulted: boolean } {
  if (unit.base) return { length: unit.base.lengthIn, width: unit.base.widthIn, defaulted: false };
  if (unit.structure <= 2) return { length: DEFAULT_CAPITAL_LENGTH, width: DEFAULT_CAPITAL_WIDTH, defaulted: true };
  throw new UserError(`unit ${unit.id}: base size is required for a capital ship of Structure ${unit.structure} (GM-37)`);
}

// ---------------------------------------------------------------------------------------------
// Angles

const DEG = Math.PI / 180;
const SQRT3 = Math.sqrt(3);

/** Angle in degrees, normalised to [0, 360). */
export function normalizeDeg(deg: number): number {
  // Angles within one turn either side of [0, 360) are the usual case; the remainder (a call
  // into the runtime for a double) gives exactly these values there.
  // Adding 0 turns -0 into 0 and leaves every other value as it is: a computed number rather
  // than a literal 0 beside it (where V8 inlines a function returning either, it boxes the result).
  if (deg >= 0 && deg < 360) return deg + 0;
  if (deg < 0 && deg > -360) return deg + 360;
  const d = deg % 360;
  return d < 0 ? d + 360 : d + 0;
}

function sinOf(deg: number): number {
  const d = normalizeDeg(deg);
  return d === 0 || d === 180 ? 0 : d === 90 ? 1 : d === 270 ? -1 : Math.sin(d * DEG);
}
function cosOf(deg: number): number {
  const d = normalizeDeg(deg);
  return d === 90 || d === 270 ? 0 : d === 0 ? 1 : d === 180 ? -1 : Math.cos(d * DEG);
}

// Headings and turns are whole degrees almost always (45° steps): those come from a table of
// the same values, computed once.
const TRIG_SPAN = 720;
const SIN_TABLE = new Float64Array(2 * TRIG_SPAN + 1);
const COS_TABLE = new Float64Array(2 * TRIG_SPAN + 1);
for (let d = -TRIG_SPAN; d <= TRIG_SPAN; d++) {
  SIN_TABLE[d + TRIG_SPAN] = sinOf(d);
  COS_TABLE[d + TRIG_SPAN] = cosOf(d);
}

// Other angles (headings towards a beacon or a target) recur many times in a row: a small
// direct-mapped memo of recent ones (angle, sin, cos per slot). 256 slots rather than 64: a
// beacon game met some 130 misses (mostly slots shared by two angles in use), each a Math.sin
// and a Math.cos, at 64; about 85, most of them first meetings, at 256 (6 KB).
const MEMO_SLOTS = 256;
const TRIG_MEMO = new Float64Array(3 * MEMO_SLOTS).fill(NaN);

function memoSlot(deg: number): number {
  // Any slot will do for an angle, so long as it is always the same one: truncation and a mask
  // (MEMO_SLOTS is a power of two) rather than a floor and a remainder.
  const i = 3 * (((deg * 977.3) | 0) & (MEMO_SLOTS - 1));
  if (TRIG_MEMO[i] !== deg) {
    TRIG_MEMO[i] = deg;
    TRIG_MEMO[i + 1] = sinOf(deg);
    TRIG_MEMO[i + 2] = cosOf(deg);
  }
  return i;
}

/** sin / cos of a compass angle, exact at multiples of 90 degrees. */
export function sinDeg(deg: number): number {
  if ((deg | 0) === deg && deg >= -TRIG_SPAN && deg <= TRIG_SPAN) return SIN_TABLE[deg + TRIG_SPAN];
  return deg === deg ? TRIG_MEMO[memoSlot(deg) + 1] : sinOf(deg);
}
export function cosDeg(deg: number): number {
  if ((deg | 0) === deg && deg >= -TRIG_SPAN && deg <= TRIG_SPAN) return COS_TABLE[deg + TRIG_SPAN];
  return deg === deg ? TRIG_MEMO[memoSlot(deg) + 2] : cosOf(deg);
}

/**
 * sinDeg(deg) into s[j] and cosDeg(deg) into c[j], the same numbers, with the angle's table
 * index or memo slot found once for both (a move menu's headings are mostly not whole degrees).
 */
export function trigInto(deg: number, s: Float64Array, c: Float64Array, j: number): void {
  if ((deg | 0) === deg && deg >= -TRIG_SPAN && deg <= TRIG_SPAN) {
    s[j] = SIN_TABLE[deg + TRIG_SPAN];
    c[j] = COS_TABLE[deg + TRIG_SPAN];
  } else if (deg === deg) {
    const i = memoSlot(deg);
    s[j] = TRIG_MEMO[i + 1];
    c[j] = TRIG_MEMO[i + 2];
  } else {
    s[j] = sinOf(deg);
    c[j] = cosOf(deg);
  }
}

/**
 * Math.hypot(x, y), to the bit, without the call into the variadic builtin (several times the
 * cost of these few operations). The same values as V8's Math.hypot for two arguments: both
 * magnitudes divided by the larger, their squares summed (its Kahan summation adds nothing to
 * the second term's sum when the first starts from 0), the square root scaled back; here the
 * larger's quotient, exactly 1, is not worked out.
 *
 * Every return hands back one of the computed numbers, never a literal (Infinity, NaN and 0
 * are returned as the magnitude that is one): where V8 inlined the function, a return of
 * literals beside the computed one made it box the result into a new heap number on every
 * call (16 bytes a call; objectiveValue's calls alone were an eighth of a battle's
 * allocation). The values are the same: a magnitude that is Infinity or NaN is that value,
 * and the larger of two magnitudes that is 0 is +0.
 */
export function hypot(x: number, y: number): number {
  const ax = Math.abs(x), ay = Math.abs(y);
  if (ax === Infinity) return ax;
  if (ay === Infinity) return ay;
  if (ax !== ax) return ax;
  if (ay !== ay) return ay;
  const max = ax > ay ? ax : ay, min = ax > ay ? ay : ax;
  if (max === 0) return max;
  // The larger magnitude divided by itself is exactly 1 (so is its square): only the smaller
  // needs the division, and 1 + r r is the same sum as V8's in either order.
  const r = min / max;
  return Math.sqrt(1 + r * r) * max;
}

/**
 * Math.hypot(dx, dy) >= d, decided from the squared length when that is clearly on one side
 * (hypot costs far more than two multiplies); near the threshold hypot itself decides, so the
 * answer is always the one hypot gives.
 */
export function hypotAtLeast(dx: number, dy: number, d: number): boolean {
  const q = dx * dx + dy * dy, dd = d * d;
  if (q > dd * (1 + 1e-9)) return true;
  if (q < dd * (1 - 1e-9)) return false;
  return hypot(dx, dy) >= d;
}

/** Compass bearing in [0, 360) from (x0, y0) to (x1, y1); 0 when the points coincide. */
export function bearing(x0: number, y0: number, x1: number, y1: number): number {
  return normalizeDeg(Math.atan2(x1 - x0, y1 - y0) / DEG);
}

// ---------------------------------------------------------------------------------------------
// Outlines

/**
 * Writes the outline of a polygonal base (rect, hex) into `out` as x0, y0, x1, y1, ...,
 * counter-clockwise in the (x right, y up) frame, and returns the vertex count; 0 for circles
 * and points. `out` needs room for 12 numbers. Rect order: front-right, front-left,
 * rear-left, rear-right. Hex: vertices at (x +- R, y) with R = width / sqrt 3, so the top and
 * bottom sides are parallel to the x axis (GM-45), whatever `heading` says.
 */
export function loadVertices(b: Base, out: Float64Array): number {
  if (b.shape === 'rect') {
    const ux = sinDeg(b.heading), uy = cosDeg(b.heading);
    const fx = (ux * b.length) / 2, fy = (uy * b.length) / 2; // half-length forward
    const rx = (uy * b.width) / 2, ry = (-ux * b.width) / 2; // half-width to starboard
    out[0] = b.x + fx + rx; out[1] = b.y + fy + ry;
    out[2] = b.x + fx - rx; out[3] = b.y + fy - ry;
    out[4] = b.x - fx - rx; out[5] = b.y - fy - ry;
    out[6] = b.x - fx + rx; out[7] = b.y - fy + ry;
    return 4;
  }
  if (b.shape === 'hex') {
    const r = b.width / SQRT3, h = r / 2, a = b.width / 2;
    out[0] = b.x + r; out[1] = b.y;
    out[2] = b.x + h; out[3] = b.y + a;
    out[4] = b.x - h; out[5] = b.y + a;
    out[6] = b.x - r; out[7] = b.y;
    out[8] = b.x - h; out[9] = b.y - a;
    out[10] = b.x + h; out[11] = b.y - a;
    return 6;
  }
  return 0;
}

/** Radius of the smallest circle about the centre that holds the whole base. */
export function outerRadius(b: Base): number {
  if (b.shape === 'rect') return 0.5 * Math.sqrt(b.length * b.length + b.width * b.width);
  if (b.shape === 'hex') return b.width / SQRT3;
  return b.shape === 'circle' ? b.width / 2 : 0;
}

/** outerRadius(b), from the base's own field when it keeps one (the same number either way). */
export function outerOf(b: Base): number {
  const r = b.outerR;
  return r !== undefined ? r : outerRadius(b);
}

/** innerRadius(b), from the base's own field when it keeps one (the same number either way). */
export function innerOf(b: Base): number {
  const r = b.innerR;
  return r !== undefined ? r : innerRadius(b);
}

/** Radius of a disc-like base: circle = width / 2, point = 0 (polygons: 0, unused). */
export function discRadius(b: Base): number {
  return b.shape === 'circle' ? b.width / 2 : 0;
}

const VA = new Float64Array(12), VB = new Float64Array(12);
const CP = new Float64Array(2); // nearest outline point found by the last pointPolygonSigned (typed slots: no boxing)

/**
 * Signed distance from a point to a convex CCW polygon: > 0 outside (distance to the outline),
 * <= 0 inside (minus the depth). Leaves the nearest outline point in CP.
 */
export function pointPolygonSigned(px: number, py: number, v: Float64Array, n: number): number {
  let inside = true;
  let best = Infinity;
  let bx = 0, by = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const ax = v[2 * i], ay = v[2 * i + 1];
    const ex = v[2 * j] - ax, ey = v[2 * j + 1] - ay;
    const wx = px - ax, wy = py - ay;
    if (ex * wy - ey * wx < 0) inside = false;
    const len2 = ex * ex + ey * ey;
    let t = len2 > 0 ? (wx * ex + wy * ey) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const qx = ax + t * ex, qy = ay + t * ey;
    const d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy);
    if (d2 < best) { best = d2; bx = qx; by = qy; }
  }
  CP[0] = bx;
  CP[1] = by;
  const d = Math.sqrt(best);
  return inside ? -d : d;
}

/**
 * Largest gap between the projections of p and q on p's outward edge normals (SAT). Bases
 * are centrally symmetric (rectangles, hexagons): the second half of the edges gives the same
 * axes reversed, and the gap on an axis does not depend on its direction, so half suffice.
 */
function edgeAxesGap(p: Float64Array, np: number, q: Float64Array, nq: number, acc: number): number {
  const axes = np === 4 || np === 6 ? np / 2 : np;
  for (let i = 0; i < axes; i++) {
    const j = i + 1 === np ? 0 : i + 1;
    let nx = p[2 * j + 1] - p[2 * i + 1], ny = p[2 * i] - p[2 * j];
    const len = Math.sqrt(nx * nx + ny * ny);
    if (len === 0) continue;
    nx /= len; ny /= len;
    let pMin = Infinity, pMax = -Infinity, qMin = Infinity, qMax = -Infinity;
    for (let k = 0; k < np; k++) { const s = p[2 * k] * nx + p[2 * k + 1] * ny; if (s < pMin) pMin = s; if (s > pMax) pMax = s; }
    for (let k = 0; k < nq; k++) { const s = q[2 * k] * nx + q[2 * k + 1] * ny; if (s < qMin) qMin = s; if (s > qMax) qMax = s; }
    const gap = Math.max(qMin - pMax, pMin - qMax);
    if (gap > acc) acc = gap;
  }
  return acc;
}

/** Signed separation of two convex CCW polygons: distance if apart, minus the penetration depth if not. */
function polygonSeparation(a: Float64Array, na: number, b: Float64Array, nb: number): number {
  return separationFromGap(a, na, b, nb, edgeAxesGap(b, nb, a, na, edgeAxesGap(a, na, b, nb, -Infinity)));
}

/** polygonSeparation, given the SAT gap (which is already the answer when <= 0, and a lower bound when > 0). */
function separationFromGap(a: Float64Array, na: number, b: Float64Array, nb: number, gap: number): number {
  if (gap <= 0) return gap; // SAT: minimum translation distance, exact for convex polygons
  let d = Infinity; // disjoint: the nearest pair is a vertex of one against an edge of the other
  for (let i = 0; i < na; i++) d = Math.min(d, pointPolygonSigned(a[2 * i], a[2 * i + 1], b, nb));
  for (let i = 0; i < nb; i++) d = Math.min(d, pointPolygonSigned(b[2 * i], b[2 * i + 1], a, na));
  return d;
}

// ---------------------------------------------------------------------------------------------
// Distance, contact, overlap (GM-45)

/**
 * Signed separation of two bases: the shortest distance between their outlines when they are
 * apart, 0 when the outlines just touch, and minus the penetration depth (the smallest
 * translation that separates them) when the interiors overlap.
 */
export function separation(a: Base, b: Base): number {
  const na = loadVertices(a, VA), nb = loadVertices(b, VB);
  if (na > 0 && nb > 0) return polygonSeparation(VA, na, VB, nb);
  if (na > 0) return pointPolygonSigned(b.x, b.y, VA, na) - discRadius(b);
  if (nb > 0) return pointPolygonSigned(a.x, a.y, VB, nb) - discRadius(a);
  return hypot(b.x - a.x, b.y - a.y) - discRadius(a) - discRadius(b);
}

/** Radius of the largest circle about the centre that lies inside the base (0 for a point). */
export function innerRadius(b: Base): number {
  if (b.shape === 'rect') return 0.5 * Math.min(b.length, b.width);
  if (b.shape === 'hex') return 0.5 * b.width;
  return b.shape === 'circle' ? b.width / 2 : 0;
}

// The separation lies between (centre distance - outer radii) and (centre distance - inner
// radii). These two predicates answer from those bounds when they settle the comparison with
// a margin (QUICK_MARGIN, far above rounding) and compute the outlines only when they do not,
// so they agree with `separation(a, b) > t` and `separation(a, b) < t`.
export const QUICK_MARGIN = 1e-9;

// A pair with a rectangle (a capital ship) that the radii leave open: most are a squadron's
// hexagon well inside a long ship's outline or clearly beside it. The other base's centre
// measured against the rectangle settles those without the SAT test: separation only falls
// as a base grows, so it lies between (centre's signed distance - the other's enclosing
// radius) and (that distance - its inscribed radius). The rounding of these few operations
// is far below QUICK_MARGIN, so a comparison they settle is the one the outlines give.
const BOUND = new Float64Array(2); // the other base's inscribed, enclosing radius (typed slots: no boxing)

/** The signed distance from the centre of one base to the other, a rectangle (b when both are); its radii in BOUND. */
function rectPairBound(a: Base, b: Base): number {
  const r = b.shape === 'rect' ? b : a, o = r === b ? a : b;
  BOUND[0] = innerOf(o);
  BOUND[1] = outerOf(o);
  const ux = sinDeg(r.heading), uy = cosDeg(r.heading);
  const dx = o.x - r.x, dy = o.y - r.y;
  // Beyond the half length (forward axis) and the half width (starboard axis): > 0 outside.
  const ex = Math.abs(dx * ux + dy * uy) - r.length / 2, ey = Math.abs(dx * uy - dy * ux) - r.width / 2;
  if (ex <= 0 && ey <= 0) return ex > ey ? ex : ey; // inside: minus the depth to the nearest side
  const px = ex > 0 ? ex : 0, py = ey > 0 ? ey : 0;
  return Math.sqrt(px * px + py * py);
}

// Two hexagons (squadrons) never rotate, so they share their three edge normals, at 90°, 30°
// and 150°, and each projects to its centre ± half its width on every one of them: the SAT
// gap is the largest |normal · (centre difference)| less the half widths, with no outline.
// That gap is the separation when <= 0; apart, the separation is at least the gap and at
// most the gap / cos 30° (the nearest point of the outlines' Minkowski difference is then a
// vertex, within 30° of the normal that gives the gap). HEX_APART rounds 2 / sqrt 3 up.
const HEX_APART = 1.155;
const HALF_SQRT3 = Math.sqrt(3) / 2;

/** The SAT gap of two hexagonal bases (see above). */
function hexPairGap(a: Base, b: Base): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const p0 = Math.abs(dy), p1 = Math.abs(HALF_SQRT3 * dx + 0.5 * dy), p2 = Math.abs(HALF_SQRT3 * dx - 0.5 * dy);
  const p = p0 > p1 ? (p0 > p2 ? p0 : p2) : p1 > p2 ? p1 : p2;
  return p - (a.width + b.width) / 2;
}

/**
 * The SAT gap of a hexagon and a rectangle, from the five edge normals (the hexagon's three,
 * the rectangle's two) and each base's extent along them, without either outline. The
 * hexagon's normals alone are 60° apart, so the same bounds hold as for two hexagons.
 */
function hexRectGap(hex: Base, r: Base): number {
  const dx = r.x - hex.x, dy = r.y - hex.y;
  const ux = sinDeg(r.heading), uy = cosDeg(r.heading); // the rectangle's forward axis; (uy, -ux) to starboard
  const hl = r.length / 2, hw = r.width / 2, ha = hex.width / 2, hr = hex.width / SQRT3;
  // The hexagon's normals: its extent is ha, the rectangle's its half sides projected.
  let g = Math.abs(dy) - ha - Math.abs(uy) * hl - Math.abs(ux) * hw;
  let nu = HALF_SQRT3 * ux + 0.5 * uy, nv = HALF_SQRT3 * uy - 0.5 * ux;
  let x = Math.abs(HALF_SQRT3 * dx + 0.5 * dy) - ha - Math.abs(nu) * hl - Math.abs(nv) * hw;
  if (x > g) g = x;
  nu = HALF_SQRT3 * ux - 0.5 * uy;
  nv = HALF_SQRT3 * uy + 0.5 * ux;
  x = Math.abs(HALF_SQRT3 * dx - 0.5 * dy) - ha - Math.abs(nu) * hl - Math.abs(nv) * hw;
  if (x > g) g = x;
  // The rectangle's normals: the hexagon's extent is its farthest vertex, (hr, 0) or (hr / 2, ±ha).
  for (let k = 0; k < 2; k++) {
    const ax = k === 0 ? ux : uy, ay = k === 0 ? uy : -ux;
    x = Math.abs(ax * dx + ay * dy) - hexExtent(ax, ay, hr, ha) - (k === 0 ? hl : hw);
    if (x > g) g = x;
  }
  return g;
}

/**
 * separation(b, o) without the outlines where a closed form gives it: two hexagons
 * (squadrons never turn them), and a hexagon overlapping a rectangle (the SAT gap of their
 * five edge normals is then the separation); otherwise separation() itself. Its rounding
 * differs from separation()'s by far less than 1e-9 (movement sizes its discs of ruled-out
 * spots with it and keeps 1e-9 in hand, so a disc still covers only spots legalEnd turns down).
 */
export function closedFormSeparation(b: Base, o: Base): number {
  if (b.shape !== 'hex') return separation(b, o);
  if (o.shape === 'hex') {
    // The two hexagons' Minkowski difference is a hexagon of apothem r (flat sides top and
    // bottom): the signed distance of the centres' offset from it, folded into one sector.
    const r = (b.width + o.width) / 2;
    let px = Math.abs(o.x - b.x), py = Math.abs(o.y - b.y);
    const t = Math.min(-HALF_SQRT3 * px + 0.5 * py, 0);
    px += 2 * t * HALF_SQRT3;
    py -= 2 * t * 0.5;
    const edge = r / SQRT3;
    const qx = px - Math.min(edge, Math.max(-edge, px)), qy = py - r;
    const len = Math.sqrt(qx * qx + qy * qy);
    return qy < 0 ? -len : len;
  }
  if (o.shape === 'rect') {
    const g = hexRectGap(b, o);
    if (g <= 0) return g;
  }
  return separation(b, o);
}

/**
 * How far a hexagon reaches from its centre along unit axis (ax, ay): its farthest vertex,
 * (hr, 0) or (hr / 2, ±ha), with hr its corner radius and ha half its width across the flats.
 */
function hexExtent(ax: number, ay: number, hr: number, ha: number): number {
  const p0 = Math.abs(ax * hr), p1 = Math.abs((ax * hr) / 2 + ay * ha), p2 = Math.abs((ax * hr) / 2 - ay * ha);
  return p0 > p1 ? (p0 > p2 ? p0 : p2) : p1 > p2 ? p1 : p2;
}

// Two rectangles: the SAT gap from their four edge normals and each one's extent along them,
// without either outline. Their normals are at most 90° apart, so apart the separation lies
// between the gap and the gap / cos 45° (RECT_APART rounds sqrt 2 up), as for the hexagons.
const RECT_APART = 1.4143;

/** The SAT gap of two rectangular bases (see above). */
function rectPairGap(a: Base, b: Base): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const ux = sinDeg(a.heading), uy = cosDeg(a.heading), wx = sinDeg(b.heading), wy = cosDeg(b.heading);
  const al = a.length / 2, aw = a.width / 2, bl = b.length / 2, bw = b.width / 2;
  // a's forward and starboard axes (ux, uy), (uy, -ux); b's (wx, wy), (wy, -wx).
  const c = Math.abs(ux * wx + uy * wy), s = Math.abs(ux * wy - uy * wx); // |cos|, |sin| of the angle between
  let g = Math.abs(dx * ux + dy * uy) - al - c * bl - s * bw;
  let x = Math.abs(dx * uy - dy * ux) - aw - s * bl - c * bw;
  if (x > g) g = x;
  x = Math.abs(dx * wx + dy * wy) - bl - c * al - s * aw;
  if (x > g) g = x;
  x = Math.abs(dx * wy - dy * wx) - bw - s * al - c * aw;
  if (x > g) g = x;
  return g;
}

/** separation(a, b) > t. */
export function separationAbove(a: Base, b: Base, t: number): boolean {
  const dx = b.x - a.x, dy = b.y - a.y, d2 = dx * dx + dy * dy;
  const far = t + outerOf(a) + outerOf(b) + QUICK_MARGIN;
  if (far < 0 || d2 > far * far) return true;
  const near = t + innerOf(a) + innerOf(b) - QUICK_MARGIN;
  if (near >= 0 && d2 <= near * near) return false;
  // The upper bounds below as g * (factor or 1), the same numbers as g > 0 ? g * factor : g: the
  // choice between a product and g itself was a tagged value, so each product was boxed.
  if (a.shape === 'rect' || b.shape === 'rect') {
    const s = rectPairBound(a, b);
    if (s - BOUND[0] < t - QUICK_MARGIN) return false;
    if (s - BOUND[1] > t + QUICK_MARGIN) return true;
    if (a.shape === 'hex' || b.shape === 'hex') {
      const g = hexRectGap(a.shape === 'hex' ? a : b, a.shape === 'hex' ? b : a), hi = g * (g > 0 ? HEX_APART : 1);
      if (g > t + QUICK_MARGIN) return true;
      if (hi < t - QUICK_MARGIN) return false;
    } else if (a.shape === 'rect' && b.shape === 'rect') {
      const g = rectPairGap(a, b), hi = g * (g > 0 ? RECT_APART : 1);
      if (g > t + QUICK_MARGIN) return true;
      if (hi < t - QUICK_MARGIN) return false;
    }
  } else if (a.shape === 'hex' && b.shape === 'hex') {
    const g = hexPairGap(a, b), hi = g * (g > 0 ? HEX_APART : 1);
    if (g > t + QUICK_MARGIN) return true;
    if (hi < t - QUICK_MARGIN) return false;
  }
  const na = loadVertices(a, VA), nb = loadVertices(b, VB);
  if (na === 0 || nb === 0) return separation(a, b) > t;
  // Two polygons: the SAT gap is the separation when <= 0 and a lower bound of the distance when > 0.
  const gap = edgeAxesGap(VB, nb, VA, na, edgeAxesGap(VA, na, VB, nb, -Infinity));
  if (gap > 0 && gap > t + QUICK_MARGIN) return true;
  return separationFromGap(VA, na, VB, nb, gap) > t;
}

/** separation(a, b) < t. */
export function separationBelow(a: Base, b: Base, t: number): boolean {
  const dx = b.x - a.x, dy = b.y - a.y, d2 = dx * dx + dy * dy;
  const near = t + innerOf(a) + innerOf(b) - QUICK_MARGIN;
  if (near > 0 && d2 < near * near) return true;
  const far = t + outerOf(a) + outerOf(b) + QUICK_MARGIN;
  if (far <= 0 || d2 >= far * far) return false;
  // The shortcuts of separationAbove with the answers turned round. Kept as a copy: one shared
  // function answering above / below / open measured x0.98 (battleAB, beacon-assault, 80 rounds).
  if (a.shape === 'rect' || b.shape === 'rect') {
    const s = rectPairBound(a, b);
    if (s - BOUND[0] < t - QUICK_MARGIN) return true;
    if (s - BOUND[1] > t + QUICK_MARGIN) return false;
    if (a.shape === 'hex' || b.shape === 'hex') {
      const g = hexRectGap(a.shape === 'hex' ? a : b, a.shape === 'hex' ? b : a), hi = g * (g > 0 ? HEX_APART : 1);
      if (hi < t - QUICK_MARGIN) return true;
      if (g > t + QUICK_MARGIN) return false;
    } else if (a.shape === 'rect' && b.shape === 'rect') {
      const g = rectPairGap(a, b), hi = g * (g > 0 ? RECT_APART : 1);
      if (hi < t - QUICK_MARGIN) return true;
      if (g > t + QUICK_MARGIN) return false;
    }
  } else if (a.shape === 'hex' && b.shape === 'hex') {
    const g = hexPairGap(a, b), hi = g * (g > 0 ? HEX_APART : 1);
    if (hi < t - QUICK_MARGIN) return true;
    if (g > t + QUICK_MARGIN) return false;
  }
  const na = loadVertices(a, VA), nb = loadVertices(b, VB);
  if (na === 0 || nb === 0) return separation(a, b) < t;
  const gap = edgeAxesGap(VB, nb, VA, na, edgeAxesGap(VA, na, VB, nb, -Infinity));
  if (gap > 0 && gap >= t + QUICK_MARGIN) return false;
  return separationFromGap(VA, na, VB, nb, gap) < t;
}

// ---------------------------------------------------------------------------------------------
// Where a straight move starts and stops overlapping (for contact searches)

const SA = new Float64Array(12), SB = new Float64Array(12);
const SPAN = new Float64Array(2);

/** Narrows SPAN to the t over which the projections on the edge normals of `p` overlap. */
function narrowSpan(p: Float64Array, np: number, a: Float64Array, na: number, b: Float64Array, nb: number, ux: number, uy: number): boolean {
  const axes = np === 4 || np === 6 ? np / 2 : np;
  for (let i = 0; i < axes; i++) {
    const j = i + 1 === np ? 0 : i + 1;
    // An edge normal, not normalised: the span of t does not depend on its length.
    const nx = p[2 * j + 1] - p[2 * i + 1], ny = p[2 * i] - p[2 * j];
    let aMin = Infinity, aMax = -Infinity, bMin = Infinity, bMax = -Infinity;
    for (let k = 0; k < na; k++) { const v = a[2 * k] * nx + a[2 * k + 1] * ny; if (v < aMin) aMin = v; if (v > aMax) aMax = v; }
    for (let k = 0; k < nb; k++) { const v = b[2 * k] * nx + b[2 * k + 1] * ny; if (v < bMin) bMin = v; if (v > bMax) bMax = v; }
    const speed = ux * nx + uy * ny;
    if (speed === 0) {
      if (aMax < bMin || aMin > bMax) return false; // apart on this axis for every t
      continue;
    }
    const t0 = (bMin - aMax) / speed, t1 = (bMax - aMin) / speed;
    const lo = speed > 0 ? t0 : t1, hi = speed > 0 ? t1 : t0;
    if (lo > SPAN[0]) SPAN[0] = lo;
    if (hi < SPAN[1]) SPAN[1] = hi;
  }
  return true;
}

/**
 * For polygon base `a` moved by t·(ux, uy) from where it stands, the interval of t over which
 * it overlaps polygon base `b` (separating axes: both are convex), as [out[0], out[1]].
 * False when either base is not a polygon or the two never meet along the line. A guide for
 * contact searches: callers confirm it with the exact predicates before relying on it.
 */
export function overlapSpan(a: Base, ux: number, uy: number, b: Base, out: Float64Array): boolean {
  if (a.shape === 'hex' ? b.shape === 'hex' || b.shape === 'rect' : a.shape === 'rect' && b.shape === 'hex') return hexSpan(a, ux, uy, b, out);
  const na = loadVertices(a, SA), nb = loadVertices(b, SB);
  if (na === 0 || nb === 0) return false;
  SPAN[0] = -Infinity;
  SPAN[1] = Infinity;
  if (!narrowSpan(SA, na, SA, na, SB, nb, ux, uy) || !narrowSpan(SB, nb, SA, na, SB, nb, ux, uy)) return false;
  if (!(SPAN[0] <= SPAN[1])) return false;
  out[0] = SPAN[0];
  out[1] = SPAN[1];
  return true;
}

// A hexagon with a hexagon or a rectangle: the same separating axes as narrowSpan's (the
// hexagons' three edge normals, the rectangle's two), each base's extent along them from its
// half sizes (as hexPairGap and hexRectGap take them), without the outlines. Its span can
// differ from the outlines' in the last bits: callers take it only as a guide and confirm it
// (guidedBisection), and a bisection's steps away from the true edge get the same answers
// from the guide as from the test.

/**
 * The axes hexSpan narrows its span on, three numbers each: the other base's centre ahead along
 * the axis, the two half extents summed, the speed along it.
 */
const HEX_AXES = new Float64Array(15);

/** overlapSpan for a hexagon with a hexagon or a rectangle (see above). */
function hexSpan(a: Base, ux: number, uy: number, b: Base, out: Float64Array): boolean {
  const dx = b.x - a.x, dy = b.y - a.y, A = HEX_AXES;
  // The hexagons' normals (0, 1), (sqrt 3 / 2, ±1 / 2): a hexagon reaches half its width along each.
  const hex = a.shape === 'hex' ? a : b, r = hex === a ? b : a;
  A[0] = dy;
  A[3] = HALF_SQRT3 * dx + 0.5 * dy;
  A[6] = HALF_SQRT3 * dx - 0.5 * dy;
  A[2] = uy;
  A[5] = HALF_SQRT3 * ux + 0.5 * uy;
  A[8] = HALF_SQRT3 * ux - 0.5 * uy;
  const ha = hex.width / 2;
  let n = 9;
  if (r.shape === 'hex') {
    const sum = ha + r.width / 2;
    A[1] = A[4] = A[7] = sum;
  } else {
    // The rectangle along the hexagons' normals: its half sides projected; along its own two
    // normals: its half sides, and the hexagon its farthest vertex, (hr, 0) or (hr / 2, ±ha).
    const fx = sinDeg(r.heading), fy = cosDeg(r.heading), hl = r.length / 2, hw = r.width / 2, hr = hex.width / SQRT3;
    let nu = HALF_SQRT3 * fx + 0.5 * fy, nv = HALF_SQRT3 * fy - 0.5 * fx;
    const e1 = Math.abs(nu) * hl + Math.abs(nv) * hw;
    nu = HALF_SQRT3 * fx - 0.5 * fy;
    nv = HALF_SQRT3 * fy + 0.5 * fx;
    const e2 = Math.abs(nu) * hl + Math.abs(nv) * hw;
    A[1] = ha + Math.abs(fy) * hl + Math.abs(fx) * hw;
    A[4] = ha + e1;
    A[7] = ha + e2;
    A[9] = fx * dx + fy * dy;
    A[10] = hexExtent(fx, fy, hr, ha) + hl;
    A[11] = fx * ux + fy * uy;
    A[12] = fy * dx + -fx * dy;
    A[13] = hexExtent(fy, -fx, hr, ha) + hw;
    A[14] = fy * ux + -fx * uy;
    n = 15;
  }
  // The axes narrowed in one loop, the test written out: as a helper called at five sites it
  // was too big for V8 to inline them all, and each call boxed its three numbers.
  let lo = -Infinity, hi = Infinity;
  for (let j = 0; j < n; j += 3) {
    const c = A[j], sum = A[j + 1], speed = A[j + 2];
    if (speed === 0) {
      if (c - sum > 0 || c + sum < 0) return false;
      continue;
    }
    const t0 = (c - sum) / speed, t1 = (c + sum) / speed;
    const l = speed > 0 ? t0 : t1, h = speed > 0 ? t1 : t0;
    if (l > lo) lo = l;
    if (h < hi) hi = h;
  }
  if (!(lo <= hi)) return false;
  out[0] = lo;
  out[1] = hi;
  return true;
}

/** The interval a guidedBisection ended with: [lo, hi]. */
export const BISECTED = new Float64Array(2);
/** How far from the guide's edge a step must be to take the guide's answer (far above rounding). */
export const GUIDE_MARGIN = 1e-7;

/**
 * `steps` halvings of [lo, hi] on `test` (true: the answer lies above t), the same sequence a
 * plain bisection takes. When `edge` (where `test` turns false along a straight search, from
 * overlapSpan) is confirmed by `test` itself just either side of it, the steps farther than
 * GUIDE_MARGIN from it take the answer from the edge, so only the steps beside the edge
 * measure outlines. Returns lo (hi is left in BISECTED[1]). The battle engine's searches
 * (clearBisection in manoeuvre.ts, touchingFrom in squadronOps.ts) write
 * these steps out with their own test, so that no closure is made per search: this function
 * is the reference they follow, and its tests (geometry.test.ts) show its answers are a plain
 * bisection's.
 */
export function guidedBisection(lo: number, hi: number, steps: number, edge: number, test: (t: number) => boolean): number {
  const guided = edge === edge && test(edge - GUIDE_MARGIN) && !test(edge + GUIDE_MARGIN);
  for (let i = 0; i < steps; i++) {
    const t = (lo + hi) / 2;
    const yes = guided && t < edge - GUIDE_MARGIN ? true : guided && t > edge + GUIDE_MARGIN ? false : test(t);
    if (yes) lo = t;
    else hi = t;
  }
  BISECTED[0] = lo;
  BISECTED[1] = hi;
  return lo;
}

/** GM-45 / RangeMeasure: shortest distance between the base outlines, 0 if touching or overlapping. */
export function distance(a: Base, b: Base): number {
  const s = separation(a, b);
  return s > 0 ? s : 0;
}

/** Distance from a point (e.g. a marker) to a base: 0 inside it. */
export function pointDistance(px: number, py: number, b: Base): number {
  const n = loadVertices(b, VA);
  const s = n > 0 ? pointPolygonSigned(px, py, VA, n) : hypot(px - b.x, py - b.y) - discRadius(b);
  return s > 0 ? s : 0;
}

/**
 * pointDistance(px, py, b) <= r (a model within r of a marker or beacon). Every point of a base
 * lies within its outer radius of the centre, and the nearest point of a base is no farther
 * than its centre: a centre within r of the point (by a margin far above rounding), or beyond
 * r plus the outer radius, settles it without the outline.
 */
export function pointWithin(px: number, py: number, b: Base, r: number): boolean {
  const dx = px - b.x, dy = py - b.y, d2 = dx * dx + dy * dy;
  const inner = r - QUICK_MARGIN;
  if (inner >= 0 && d2 <= inner * inner) return true;
  const outer = r + outerOf(b) + QUICK_MARGIN;
  if (d2 > outer * outer) return false;
  return pointDistance(px, py, b) <= r;
}

/** GM-45 base contact: outlines within eps and interiors not overlapping by more than eps. */
export function touching(a: Base, b: Base, eps = GEOM_EPSILON): boolean {
  const s = separation(a, b);
  return s <= eps && s >= -eps;
}

const NEG_GEOM_EPSILON = -GEOM_EPSILON;

/** GM-45: the interiors intersect by more than eps (penetration depth > eps). */
export function overlapping(a: Base, b: Base, eps = GEOM_EPSILON): boolean {
  // The default's negation kept ready: -eps worked out here was boxed for the call.
  if (eps === GEOM_EPSILON) return separationBelow(a, b, NEG_GEOM_EPSILON);
  return separationBelow(a, b, -eps);
}

/** GM-45 permission "within X": distance <= X + eps. */
export function within(dist: number, x: number, eps = GEOM_EPSILON): boolean {
  return dist <= x + eps;
}

/** GM-45 requirement "at least X away" / "not within X": distance >= X - eps. */
export function atLeast(dist: number, x: number, eps = GEOM_EPSILON): boolean {
  return dist >= x - eps;
}

/**
 * The point of base b nearest to (px, py), written to out[0], out[1]: the point itself when
 * it lies inside b (combat.md ArcOfAttack uses this with the target's centre).
 */
export function nearestPoint(b: Base, px: number, py: number, out: Float64Array | number[]): void {
  const n = loadVertices(b, VA);
  if (n > 0) {
    const s = pointPolygonSigned(px, py, VA, n);
    out[0] = s > 0 ? CP[0] : px; out[1] = s > 0 ? CP[1] : py;
    return;
  }
  const r = discRadius(b), dx = px - b.x, dy = py - b.y, d = hypot(dx, dy);
  out[0] = d > r ? b.x + (dx * r) / d : px;
  out[1] = d > r ? b.y + (dy * r) / d : py;
}

/**
 * The shortest line between two bases (combat.md §4.3 missile support: "the shortest line
 * between attacker's base and target's base"), as its two end points [ax, ay, bx, by]. Two
 * convex polygons apart are nearest at a vertex of one and the nearest point of the other's
 * outline; a disc is nearest along the line from its centre. Bases in contact (or a vertex of
 * one inside the other) give a line of no length at the contact.
 */
export function shortestLine(a: Base, b: Base, out: Float64Array): void {
  const na = loadVertices(a, LA), nb = loadVertices(b, LB);
  if (na > 0 && nb > 0) {
    // polygonSeparation(LA, na, LB, nb) <= 0 means contact. Its steps are taken here one by one,
    // so that the vertex distances it measures when the SAT gap is positive (each vertex of one
    // polygon against the other) serve the line below too, instead of being measured twice.
    const ax = a.x, ay = a.y, bx = b.x, by = b.y;
    const oa = outerOf(a), ob = outerOf(b), ia = innerOf(a), ib = innerOf(b);
    // Bases whose enclosing discs lie LINE_MARGIN apart are apart, and the SAT gap would say so
    // (for these outlines it is at least 0.7 of the distance): the test is not needed.
    if (Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay)) - oa - ob <= LINE_MARGIN) {
      const gap = edgeAxesGap(LB, nb, LA, na, edgeAxesGap(LA, na, LB, nb, -Infinity));
      if (gap <= 0) {
        contactPoint(LA, na, LB, nb, out);
        return;
      }
    }
    // A vertex's distance to the other base lies between its distance to that base's centre
    // less the enclosing radius and the same less the inscribed radius. A vertex whose lower
    // bound is LINE_MARGIN above the least upper bound is farther than the nearest vertex by
    // more than the 1e-9 of the ties below: it can neither start nor join the kept pairs, nor
    // be the minimum, so its distance is not measured (SL_SKIP).
    // Two loops each (a's vertices, then b's) rather than one with a choice at every step.
    let upper = Infinity;
    for (let k = 0; k < na; k++) {
      const vx = LA[2 * k], vy = LA[2 * k + 1];
      const c = Math.sqrt((vx - bx) * (vx - bx) + (vy - by) * (vy - by));
      SL_D[k] = c;
      const u = c - ib;
      if (u < upper) upper = u;
    }
    for (let k = 0; k < nb; k++) {
      const vx = LB[2 * k], vy = LB[2 * k + 1];
      const c = Math.sqrt((vx - ax) * (vx - ax) + (vy - ay) * (vy - ay));
      SL_D[na + k] = c;
      const u = c - ia;
      if (u < upper) upper = u;
    }
    let sep = Infinity;
    for (let k = 0; k < na; k++) {
      if (SL_D[k] - ob > upper + LINE_MARGIN) {
        SL_SKIP[k] = 1;
        continue;
      }
      SL_SKIP[k] = 0;
      const d = pointPolygonSigned(LA[2 * k], LA[2 * k + 1], LB, nb);
      SL_D[k] = d;
      SL_P[2 * k] = CP[0];
      SL_P[2 * k + 1] = CP[1];
      sep = Math.min(sep, d);
    }
    for (let k = na; k < na + nb; k++) {
      if (SL_D[k] - oa > upper + LINE_MARGIN) {
        SL_SKIP[k] = 1;
        continue;
      }
      SL_SKIP[k] = 0;
      const d = pointPolygonSigned(LB[2 * (k - na)], LB[2 * (k - na) + 1], LA, na);
      SL_D[k] = d;
      SL_P[2 * k] = CP[0];
      SL_P[2 * k + 1] = CP[1];
      sep = Math.min(sep, d);
    }
    if (sep <= 0) {
      contactPoint(LA, na, LB, nb, out);
      return;
    }
    // Apart: the nearest pairs have a vertex of one base. Parallel edges tie along their
    // common stretch; the tied pairs are averaged, which puts the line in its middle.
    let best = Infinity, count = 0;
    for (let k = 0; k < na + nb; k++) {
      if (SL_SKIP[k] !== 0) continue;
      const d = SL_D[k];
      if (d < best - 1e-9) {
        best = d;
        count = 0;
        // Four stores rather than fill(), a call into a builtin that cost a tenth of this function.
        out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0;
      } else if (d > best + 1e-9) continue;
      count++;
      const r = 1 / count; // running mean of the tied pairs
      // The vertex end first for a vertex of a, the outline point of a first for a vertex of b.
      const vx = k < na ? LA[2 * k] : LB[2 * (k - na)], vy = k < na ? LA[2 * k + 1] : LB[2 * (k - na) + 1];
      const px = SL_P[2 * k], py = SL_P[2 * k + 1];
      const x0 = k < na ? vx : px, y0 = k < na ? vy : py, x1 = k < na ? px : vx, y1 = k < na ? py : vy;
      out[0] += (x0 - out[0]) * r; out[1] += (y0 - out[1]) * r;
      out[2] += (x1 - out[2]) * r; out[3] += (y1 - out[3]) * r;
    }
    return;
  }
  if (na > 0 || nb > 0) {
    // A polygon and a disc (or point): the polygon's nearest point to the disc's centre.
    const poly = na > 0 ? LA : LB, n = na > 0 ? na : nb, disc = na > 0 ? b : a;
    const r = discRadius(disc);
    const d = pointPolygonSigned(disc.x, disc.y, poly, n);
    const px = d > 0 ? CP[0] : disc.x, py = d > 0 ? CP[1] : disc.y;
    const k = d > r ? r / d : 1; // from the centre towards the polygon, out to the disc's edge
    const qx = disc.x + (px - disc.x) * k, qy = disc.y + (py - disc.y) * k;
    if (na > 0) { out[0] = px; out[1] = py; out[2] = d > r ? qx : px; out[3] = d > r ? qy : py; }
    else { out[2] = px; out[3] = py; out[0] = d > r ? qx : px; out[1] = d > r ? qy : py; }
    return;
  }
  const ra = discRadius(a), rb = discRadius(b);
  const dx = b.x - a.x, dy = b.y - a.y, d = hypot(dx, dy);
  if (d <= ra + rb) {
    const t = d > 0 ? ra / d : 0;
    out[0] = out[2] = a.x + dx * t;
    out[1] = out[3] = a.y + dy * t;
    return;
  }
  out[0] = a.x + (dx / d) * ra; out[1] = a.y + (dy / d) * ra;
  out[2] = b.x - (dx / d) * rb; out[3] = b.y - (dy / d) * rb;
}
const LA = new Float64Array(12), LB = new Float64Array(12);
/** shortestLine's vertex distances (a's vertices, then b's) and the nearest outline point of each. */
const SL_D = new Float64Array(12), SL_P = new Float64Array(24), SL_SKIP = new Uint8Array(12);
/** shortestLine's margin on its bounds: far above their rounding, far below any distance that matters. */
const LINE_MARGIN = 1e-6;

/** A point common to two overlapping or touching convex polygons: a vertex inside the other, else where two edges cross. */
function contactPoint(p: Float64Array, np: number, q: Float64Array, nq: number, out: Float64Array): void {
  let best = Infinity;
  for (const [s, ns, t, nt] of [[p, np, q, nq], [q, nq, p, np]] as const) {
    for (let i = 0; i < ns; i++) {
      const d = pointPolygonSigned(s[2 * i], s[2 * i + 1], t, nt);
      if (d < best) {
        best = d;
        out[0] = out[2] = s[2 * i];
        out[1] = out[3] = s[2 * i + 1];
      }
    }
  }
  if (best <= GEOM_EPSILON) return;
  for (let i = 0; i < np; i++) {
    const i2 = i + 1 === np ? 0 : i + 1;
    const ax = p[2 * i], ay = p[2 * i + 1], ex = p[2 * i2] - ax, ey = p[2 * i2 + 1] - ay;
    for (let j = 0; j < nq; j++) {
      const j2 = j + 1 === nq ? 0 : j + 1;
      const cx = q[2 * j], cy = q[2 * j + 1], fx = q[2 * j2] - cx, fy = q[2 * j2 + 1] - cy;
      const den = ex * fy - ey * fx;
      if (den === 0) continue;
      const t = ((cx - ax) * fy - (cy - ay) * fx) / den, u = ((cx - ax) * ey - (cy - ay) * ex) / den;
      if (t >= 0 && t <= 1 && u >= 0 && u <= 1) {
        out[0] = out[2] = ax + t * ex;
        out[1] = out[3] = ay + t * ey;
        return;
      }
    }
  }
}

/** Squared distance from a point to the segment (x0, y0)-(x1, y1). */
function pointSegment2(px: number, py: number, x0: number, y0: number, x1: number, y1: number): number {
  const ex = x1 - x0, ey = y1 - y0, len2 = ex * ex + ey * ey;
  let t = len2 > 0 ? ((px - x0) * ex + (py - y0) * ey) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = px - (x0 + t * ex), dy = py - (y0 + t * ey);
  return dx * dx + dy * dy;
}

/** Shortest distance from a base (0 if the segment touches or crosses it) to the segment (x0, y0)-(x1, y1). */
export function segmentDistance(b: Base, x0: number, y0: number, x1: number, y1: number): number {
  const n = loadVertices(b, VA);
  if (n === 0) return Math.max(0, Math.sqrt(pointSegment2(b.x, b.y, x0, y0, x1, y1)) - discRadius(b));
  // A convex polygon and a segment: they meet, or the nearest pair has an end point of one.
  const ends = Math.min(pointPolygonSigned(x0, y0, VA, n), pointPolygonSigned(x1, y1, VA, n));
  if (ends <= 0) return 0;
  let d2 = ends * ends;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    if (segmentsCross(VA[2 * i], VA[2 * i + 1], VA[2 * j], VA[2 * j + 1], x0, y0, x1, y1)) return 0;
    const v = pointSegment2(VA[2 * i], VA[2 * i + 1], x0, y0, x1, y1);
    if (v < d2) d2 = v;
  }
  return Math.sqrt(d2);
}

/**
 * segmentDistance(b, x0, y0, x1, y1) <= d. The base lies within its outer radius of its centre
 * and holds the disc of its inner radius, so the centre's distance to the segment settles the
 * answer unless it falls within those radii (and a margin far above rounding) of d.
 */
export function segmentWithin(b: Base, x0: number, y0: number, x1: number, y1: number, d: number): boolean {
  if (d < 0) return false; // segmentDistance is never negative (0 where the segment meets the base)
  const c = Math.sqrt(pointSegment2(b.x, b.y, x0, y0, x1, y1));
  if (c - outerOf(b) > d + QUICK_MARGIN) return false;
  if (c - innerOf(b) < d - QUICK_MARGIN) return true;
  return segmentDistance(b, x0, y0, x1, y1) <= d;
}

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  const d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** The whole base lies in the closed rectangle [x0, x1] x [y0, y1] (eps tolerance); GM-82 zones. */
export function baseInRect(b: Base, x0: number, y0: number, x1: number, y1: number, eps = GEOM_EPSILON): boolean {
  // Every point of a base lies within its outer radius of the centre: a base that far inside
  // the rectangle needs no outline (the common case on an open table).
  const r = outerOf(b) + QUICK_MARGIN;
  if (b.x - r >= x0 && b.x + r <= x1 && b.y - r >= y0 && b.y + r <= y1) return true;
  const n = loadVertices(b, VA);
  if (n === 0) {
    const r = discRadius(b);
    return b.x - r >= x0 - eps && b.x + r <= x1 + eps && b.y - r >= y0 - eps && b.y + r <= y1 + eps;
  }
  for (let i = 0; i < n; i++) {
    const x = VA[2 * i], y = VA[2 * i + 1];
    if (x < x0 - eps || x > x1 + eps || y < y0 - eps || y > y1 + eps) return false;
  }
  return true;
}

/** GM-45/GM-54/GM-58: the base lies wholly on the table. */
export function onTable(b: Base, w = DEFAULT_TABLE_W, h = DEFAULT_TABLE_H, eps = GEOM_EPSILON): boolean {
  return baseInRect(b, 0, 0, w, h, eps);
}
