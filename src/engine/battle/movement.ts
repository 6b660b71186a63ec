// Movement (game.md §6, GM-54..GM-66, GM-15): the bounded set of moves the engine offers a
// model, their legality, and forced placements (overlapping, table edge).
//
// Capital ships advance along their heading and turn by pivoting on the front corner on the
// side of the turn (GM-55). Offered moves: the minimum, middle and maximum distance, each
// straight, with one 45° turn at the start, middle or end (a Sluggish ship: start or end only,
// GM-11), and (where two turns are allowed) a 90° turn split over the start and the end.
// Squadrons move in straight lines (a subset of their free paths, GM-58) towards, around or
// away from the enemy.
import { GEOM_EPSILON, closedFormSeparation, cosDeg, hypot, guidedBisection, normalizeDeg, onTable, separationAbove, separationBelow, sinDeg } from '../geometry.js';
import type { ActionName, MoveOption } from '../../policies/types.js';
import type { BattleRules } from './battleRules.js';
import { MovingBase, type BattleModel } from './model.js';

export interface Pose {
  x: number;
  y: number;
  heading: number;
}

/**
 * A move option with every field of MoveOption present (undefined where unused), in one order.
 * Policies read the options of a menu one after another (pose, action): options of one shape
 * keep those reads fast, where boost and Thrusters-0 options with fields of their own made
 * them serve several shapes.
 */
export function moveOption(pose: Pose, action: ActionName, travelled: number, fuel?: number, failPose?: Pose): MoveOption {
  return { pose, action, travelled, fuel, failPose };
}

export interface CapitalMove {
  /** Straight, turn, straight, turn, straight: distances in inches, turns in degrees (+ starboard). */
  readonly pre: number;
  readonly turn1: number;
  readonly mid: number;
  readonly turn2: number;
  readonly post: number;
}

export interface MoveLimits {
  readonly min: number;
  readonly max: number;
  /** Heading changes allowed this move. */
  readonly turns: number;
  /** The Sluggish trait: turns only at the very start or the very end of the move, never mid-move (game.md §6.2, GM-11). */
  readonly sluggish?: boolean;
}

/** Capital-ship move limits under the version's movement rules (§6.1 / §6.2, GM-10, GM-57); `speed` other than the card's for a Boost (GM-09). */
export function capitalLimits(br: BattleRules, m: BattleModel, stationKeeping: boolean, speed = m.unit.speed): MoveLimits {
  // The rule itself is limitsInto's; its numbers go to a scratch of this function's own, so
  // that LIMITS, loaded by a move menu for planOfLimits, is never overwritten here.
  const l = LIMITS_OWN;
  limitsInto(l, br, m, stationKeeping, speed);
  const lim: MoveLimits = { min: l[0], max: l[1], turns: l[2] };
  // Only a Sluggish ship carries the field, so other limits read as before.
  return l[3] === 1 ? { ...lim, sluggish: true } : lim;
}
const LIMITS_OWN = new Float64Array(4);

/**
 * Capital-ship move limits written to `out` (min, max, turns, then 1 for a Sluggish ship, else
 * 0): the rule capitalLimits and loadLimits both give.
 */
function limitsInto(out: Float64Array, br: BattleRules, m: BattleModel, stationKeeping: boolean, speed: number): void {
  const thr = m.state.thrusters;
  if (br.capitalMove === 'half_speed') {
    out[0] = stationKeeping ? 0 : speed / 2;
    out[1] = speed;
    out[2] = thr >= 1 ? 1 : 0;
  } else {
    out[0] = stationKeeping ? 0 : Math.max(0, speed - thr);
    out[1] = speed + thr;
    out[2] = Math.max(0, Math.min(m.unit.turns, thr));
  }
  out[3] = m.unit.traits.has('Sluggish') ? 1 : 0;
}

/**
 * capitalLimits' numbers, written to LIMITS rather than into a new object: a capital move menu
 * asked for two to four limits, each an object with its fractions boxed, and read each once.
 */
export const LIMITS = new Float64Array(4);
export function loadLimits(br: BattleRules, m: BattleModel, stationKeeping: boolean, speed: number): void {
  limitsInto(LIMITS, br, m, stationKeeping, speed);
}

const menus = new Map<number, Array<{ min: number; max: number; turns: number; sluggish: boolean; plan: CapitalPlan }>>();

/**
 * Moves the engine offers a capital ship with these limits (distances deduplicated). The same
 * few limits recur all game, so each menu is built once and shared (callers only read it).
 */
export function capitalMoves(lim: MoveLimits): readonly CapitalMove[] {
  return capitalPlan(lim).moves;
}

/** capitalMoves' menu with its tree of steps (CapitalPlan), built once per limits like the menu. */
export function capitalPlan(lim: MoveLimits): CapitalPlan {
  return capitalPlanOf(lim.min, lim.max, lim.turns, lim.sluggish === true);
}

