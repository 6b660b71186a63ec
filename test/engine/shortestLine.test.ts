// shortestLine against the general search it shortens (every vertex measured, the SAT test
// always run): the end points must be the same numbers, bit for bit, for rectangles and
// hexagons in every pose, apart, near contact, touching, overlapping and with parallel edges.
import { describe, expect, it } from 'vitest';
import { type Base, GEOM_EPSILON, capitalBase, loadVertices, markerPoint, shortestLine, squadronBase } from '../../src/engine/geometry.js';
import { prng } from '../helpers/prng.js';

// The reference: the general code as it was, with its helpers copied.
const CP = new Float64Array(2);
function pointPolygonSigned(px: number, py: number, v: Float64Array, n: number): number {
  let inside = true, best = Infinity, bx = 0, by = 0;
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
  CP[0] = bx; CP[1] = by;
  const d = Math.sqrt(best);
  return inside ? -d : d;
}
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
function contactPoint(p: Float64Array, np: number, q: Float64Array, nq: number, out: Float64Array): void {
  let best = Infinity;
  for (const [s, ns, t, nt] of [[p, np, q, nq], [q, nq, p, np]] as const) {
    for (let i = 0; i < ns; i++) {
      const d = pointPolygonSigned(s[2 * i], s[2 * i + 1], t, nt);
      if (d < best) { best = d; out[0] = out[2] = s[2 * i]; out[1] = out[3] = s[2 * i + 1]; }
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
      if (t >= 0 && t <= 1 && u >= 0 && u <= 1) { out[0] = out[2] = ax + t * ex; out[1] = out[3] = ay + t * ey; return; }
    }
  }
}
function referenceLine(a: Base, b: Base, out: Float64Array): void {
  const LA = new Float64Array(12), LB = new Float64Array(12);
  const na = loadVertices(a, LA), nb = loadVertices(b, LB);
  const gap = edgeAxesGap(LB, nb, LA, na, edgeAxesGap(LA, na, LB, nb, -Infinity));
  if (gap <= 0) return contactPoint(LA, na, LB, nb, out);
  const D: number[] = [], P: number[] = [];
  let sep = Infinity;
  for (let k = 0; k < na + nb; k++) {
    const d = k < na ? pointPolygonSigned(LA[2 * k], LA[2 * k + 1], LB, nb) : pointPolygonSigned(LB[2 * (k - na)], LB[2 * (k - na) + 1], LA, na);
    D[k] = d; P[2 * k] = CP[0]; P[2 * k + 1] = CP[1];
    sep = Math.min(sep, d);
  }
  if (sep <= 0) return contactPoint(LA, na, LB, nb, out);
  let best = Infinity, count = 0;
  for (let k = 0; k < na + nb; k++) {
    const d = D[k];
    if (d < best - 1e-9) { best = d; count = 0; out.fill(0); } else if (d > best + 1e-9) continue;
    count++;
    const r = 1 / count;
    const vx = k < na ? LA[2 * k] : LB[2 * (k - na)], vy = k < na ? LA[2 * k + 1] : LB[2 * (k - na) + 1];
    const px = P[2 * k], py = P[2 * k + 1];
    const x0 = k < na ? vx : px, y0 = k < na ? vy : py, x1 = k < na ? px : vx, y1 = k < na ? py : vy;
    out[0] += (x0 - out[0]) * r; out[1] += (y0 - out[1]) * r;
    out[2] += (x1 - out[2]) * r; out[3] += (y1 - out[3]) * r;
  }
}

const HEADINGS = [0, 45, 90, 180, 270, 30, 60, 135];
function polygonBase(r: () => number, x: number, y: number): Base {
  if (r() < 0.3) return squadronBase(x, y, 'hex');
  // Headings on the compass points half the time, so that edges lie parallel and pairs tie.
  const heading = r() < 0.5 ? HEADINGS[Math.floor(r() * HEADINGS.length)] : r() * 360;
  const sizes = [[3, 1.5], [4, 2], [2, 1], [6, 3]];
  const [length, width] = r() < 0.5 ? sizes[Math.floor(r() * sizes.length)] : [1 + r() * 5, 0.5 + r() * 2.5];
  return capitalBase(x, y, heading, length, width);
}

function same(a: Base, b: Base): void {
  const got = new Float64Array(4), want = new Float64Array(4);
  shortestLine(a, b, got);
  referenceLine(a, b, want);
  // The message is built only for a mismatch: a JSON string per call was most of the test's time.
  for (let k = 0; k < 4; k++) if (!Object.is(got[k], want[k])) expect(Array.from(got), JSON.stringify([a, b])).toEqual(Array.from(want));
}

describe('shortestLine', () => {
  it('matches the general search bit for bit on random polygon pairs', () => {
    const r = prng(17);
    for (let i = 0; i < 40000; i++) {
      const a = polygonBase(r, 30 + r() * 4, 20 + r() * 4);
      // Far, near and overlapping: the other centre at a random distance up to 20" (a third
      // of them within 8", where bases touch or overlap).
      const d = r() < 0.33 ? r() * 8 : r() * 20, t = r() * 2 * Math.PI;
      const b = polygonBase(r, a.x + d * Math.cos(t), a.y + d * Math.sin(t));
      same(a, b);
      same(b, a);
    }
  });

  it('matches it where edges lie parallel at small gaps (tied pairs)', () => {
    const r = prng(5);
    for (let i = 0; i < 20000; i++) {
      const h = HEADINGS[Math.floor(r() * HEADINGS.length)];
      const len = 2 + Math.floor(r() * 4), wid = 1 + Math.floor(r() * 2);
      const a = capitalBase(40, 30, h, len, wid);
      // Side by side along the heading's normal, at a gap of 0 to 1e-5 or 0 to 2", shifted along.
      const gap = r() < 0.5 ? r() * 1e-5 : r() * 2, along = (r() - 0.5) * 6;
      const u = (h * Math.PI) / 180, ux = Math.sin(u), uy = Math.cos(u);
      const off = wid + gap;
      const b = capitalBase(40 + uy * off + ux * along, 30 - ux * off + uy * along, h + (r() < 0.5 ? 0 : 180), len, wid);
      same(a, b);
      same(b, a);
      const hex = squadronBase(40 + (r() - 0.5) * 8, 30 + (r() - 0.5) * 8, 'hex');
      same(a, hex);
      same(hex, a);
    }
  });

  it('gives the disc and point cases their lines', () => {
    const out = new Float64Array(4);
    shortestLine(capitalBase(0, 0, 0, 4, 2), markerPoint(5, 0), out);
    expect(Array.from(out)).toEqual([1, 0, 5, 0]);
  });
});