/**
 * Recent plans by a hash of their limits, in front of the keyed store (one slot per hash): the
 * limits of slot h at planKeys[4h..4h+3] (min, max, turns, 1 for Sluggish; NaN while empty),
 * its plan at planVals[h]. Keys in one typed array, not an object per slot with its fractions
 * boxed: a lookup read the slot object and a heap number per limit, mostly out of cache.
 */
const planKeys = new Float64Array(256 * 4).fill(NaN);
const planVals: Array<CapitalPlan | undefined> = new Array<CapitalPlan | undefined>(256).fill(undefined);

/**
 * capitalPlan for limits given as numbers. A move menu asks for three or four plans, each
 * from limits made for the call (of several object shapes, so their reads were slow) and
 * looked up in a map: the same few limits recur all game, and a slot of a small table,
 * checked field by field, answers them. The plan is the one capitalPlan always gave.
 */
export function capitalPlanOf(min: number, max: number, turns: number, sluggish: boolean): CapitalPlan {
  LIMITS[0] = min;
  LIMITS[1] = max;
  LIMITS[2] = turns;
  LIMITS[3] = sluggish ? 1 : 0;
  return planOfLimits();
}

/**
 * capitalPlanOf for the limits in LIMITS (min, max, turns, 1 for Sluggish): move menus load
 * them there (loadLimits) and ask for the plan without passing them, as numbers passed to a
 * call the compiler does not inline are boxed, each into a new heap number.
 */
export function planOfLimits(): CapitalPlan {
  const min = LIMITS[0], max = LIMITS[1], turns = LIMITS[2], sluggish = LIMITS[3] === 1;
  const h = (Math.imul(Math.round(min * 64), 0x9e3779b1) ^ Math.imul(Math.round(max * 64) * 8 + Math.min(7, turns), 0x85ebca6b)) >>> 24;
  const j = 4 * h, slug = sluggish ? 1 : 0;
  if (planKeys[j] === min && planKeys[j + 1] === max && planKeys[j + 2] === turns && planKeys[j + 3] === slug) {
    const kept = planVals[h];
    if (kept !== undefined) return kept;
  }
  const plan = storedPlan({ min, max, turns, sluggish });
  planKeys[j] = min;
  planKeys[j + 1] = max;
  planKeys[j + 2] = turns;
  planKeys[j + 3] = slug;
  planVals[h] = plan;
  return plan;
}

/** The plan for `lim` from the keyed store, built there on first use. */
function storedPlan(lim: MoveLimits): CapitalPlan {
  const key = Math.round(lim.min * 64) * 8192 + Math.round(lim.max * 64) * 8 + Math.min(7, lim.turns);
  let bucket = menus.get(key);
  if (!bucket) {
    if (menus.size > 4096) menus.clear(); // bounded
    menus.set(key, (bucket = []));
  }
  const sluggish = lim.sluggish === true;
  for (const e of bucket) if (e.min === lim.min && e.max === lim.max && e.turns === lim.turns && e.sluggish === sluggish) return e.plan;
  const plan = buildPlan(buildCapitalMoves(lim));
  bucket.push({ min: lim.min, max: lim.max, turns: lim.turns, sluggish, plan });
  return plan;
}

/** The most steps a capital move has: three straights and two pivots. */
const PATH_MAX = 5;

/**
 * A capital menu's moves as a tree of their steps. The moves of a menu begin alike (the same
 * straight at the start, the same pivot from where the ship stands), and followCapitalMove
 * worked out each shared beginning again for every move: here each distinct step is taken
 * once per menu (followPlan), with the same operations, so every pose is the same to the bit.
 * Node 0 is the start; every other node is one step from its parent (an earlier node): a
 * straight of `dist` (turn 0) or a pivot of `turn`.
 */
export interface CapitalPlan {
  readonly moves: readonly CapitalMove[];
  readonly nodes: number;
  readonly parent: Int32Array;
  readonly turn: Float64Array;
  readonly dist: Float64Array;
  /** 1 where a node has children: its heading's sine and cosine are needed. */
  readonly trig: Uint8Array;
  /** Per move, PATH_MAX slots: its nodes in order, -1 after the last. */
  readonly path: Int32Array;
  /** Per move, its end node. */
  readonly last: Int32Array;
  /** Per move, its straight segments' total (pre + mid + post, summed in that order), and 1 where it turns first or second. */
  readonly straight: Float64Array;
  readonly turnFirst: Uint8Array;
  readonly turnSecond: Uint8Array;
  /** The largest of `straight`. */
  readonly maxStraight: number;
}

function buildPlan(moves: readonly CapitalMove[]): CapitalPlan {
  const parent = [-1], turn = [0], dist = [0];
  const child = (p: number, t: number, d: number): number => {
    for (let k = 1; k < parent.length; k++) if (parent[k] === p && turn[k] === t && dist[k] === d) return k;
    parent.push(p);
    turn.push(t);
    dist.push(d);
    return parent.length - 1;
  };
  const path = new Int32Array(moves.length * PATH_MAX).fill(-1), last = new Int32Array(moves.length);
  for (let i = 0; i < moves.length; i++) {
    const mv = moves[i];
    let cur = 0, j = 0;
    // followCapitalMove's segments: a straight when its length is above 0, then a turn when not 0.
    for (let seg = 0; seg < 3; seg++) {
      const d = seg === 0 ? mv.pre : seg === 1 ? mv.mid : mv.post;
      const t = seg === 0 ? mv.turn1 : seg === 1 ? mv.turn2 : 0;
      if (d > 0) path[i * PATH_MAX + j++] = cur = child(cur, 0, d);
      if (t !== 0) path[i * PATH_MAX + j++] = cur = child(cur, t, 0);
    }
    last[i] = cur;
  }
  const trig = new Uint8Array(parent.length);
  for (let k = 1; k < parent.length; k++) trig[parent[k]] = 1;
  const straight = new Float64Array(moves.length), turnFirst = new Uint8Array(moves.length), turnSecond = new Uint8Array(moves.length);
  let maxStraight = 0;
  for (let i = 0; i < moves.length; i++) {
    const mv = moves[i];
    straight[i] = mv.pre + mv.mid + mv.post;
    turnFirst[i] = mv.turn1 !== 0 ? 1 : 0;
    turnSecond[i] = mv.turn2 !== 0 ? 1 : 0;
    maxStraight = Math.max(maxStraight, straight[i]);
  }
  return { moves, nodes: parent.length, parent: Int32Array.from(parent), turn: Float64Array.from(turn), dist: Float64Array.from(dist), trig, path, last, straight, turnFirst, turnSecond, maxStraight };
}

// followPlan's poses, one node per slot: x, y, heading, distance travelled, the heading's sine
// and cosine, and whether the base there is on the table (0 not yet known, 1 yes, 2 no).
let nodeX = new Float64Array(64), nodeY = new Float64Array(64), nodeH = new Float64Array(64), nodeT = new Float64Array(64);
let nodeS = new Float64Array(64), nodeC = new Float64Array(64);
/**
 * The last followPlan's poses by node (x, y, heading, distance travelled), for callers that read
 * a move's end (at plan.last) themselves where it cannot come near an edge.
 */
export const planNodes = { x: nodeX, y: nodeY, heading: nodeH, travelled: nodeT };
let nodeOn = new Uint8Array(64);

/**
 * Takes every step of `plan` from `from` (on an unbounded table: planMove tests the table's
 * edges), as followCapitalMove and pivot take them. Each move's end is then read by planMove.
 */
export function followPlan(m: BattleModel, from: Pose, plan: CapitalPlan, pivotOnCentre: boolean): void {
  const n = plan.nodes;
  if (n > nodeX.length) {
    nodeX = new Float64Array(2 * n);
    nodeY = new Float64Array(2 * n);
    nodeH = new Float64Array(2 * n);
    nodeT = new Float64Array(2 * n);
    nodeS = new Float64Array(2 * n);
    nodeC = new Float64Array(2 * n);
    nodeOn = new Uint8Array(2 * n);
    planNodes.x = nodeX;
    planNodes.y = nodeY;
    planNodes.heading = nodeH;
    planNodes.travelled = nodeT;
  }
  const X = nodeX, Y = nodeY, Hd = nodeH, T = nodeT, S = nodeS, C = nodeC;
  const parent = plan.parent, turn = plan.turn, dist = plan.dist, trig = plan.trig;
  const L = m.base.length, Wd = m.base.width;
  X[0] = from.x;
  Y[0] = from.y;
  Hd[0] = from.heading;
  T[0] = 0;
  if (from.heading === m.base.heading) {
    // Moves start where the ship stands: its base keeps its heading's sine and cosine (the same
    // sinDeg and cosDeg values), read without a call that boxed the heading passed to it.
    const f = m.base.forward();
    S[0] = f.sin;
    C[0] = f.cos;
  } else {
    S[0] = sinDeg(from.heading);
    C[0] = cosDeg(from.heading);
  }
  nodeOn[0] = 0;
  for (let k = 1; k < n; k++) {
    const p = parent[k], angle = turn[k];
    nodeOn[k] = 0;
    if (angle === 0) {
      // A straight: followCapitalMove's `out.x += d * ux` from the parent's pose.
      const d = dist[k];
      X[k] = X[p] + d * S[p];
      Y[k] = Y[p] + d * C[p];
      Hd[k] = Hd[p];
      T[k] = T[p] + d;
      S[k] = S[p];
      C[k] = C[p];
      continue;
    }
    T[k] = T[p];
    if (pivotOnCentre) {
      X[k] = X[p];
      Y[k] = Y[p];
      Hd[k] = normalizeDeg(Hd[p] + angle);
    } else {
      // pivot(), its operations in its order, the parent heading's sine and cosine known.
      const ux = S[p], uy = C[p], x = X[p], y = Y[p];
      const side = angle > 0 ? 1 : -1;
      const px = x + (ux * L) / 2 + side * (uy * Wd) / 2;
      const py = y + (uy * L) / 2 - side * (ux * Wd) / 2;
      const vx = x - px, vy = y - py;
      const c = cosDeg(angle), s = sinDeg(angle);
      X[k] = px + vx * c + vy * s;
      Y[k] = py - vx * s + vy * c;
      Hd[k] = normalizeDeg(Hd[p] + angle);
    }
    if (trig[k] === 1) {
      S[k] = sinDeg(Hd[k]);
      C[k] = cosDeg(Hd[k]);
    }
  }
}

/** followPlan's node k as a pose (onTableAt's argument). */
const nodePose: Pose = { x: 0, y: 0, heading: 0 };

/** Whether the base at node k of the last followPlan is on the table (onTableAt), found once per node. */
function nodeOnTable(m: BattleModel, k: number, w: number, h: number): boolean {
  let on = nodeOn[k];
  if (on === 0) {
    // A centre farther than the base's reach (and far more than rounding) from every edge
    // keeps each corner inside the table: onTableAt would pass it.
    const x = nodeX[k], y = nodeY[k], r = m.reach + 1e-6;
    if (x - r > 0 && x + r < w && y - r > 0 && y + r < h) {
      nodeOn[k] = 1;
      return true;
    }
    nodePose.x = nodeX[k];
    nodePose.y = nodeY[k];
    nodePose.heading = nodeH[k];
    nodeOn[k] = on = onTableAt(m, nodePose, w, h) ? 1 : 2;
  }
  return on === 1;
}

/**
 * Move i of the plan last followed (followPlan): followCapitalMove's answer for it, its end
 * pose written to `out`, read from the shared steps, its checkpoints tested in order as
 * followCapitalMove tests them. (Callers that know a move stays clear of the edges read its end
 * from planNodes at plan.last themselves.)
 */
export function planMove(m: BattleModel, plan: CapitalPlan, i: number, w: number, h: number, out: Pose, clampOnlyNoted: boolean): { readonly travelled: number; readonly clamped: boolean } {
  const path = plan.path;
  for (let j = i * PATH_MAX, e = j + PATH_MAX; j < e; j++) {
    const k = path[j];
    if (k < 0) break;
    if (nodeOnTable(m, k, w, h)) continue;
    const p = plan.parent[k];
    out.x = nodeX[p];
    out.y = nodeY[p];
    out.heading = nodeH[p];
    if (plan.turn[k] !== 0 || clampOnlyNoted) return done(nodeT[p], true); // a pivot off the table: it stops before it
    // The straight leaves the table: clampStraight reads the corner offsets onTableAt keeps,
    // so the failing test is made again here for this heading (others may have come between).
    nodePose.x = nodeX[k];
    nodePose.y = nodeY[k];
    nodePose.heading = nodeH[k];
    onTableAt(m, nodePose, w, h);
    return clampStraight(m, nodeX[p], nodeY[p], nodeS[p], nodeC[p], plan.dist[k], nodeT[p], w, h, out);
  }
  const k = plan.last[i];
  out.x = nodeX[k];
  out.y = nodeY[k];
  out.heading = nodeH[k];
  return done(nodeT[k], false);
}

function buildCapitalMoves(lim: MoveLimits): CapitalMove[] {
  const ds = [lim.min];
  const mid = (lim.min + lim.max) / 2;
  if (mid > ds[ds.length - 1] + 0.25) ds.push(mid);
  if (lim.max > ds[ds.length - 1] + 0.25) ds.push(lim.max);
  const out: CapitalMove[] = [];
  for (const d of ds) {
    out.push({ pre: d, turn1: 0, mid: 0, turn2: 0, post: 0 });
    if (lim.turns < 1) continue;
    for (const a of [-45, 45]) {
      out.push({ pre: 0, turn1: a, mid: d, turn2: 0, post: 0 });
      if (d > 0) out.push({ pre: d, turn1: a, mid: 0, turn2: 0, post: 0 });
      // A mid-move turn; never for a Sluggish ship (GM-11).
      if (d > 1 && d === lim.max && !lim.sluggish) out.push({ pre: d / 2, turn1: a, mid: d / 2, turn2: 0, post: 0 });
      // Two turns: one at the very start, one at the very end (so a Sluggish ship has it too).
      if (lim.turns >= 2 && d === lim.max) out.push({ pre: 0, turn1: a, mid: d, turn2: a, post: 0 });
    }
  }
  return out;
}

const scratch = new MovingBase('rect', 0, 0, 0, 1, 1);

// Half-length forward and half-width to starboard of the last rectangle tested by onTableAt,
// computed as geometry's loadVertices does (same operations, so the same corners to the bit).
// (Typed-array slots: plain module variables holding doubles would box each new value.)
const rect = new Float64Array([NaN, NaN, NaN, 0, 0, 0, 0]); // heading, length, width, fx, fy, rx, ry

// onTableAt takes the pose as an object and is kept small, the rarer parts in functions of their
// own: a move menu tests some two hundred positions per activation, and a call that V8 does not
// inline would box each coordinate passed as a number into a fresh heap number.
function onTableAt(m: BattleModel, p: Pose, w: number, ht: number): boolean {
  const b = m.base;
  if (b.shape !== 'rect') return shapeOnTableAt(m, p, w, ht);
  const x = p.x, y = p.y, h = p.heading;
  // A capital ship along its move: one heading for many positions, so the corner offsets are kept.
  if (h !== rect[0] || b.length !== rect[1] || b.width !== rect[2]) {
    rect[0] = h;
    loadRectOffsets(b);
  }
  const rfx = rect[3], rfy = rect[4], rrx = rect[5], rry = rect[6];
  const lo = -GEOM_EPSILON, hx = w + GEOM_EPSILON, hy = ht + GEOM_EPSILON;
  let vx = x + rfx + rrx, vy = y + rfy + rry;
  if (vx < lo || vx > hx || vy < lo || vy > hy) return false;
  vx = x + rfx - rrx; vy = y + rfy - rry;
  if (vx < lo || vx > hx || vy < lo || vy > hy) return false;
  vx = x - rfx - rrx; vy = y - rfy - rry;
  if (vx < lo || vx > hx || vy < lo || vy > hy) return false;
  vx = x - rfx + rrx; vy = y - rfy + rry;
  return !(vx < lo || vx > hx || vy < lo || vy > hy);
}

/** onTableAt for a base other than a rectangle (squadrons), through the scratch base. */
function shapeOnTableAt(m: BattleModel, p: Pose, w: number, ht: number): boolean {
  return onTable(baseAt(m, p), w, ht);
}

/** The corner offsets of rectangle `b` at the heading in rect[0] (rect's layout above). */
function loadRectOffsets(b: MovingBase): void {
  const h = rect[0];
  rect[1] = b.length;
  rect[2] = b.width;
  const ux = sinDeg(h), uy = cosDeg(h);
  rect[3] = (ux * b.length) / 2;
  rect[4] = (uy * b.length) / 2;
  rect[5] = (uy * b.width) / 2;
  rect[6] = (-ux * b.width) / 2;
}

/**
 * The t at which the rectangle onTableAt last tested (same heading and size), moved from
 * (x, y) by t·(ux, uy), first puts a corner past a table edge (NaN for other bases): the
 * guide of the clamp bisection.
 */
function tableExit(m: BattleModel, x: number, y: number, ux: number, uy: number, w: number, ht: number): number {
  if (m.base.shape !== 'rect') return NaN;
  const rfx = rect[3], rfy = rect[4], rrx = rect[5], rry = rect[6];
  const lo = -GEOM_EPSILON, hx = w + GEOM_EPSILON, hy = ht + GEOM_EPSILON;
  let t = Infinity;
  for (let k = 0; k < 4; k++) {
    const cx = x + (k < 2 ? rfx : -rfx) + (k === 0 || k === 3 ? rrx : -rrx);
    const cy = y + (k < 2 ? rfy : -rfy) + (k === 0 || k === 3 ? rry : -rry);
    if (ux > 0) t = Math.min(t, (hx - cx) / ux);
    else if (ux < 0) t = Math.min(t, (lo - cx) / ux);
    if (uy > 0) t = Math.min(t, (hy - cy) / uy);
    else if (uy < 0) t = Math.min(t, (lo - cy) / uy);
  }
  return t === Infinity ? NaN : t;
}

/** GM-55: pivot the base about its front corner on the side of the turn (angle > 0: starboard), or its centre. */
export function pivot(m: BattleModel, p: Pose, angle: number, onCentre = false): void {
  if (angle === 0) return;
  if (onCentre) {
    p.heading = normalizeDeg(p.heading + angle);
    return;
  }
  const ux = sinDeg(p.heading), uy = cosDeg(p.heading);
  const side = angle > 0 ? 1 : -1;
  // Front corner on the turn side: centre + half length forward + half width to that side.
  const px = p.x + (ux * m.base.length) / 2 + side * (uy * m.base.width) / 2;
  const py = p.y + (uy * m.base.length) / 2 - side * (ux * m.base.width) / 2;
  const vx = p.x - px, vy = p.y - py;
  const c = cosDeg(angle), s = sinDeg(angle);
  p.x = px + vx * c + vy * s; // rotate clockwise by `angle` (compass frame)
  p.y = py - vx * s + vy * c;
  p.heading = normalizeDeg(p.heading + angle);
}

/**
 * Follows a capital move from `from`, writing the end pose to `out`. Returns the distance
 * actually travelled: the whole move when the base stays on the table at every checkpoint
 * (GM-54), otherwise (clamp, GM-15) the distance to the last point where it was still wholly
 * on the table, where the move ends.
 */
const moveResult = { travelled: 0, clamped: false };
/** The clamp bisection's trial pose. */
const probe: Pose = { x: 0, y: 0, heading: 0 };

/**
 * The result object is shared by every call (read it before calling again): move menus follow
 * dozens of moves per activation. With `clampOnlyNoted`, a move stopped at the table edge is
 * only reported as clamped: its end pose and distance are not worked out (callers that drop
 * such moves, or will follow them again, skip the edge search).
 */
export function followCapitalMove(m: BattleModel, from: Pose, mv: CapitalMove, w: number, h: number, out: Pose, pivotOnCentre = false, clampOnlyNoted = false): { readonly travelled: number; readonly clamped: boolean } {
  out.x = from.x;
  out.y = from.y;
  out.heading = from.heading;
  let travelled = 0;
  for (let seg = 0; seg < 3; seg++) {
    const d = seg === 0 ? mv.pre : seg === 1 ? mv.mid : mv.post;
    const turn = seg === 0 ? mv.turn1 : seg === 1 ? mv.turn2 : 0;
    if (d > 0) {
      const sx = out.x, sy = out.y;
      const ux = sinDeg(out.heading), uy = cosDeg(out.heading);
      out.x += d * ux;
      out.y += d * uy;
      if (!onTableAt(m, out, w, h)) return clampOnlyNoted ? done(travelled, true) : clampStraight(m, sx, sy, ux, uy, d, travelled, w, h, out);
      travelled += d;
    }
    if (turn !== 0) {
      const sx = out.x, sy = out.y, sh = out.heading;
      pivot(m, out, turn, pivotOnCentre);
      if (!onTableAt(m, out, w, h)) {
        out.x = sx;
        out.y = sy;
        out.heading = sh;
        return done(travelled, true);
      }
    }
  }
  return done(travelled, false);
}

/**
 * A straight segment from (sx, sy) along (ux, uy) that leaves the table before its length d:
 * the move ends at the last point where the base is still wholly on it (GM-15). A function of
 * its own: the bisection's test is a closure over the segment, and declaring it in
 * followCapitalMove made every straight segment allocate the closure's variables.
 */
function clampStraight(m: BattleModel, sx: number, sy: number, ux: number, uy: number, d: number, travelled: number, w: number, h: number, out: Pose): typeof moveResult {
  // Straight segments of a convex base inside a rectangle: bisect for the last legal point,
  // guided by where the first corner crosses a table edge.
  const heading = out.heading;
  const lo = guidedBisection(0, d, 20, tableExit(m, sx, sy, ux, uy, w, h), (t) => {
    probe.x = sx + t * ux;
    probe.y = sy + t * uy;
    probe.heading = heading;
    return onTableAt(m, probe, w, h);
  });
  out.x = sx + lo * ux;
  out.y = sy + lo * uy;
  return done(travelled + lo, true);
}

/**
 * How far a capital ship's centre stands from the nearest table edge, less the reach of a
 * corner from the centre and an inch: the room a move has. A move brings a corner nearer the
 * edge by at most the distance it travels (its straight segments) plus a base diameter per
 * pivot (a pivot turns the centre about a corner, by less than the base's reach from it). When
 * that total is below the room, every checkpoint of the move is on the table with room to spare
 * (far above rounding), and onTableAt would pass each of them.
 */
export function roomForMove(m: BattleModel, from: Pose, w: number, h: number): number {
  const edge = Math.min(from.x, w - from.x, from.y, h - from.y);
  return edge - (m.reach + 1);
}

function done(travelled: number, clamped: boolean): typeof moveResult {
  moveResult.travelled = travelled;
  moveResult.clamped = clamped;
  return moveResult;
}

/** The scratch base placed at a pose, for legality checks. */
export function baseAt(m: BattleModel, p: Pose): MovingBase {
  scratch.resize(m.base.shape, m.base.length, m.base.width);
  scratch.set(p.x, p.y, p.heading);
  return scratch;
}

/**
 * For a search from base `b` whose spots are ruled out by any base `o` of `others` (the mover
 * `self` and models off the table left out) lying less than `need(o)` away: the distance from
 * b within which every spot is ruled out. Separation changes by at most the distance a base
 * moves, so a base that stands closer than its need by D at b still does anywhere within D of
 * b (nearestLegal's rMin, with the same margin). 0 when nothing is ruled out at b.
 */
export function ruledOutWithin(b: MovingBase, self: BattleModel, others: readonly BattleModel[], need: (o: BattleModel) => number): number {
  let r = 0;
  for (const o of others) {
    if (o === self || o.where !== 'table') continue;
    const t = need(o);
    if (!separationBelow(b, o.base, t)) continue;
    r = Math.max(r, t - closedFormSeparation(b, o.base) - 1e-9);
  }
  return r;
}

/**
 * Where a model may end a normal move (GM-45 contact, §6.1 / §6.3 spacing): wholly on the
 * table, touching no other base, and for squadrons the version's spacing from capital ships
 * and enemy models. `others` are the present models; the mover itself is skipped.
 */
export function legalEnd(br: BattleRules, m: BattleModel, p: Pose, others: readonly BattleModel[], w: number, h: number): boolean {
  const b = baseAt(m, p);
  if (!onTable(b, w, h)) return false;
  const needs = spacingNeeds(br), mCap = m.unit.isCapital;
  for (const o of others) {
    if (o === m || o.where !== 'table' || o.assaulting === m) continue; // squadrons Assaulting it ride along (§11.4)
    // needOf's value, read from a list that holds it boxed: a need worked out here was
    // boxed anew for every separationAbove call it was passed to.
    const need = needs[needIndex(mCap, o, m)] as number;
    // The scratch base holds p's coordinates: reading them there keeps the read monomorphic
    // (poses come in several object shapes, and a read serving them all boxes its number anew).
    const dx = o.base.x - b.x, dy = o.base.y - b.y;
    const far = need + o.reach + m.reach;
    if (dx * dx + dy * dy > far * far) continue;
    if (!separationAbove(b, o.base, need)) return false;
  }
  return true;
}

/**
 * The separation from a model a mover must keep at the end of a move: above eps, not touching
 * (GM-14 ALLOW_TOUCH: squadrons only not overlapping), and for squadrons the version's
 * spacing from capital ships and enemy models.
 */
function needOf(br: BattleRules, mCapital: boolean, oCapital: boolean, enemy: boolean): number {
  let need = !mCapital && br.squadronTouch ? -GEOM_EPSILON : GEOM_EPSILON;
  if (!mCapital) {
    if (oCapital) need = Math.max(need, br.squadronCapitalSpacing - GEOM_EPSILON);
    if (enemy) need = Math.max(need, br.squadronEnemySpacing - GEOM_EPSILON);
  }
  return need;
}

/** Where spacingNeeds keeps the need of mover `m` (a capital ship or not) from model `o`. */
function needIndex(mCap: boolean, o: BattleModel, m: BattleModel): number {
  return mCap ? 4 : (o.unit.isCapital ? 2 : 0) + (o.side !== m.side ? 1 : 0);
}

/**
 * needOf's five values for one set of battle rules (squadron mover: 2 (other a capital
 * ship) + 1 (an enemy); capital mover: 4), in a list of general elements (the null stored
 * once makes it so; the length then drops it): its numbers are kept boxed, and a read passes
 * the same box on rather than making one.
 */
function spacingNeeds(br: BattleRules): readonly unknown[] {
  if (needsOf !== br) {
    const list: unknown[] = [needOf(br, false, false, false), needOf(br, false, false, true), needOf(br, false, true, false), needOf(br, false, true, true), needOf(br, true, false, false), null];
    list.length = 5;
    needs = list;
    needsOf = br;
  }
  return needs;
}
let needsOf: BattleRules | null = null;
let needs: readonly unknown[] = [];

/**
 * Squadron destinations: straight moves of up to Speed, clamped to the table. The first is
 * where it stands; then for each goal (goal i at gx[i], gy[i], to end gk[i] inches from its
 * centre; with `farOnly`, only goals with an odd index or an index of 6 or more, as
 * moveTiers' Boost filter keeps them) a point towards or away from it and two flanking points
 * at the same distance; then the eight compass points at full Speed. Written to outX, outY
 * (each with room for 9 + 3 ng) without an object per point; returns how many were written.
 */
export function squadronDestinationsInto(m: BattleModel, speed: number, gx: Float64Array, gy: Float64Array, gk: Float64Array, ng: number, farOnly: boolean, w: number, h: number, outX: Float64Array, outY: Float64Array): number {
  const r = m.reach, bx = m.base.x, by = m.base.y;
  let n = 0;
  outX[n] = bx;
  outY[n++] = by;
  for (let i = 0; i < ng; i++) {
    if (farOnly && !(i % 2 === 1 || i >= 6)) continue;
    const dx = gx[i] - bx, dy = gy[i] - by;
    const d = hypot(dx, dy);
    if (d < 1e-9) continue;
    const want = Math.max(-speed, Math.min(speed, d - gk[i]));
    let x = bx + (dx / d) * want, y = by + (dy / d) * want;
    outX[n] = Math.min(w - r, Math.max(r, x));
    outY[n++] = Math.min(h - r, Math.max(r, y));
    const side = Math.min(speed, 4);
    x = bx + (dx / d) * want * 0.7 + (-dy / d) * side;
    y = by + (dy / d) * want * 0.7 + (dx / d) * side;
    outX[n] = Math.min(w - r, Math.max(r, x));
    outY[n++] = Math.min(h - r, Math.max(r, y));
    x = bx + (dx / d) * want * 0.7 + (dy / d) * side;
    y = by + (dy / d) * want * 0.7 - (dx / d) * side;
    outX[n] = Math.min(w - r, Math.max(r, x));
    outY[n++] = Math.min(h - r, Math.max(r, y));
  }
  for (let k = 0; k < 8; k++) {
    const x = bx + speed * sinDeg(k * 45), y = by + speed * cosDeg(k * 45);
    outX[n] = Math.min(w - r, Math.max(r, x));
    outY[n++] = Math.min(h - r, Math.max(r, y));
  }
  return n;
}

/**
 * nearestLegal's test of a spot for squadron `m`: legalEnd's answer against `near`, from its
 * own copy of legalEnd's loop (which also names the base that turns a spot down). The same rule
 * as rMin: a spot turned down because a base stands too close to it (by a depth D: its spacing
 * less their separation) is turned down for the same reason anywhere within D of it, and the
 * ring search tries many spots that close together. So a few such discs
 * are kept (p's own, of radius rMin, first), and a spot inside one is turned down without the
 * test; every other answer is legalEnd's, so the search stops at the same spot.
 */
function squadronSpotTest(br: BattleRules, m: BattleModel, p: Pose, near: readonly BattleModel[], w: number, h: number, rMin: number): (q: Pose) => boolean {
  const discs = ruledOutDiscs, needs = spacingNeeds(br);
  let nd = 0, next = 0;
  if (rMin > 0.02) {
    // p's own disc: nearestLegal's search starts beside p.
    discs[0] = p.x;
    discs[1] = p.y;
    discs[2] = rMin;
    nd = next = 3;
  }
  return (q: Pose): boolean => {
    const qx = q.x, qy = q.y;
    for (let i = 0; i < nd; i += 3) {
      const dx = qx - discs[i], dy = qy - discs[i + 1], r = discs[i + 2];
      if (dx * dx + dy * dy < r * r) return false;
    }
    // legalEnd's test (near holds no off-table model, nor m), which also names the base that
    // turns the spot down, so the disc is sized without a second pass over the near models.
    const b = baseAt(m, q);
    if (!onTable(b, w, h)) return false; // turned down by the table's edge: no disc
    for (const o of near) {
      if (o.assaulting === m) continue;
      const need = needs[needIndex(false, o, m)] as number;
      const dx = o.base.x - b.x, dy = o.base.y - b.y;
      const far = need + o.reach + m.reach;
      if (dx * dx + dy * dy > far * far || separationAbove(b, o.base, need)) continue;
      // Turned down by a base too close: its depth makes a disc.
      const depth = need - closedFormSeparation(b, o.base) - 1e-9;
      if (depth > 0.02) {
        discs[next] = qx;
        discs[next + 1] = qy;
        discs[next + 2] = depth;
        next = next + 3 === discs.length ? 0 : next + 3;
        if (nd < discs.length) nd += 3;
      }
      return false;
    }
    return true;
  };
}
/** nearestLegal's list of the models near its search. */
const nearScratch: BattleModel[] = [];

/** squadronSpotTest's discs of spots turned down: centre x, y and radius, 16 of them (one search at a time). */
const ruledOutDiscs = new Float64Array(48);

/**
 * Nearest legal position to (x, y) within `maxShift` (GM-65 placement: smallest displacement,
 * ties to the smallest bearing clockwise from 0°); null when there is none. With
 * `spacingOverride`, the caller may give `skipBelow`: a distance from p within which its test
 * fails for certain (see rMin below), whose rings are then not tried.
 */
export function nearestLegal(br: BattleRules, m: BattleModel, p: Pose, others: readonly BattleModel[], w: number, h: number, maxShift: number, spacingOverride?: (q: Pose) => boolean, skipBelow = 0): Pose | null {
  if (spacingOverride ? spacingOverride(p) : legalEnd(br, m, p, others, w, h)) return { x: p.x, y: p.y, heading: p.heading };
  // The search may test hundreds of spots: only models that could come within reach of one
  // of them need checking (legalEnd skips the others anyway, after measuring).
  let ok = spacingOverride;
  // Spots nearer p than rMin are illegal for certain: separation changes by at most the
  // distance a base moves, so a base that overlaps a model by depth D at p (or stands too
  // close to it) is still too close anywhere within (spacing + D) of p. Those rings are skipped.
  let rMin = spacingOverride ? +skipBelow : 0; // a number made here: the argument kept rMin boxed
  if (!ok) {
    const spacing = Math.max(br.squadronCapitalSpacing, br.squadronEnemySpacing, 0) + 1;
    // The list is reused search after search (only this search's tests read it).
    const near = nearScratch;
    while (near.length > 0) near.pop(); // emptied by pops: a store to length is a call into the runtime
    for (const o of others) if (o !== m && o.where === 'table' && hypot(o.base.x - p.x, o.base.y - p.y) <= maxShift + o.reach + m.reach + spacing) near.push(o);
    const b = baseAt(m, p);
    const needs = spacingNeeds(br), mCap = m.unit.isCapital;
    for (const o of near) {
      if (o.assaulting === m) continue;
      const need = needs[needIndex(mCap, o, m)] as number;
      if (!separationBelow(b, o.base, need)) continue; // nothing to rule out
      rMin = Math.max(rMin, need - closedFormSeparation(b, o.base) - 1e-9);
    }
    ok = m.unit.isCapital ? (q: Pose) => legalEnd(br, m, q, near, w, h) : squadronSpotTest(br, m, p, near, w, h, rMin);
  }
  const q: Pose = { x: 0, y: 0, heading: p.heading };
  for (let r = 0.05; r <= maxShift + 1e-9; r += 0.05) {
    if (r < rMin) continue;
    for (let b = 0; b < 360; b += 10) {
      q.x = p.x + r * sinDeg(b);
      q.y = p.y + r * cosDeg(b);
      if (ok(q)) return { ...q };
    }
  }
  return null;
}
