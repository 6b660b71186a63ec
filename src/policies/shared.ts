// What the heuristic policies share (aggressive, standoff, scripted, lookahead): the common
// parameters and the decisions made from them, and the cheap measures they score with.
import type { BattleModel } from '../engine/battle/model.js';
import type { Pose } from '../engine/battle/movement.js';
import type { ActionName, DeployCandidates, MoveOption, ParamSpec, PolicyView } from './types.js';
import { hypot } from '../engine/geometry.js';

/**
 * The parameters every heuristic policy reads through `wantsByParams`, `holdBack` and
 * deployment, with per-policy defaults.
 */
export const commonParams = (deployDepth: number, withdrawAt: number, ram: number, concentrate: number, strike: number): Record<string, ParamSpec> => ({
  intercept: { default: 1, min: 0, max: 1, integer: true, summary: '1: squadrons intercept enemy squadrons in reach (actively), and against enemy bombing and assaults (passively)' },
  bomb: { default: strike, min: 0, max: 1, integer: true, summary: '1: squadrons make bombing runs on enemy capital ships they can reach' },
  assault: { default: strike, min: 0, max: 1, integer: true, summary: '1: Exo-Armor squadrons assault enemy capital ships they can reach (v1.2.2)' },
  engage_pd: { default: 1, min: 0, max: 1, integer: true, summary: '1: capital ships declare Engage Point Defense when enemy squadrons are within 3" (v1.2.2)' },
  board: { default: strike, min: 0, max: 1, integer: true, summary: '1: capital ships with Marines board an enemy capital ship within 1" when they have more Marines than it; under v1.2.1 Exo-Armor squadrons board ships they can reach' },
  deploy_depth: { default: deployDepth, min: 0, max: 1, summary: 'where in its deployment zone a model is placed: 0 at the back, 1 at the front' },
  withdraw_at: { default: withdrawAt, min: 0, max: 20, integer: true, summary: 'a capital ship declares Withdraw once its Structure is at or below this (0: never)' },
  ram: { default: ram, min: 0, max: 1, integer: true, summary: '1: a model down to 1 Structure rams when it can reach a target: a capital ship rams an enemy capital ship in its front arc, a squadron any enemy model' },
  concentrate: { default: concentrate, min: 0, max: 1, integer: true, summary: '1: declare Concentrated Fire when the first target is a capital ship and at least two attacks bear on it' },
  evade: { default: 1, min: 0, max: 1, integer: true, summary: '1: declare Evade when the model will not attack this activation and the enemy can reach it' },
  repair: { default: 1, min: 0, max: 1, integer: true, summary: '1: a model with the Repair trait declares Repair when it has a lost box to restore (only with option enable_repair=YES, GM-19)' },
  hold_squadrons: { default: 0, min: 0, max: 60, integer: true, summary: 'squadrons kept In Reserve (the last in the fleet list) instead of deploying at the start' },
  hold_until: { default: 2, min: 2, max: 50, integer: true, summary: 'the turn whose Deployment Phase brings the reserved squadrons in' },
  embark: { default: 0, min: 0, max: 60, integer: true, summary: 'squadrons deployed Embarked on a friendly carrier with room instead of on the table, where the deployment allows it (GM-18, GM-86; option reserve_embark_rule); they Launch in their own activation' },
});

/**
 * The index with the best key (highest when `high`, else lowest; ties to the lower index)
 * among those `legal` accepts, asking about as few as possible; -1 when none is legal.
 */
export function firstLegal(keys: ArrayLike<number>, legal: (i: number) => boolean, high: boolean, n = keys.length): number {
  // Only keys[0 .. n - 1] count: pickMove's scratch keeps entries of longer menus past its end.
  if (n === 0) return -1;
  // The best key is usually legal: ask before keeping any record of the ones ruled out.
  let top = 0;
  // The index by arithmetic on the comparison, not a branch on it: the scores of a menu come
  // in no order a branch predictor could follow (the same index: the first of the best).
  for (let i = 1; i < n; i++) {
    const c = high ? +(keys[i] > keys[top]) : +(keys[i] < keys[top]);
    top = i * c + top * (1 - c);
  }
  if (legal(top)) return top;
  // Many menus rule out several of their best moves: the record of those ruled out is a
  // scratch array kept between calls (one made per call was a steady share of the garbage).
  // It is taken while in use, so a `legal` that itself called firstLegal would get one of its own.
  // The search stays in this function: in a function of its own, inlined here, it used up the
  // inlining budget that V8 otherwise spends on the `legal` tests (legalEnd).
  let out = ruledOutScratch;
  ruledOutScratch = null;
  if (out === null || out.length < n) out = new Uint8Array(Math.max(64, 2 * n));
  else out.fill(0, 0, n);
  out[top] = 1;
  let found = -1;
  for (let left = n - 1; left > 0; left--) {
    // The first index not ruled out starts the search (there is one: `left` of them remain),
    // its key kept in a local (the same comparisons, NaN keys included, without reading
    // keys[best] again for each), and one loop for each direction (not a test of `high` per key).
    let best = 0;
    while (out[best] !== 0) best++;
    let bestKey = keys[best];
    if (high) {
      for (let i = best + 1; i < n; i++) {
        if (out[i] !== 0) continue;
        const k = keys[i];
        if (k > bestKey) {
          best = i;
          bestKey = k;
        }
      }
    } else {
      for (let i = best + 1; i < n; i++) {
        if (out[i] !== 0) continue;
        const k = keys[i];
        if (k < bestKey) {
          best = i;
          bestKey = k;
        }
      }
    }
    if (legal(best)) {
      found = best;
      break;
    }
    out[best] = 1;
  }
  ruledOutScratch = out;
  return found;
}

/** firstLegal's record of the indices ruled out, between calls. */
let ruledOutScratch: Uint8Array | null = null;

export function nearestEnemyDistance(view: PolicyView, m: BattleModel, p: Pose): number {
  let best = Infinity;
  // The pose is read once: a property read that serves poses of several object shapes boxes its number anew.
  const px = p.x, py = p.y;
  for (const e of view.nearestEnemies(m)) {
    const dx = e.base.x - px, dy = e.base.y - py;
    const d = Math.sqrt(dx * dx + dy * dy) - e.bulk - m.bulk;
    if (d < best) best = d;
  }
  return best === Infinity ? 0 : Math.max(0, best);
}

/** Scratch of nearestEnemyDistances: each near enemy's position and bulk. */
let enX = new Float64Array(8), enY = new Float64Array(8), enBulk = new Float64Array(8);

/**
 * nearestEnemyDistance(view, m, options[j].pose) for every move option j, written to out[j] (entries from options.length on are left as they were):
 * the same arithmetic, with the few near enemies read once for the whole menu, and for each
 * option the enemies met in the same order (its minimum kept in a local, not in out).
 */
export function nearestEnemyDistances(view: PolicyView, m: BattleModel, options: readonly MoveOption[], out: number[]): void {
  const k = options.length;
  const near = view.nearestEnemies(m);
  const n = near.length;
  if (n > enX.length) {
    enX = new Float64Array(2 * n);
    enY = new Float64Array(2 * n);
    enBulk = new Float64Array(2 * n);
  }
  for (let i = 0; i < n; i++) {
    const e = near[i];
    enX[i] = e.base.x;
    enY[i] = e.base.y;
    enBulk[i] = e.bulk;
  }
  const mBulk = m.bulk;
  // Refilled in place, and not cut to length either (MENU_STORE in battleState): emptying or
  // shortening the array can drop its backing store, and the next long menu allocated it again.
  // The minimum by arithmetic rather than a branch on each comparison (see firstLegal): with c
  // 0 or 1, d c + best (1 - c) is exactly d or best for finite values, none of them -0 (a
  // square root less positive bulks is never -0), the first enemy's value taken as it is.
  for (let j = 0; j < k; j++) {
    const p = options[j].pose;
    const px = p.x, py = p.y;
    if (n === 0) {
      out[j] = 0; // no enemy: 0, as nearestEnemyDistance says
      continue;
    }
    let dx = enX[0] - px, dy = enY[0] - py;
    let best = Math.sqrt(dx * dx + dy * dy) - enBulk[0] - mBulk;
    for (let i = 1; i < n; i++) {
      dx = enX[i] - px;
      dy = enY[i] - py;
      const d = Math.sqrt(dx * dx + dy * dy) - enBulk[i] - mBulk;
      const c = +(d < best);
      best = d * c + best * (1 - c);
    }
    out[j] = Math.max(0, best);
  }
}

/**
 * nearestEnemyDistances(view, m, options, dists) and objectiveValues(view, options, objs) at
 * once. In the usual case, three near enemies (nearestEnemies gives three whenever the enemy
 * has three) and at most two markers, one pass over the menu reads each end position once and
 * the enemies and markers from locals, with the same operations in the same order as those two
 * (a marker that is not there is one never within reach: it adds nothing, as in markersValue).
 * Reading them from typed arrays for every option, in loops, cost some 10% more. Else those two.
 */
export function menuMeasures(view: PolicyView, m: BattleModel, options: readonly MoveOption[], dists: number[], objs: number[]): void {
  const near = view.nearestEnemies(m);
  const nm = loadMarkers(view);
  if (near.length !== 3 || nm > 2) {
    nearestEnemyDistances(view, m, options, dists);
    objectiveValues(view, options, objs);
    return;
  }
  const e0 = near[0], e1 = near[1], e2 = near[2];
  const ex0 = e0.base.x, ey0 = e0.base.y, eb0 = e0.bulk;
  const ex1 = e1.base.x, ey1 = e1.base.y, eb1 = e1.bulk;
  const ex2 = e2.base.x, ey2 = e2.base.y, eb2 = e2.bulk;
  const mBulk = m.bulk;
  // A squared distance is never below -1: an absent marker is always beyond reach.
  const x0 = mkX[0], y0 = mkY[0], r0 = mkR[0], pts0 = mkPts[0], pull0 = mkPull[0], far0 = nm > 0 ? mkFar2[0] : -1;
  const x1 = mkX[1], y1 = mkY[1], r1 = mkR[1], pts1 = mkPts[1], pull1 = mkPull[1], far1 = nm > 1 ? mkFar2[1] : -1;
  for (let j = 0; j < options.length; j++) {
    const p = options[j].pose;
    const px = p.x, py = p.y;
    // The nearest enemy (nearestEnemyDistances with its three near enemies).
    let dx = ex0 - px, dy = ey0 - py;
    let best = Math.sqrt(dx * dx + dy * dy) - eb0 - mBulk;
    dx = ex1 - px;
    dy = ey1 - py;
    let d = Math.sqrt(dx * dx + dy * dy) - eb1 - mBulk;
    let c = +(d < best);
    best = d * c + best * (1 - c);
    dx = ex2 - px;
    dy = ey2 - py;
    d = Math.sqrt(dx * dx + dy * dy) - eb2 - mBulk;
    c = +(d < best);
    best = d * c + best * (1 - c);
    dists[j] = Math.max(0, best);
    // The two markers (markersValue).
    let v = 0;
    dx = x0 - px;
    dy = y0 - py;
    if (!(dx * dx + dy * dy > far0)) {
      const h = hypot(dx, dy) - r0;
      if (h <= 0) v += pts0;
      else v += pull0 * Math.max(0, 1 - h / 24);
    }
    dx = x1 - px;
    dy = y1 - py;
    if (!(dx * dx + dy * dy > far1)) {
      const h = hypot(dx, dy) - r1;
      if (h <= 0) v += pts1;
      else v += pull1 * Math.max(0, 1 - h / 24);
    }
    objs[j] = v;
  }
}

/**
 * A policy's target order, built one enemy at a time: `e` with score `s` goes into `out` at its
 * place (best score first, ties by fleet, then index), and only when s > 0 (a target worth a
 * shot). That orders any two targets one way, so the list is the one sorting all of them and
 * keeping those would give. `scores` is the caller's scratch, holding each kept score at its
 * target's index (an object per target, a comparator and a mapped copy are not needed).
 */
export function insertTarget(out: BattleModel[], scores: number[], e: BattleModel, s: number): void {
  if (!(s > 0)) return;
  let j = out.length;
  for (; j > 0; j--) {
    const o = out[j - 1];
    if (!(scores[j - 1] < s || (scores[j - 1] === s && (o.fleet > e.fleet || (o.fleet === e.fleet && o.index > e.index))))) break;
    out[j] = o;
    scores[j] = scores[j - 1];
  }
  out[j] = e;
  scores[j] = s;
}

/** PolicyView.firepower (the engine computes it with per-enemy constants kept between moves). */
export function firepower(view: PolicyView, m: BattleModel, p: Pose, focus: number): number {
  return view.firepower(m, p, focus);
}

/** Share of its firepower a model keeps at the end of move `o`: half when that move is a Boost that halves its Fire Control (GM-60). */
export function boostFactor(view: PolicyView, m: BattleModel, o: MoveOption): number {
  return o.action === 'boost' && view.boostHalvesFc(m) ? 0.5 : 1;
}

/**
 * Objective value of ending a move at p: the marker's points when inside its radius (it can
 * be held at the next End Phase), and a pull towards markers still to be reached (up to a
 * third of that, fading to nothing 24" beyond the radius).
 */
export function objectiveValue(view: PolicyView, p: Pose): number {
  return markersValue(p.x, p.y, loadMarkers(view));
}

/**
 * objectiveValue(view, options[j].pose) for every move option j, written to out[j] (entries
 * from options.length on are left as they were): the markers are read once for the menu.
 */
export function objectiveValues(view: PolicyView, options: readonly MoveOption[], out: number[]): void {
  const n = loadMarkers(view);
  // markersValue written out (the same operations in the same order): V8 did not inline it
  // here, and each call boxed the position's two numbers and its answer into heap numbers.
  for (let j = 0; j < options.length; j++) {
    const p = options[j].pose;
    const px = p.x, py = p.y;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const dx = mkX[i] - px, dy = mkY[i] - py;
      if (dx * dx + dy * dy > mkFar2[i]) continue;
      const d = hypot(dx, dy) - mkR[i];
      if (d <= 0) v += mkPts[i];
      else v += mkPull[i] * Math.max(0, 1 - d / 24);
    }
    out[j] = v;
  }
}

/**
 * The markers that count this turn, in list order, in typed arrays (mk*): each one's position,
 * radius, points, the pull's full value (points / 3) and the squared distance beyond which it
 * adds nothing. Worked out by the same operations as before, so each is the same number.
 */
let mkX = new Float64Array(4), mkY = new Float64Array(4), mkR = new Float64Array(4), mkPts = new Float64Array(4), mkPull = new Float64Array(4), mkFar2 = new Float64Array(4);
function loadMarkers(view: PolicyView): number {
  const list = view.objectives;
  if (list.length > mkX.length) {
    const size = 2 * list.length;
    mkX = new Float64Array(size);
    mkY = new Float64Array(size);
    mkR = new Float64Array(size);
    mkPts = new Float64Array(size);
    mkPull = new Float64Array(size);
    mkFar2 = new Float64Array(size);
  }
  let n = 0;
  for (const o of list) {
    if (view.turn + 2 < o.fromTurn) continue;
    const far = o.radius + 24;
    mkX[n] = o.x;
    mkY[n] = o.y;
    mkR[n] = o.radius;
    mkPts[n] = o.points;
    mkPull[n] = o.points / 3;
    mkFar2[n++] = far * far * (1 + 1e-9);
  }
  return n;
}

/** The objective value at (px, py) of the first n markers loadMarkers holds. */
function markersValue(px: number, py: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    // Beyond 24" past the radius a marker adds exactly nothing: skip the square root there.
    const dx = mkX[i] - px, dy = mkY[i] - py;
    if (dx * dx + dy * dy > mkFar2[i]) continue;
    const d = hypot(dx, dy) - mkR[i];
    // Two additions rather than one of a choice between the marker's points and the pull:
    // V8 boxed such a choice (a whole number as read, or a float) into a new heap number.
    if (d <= 0) v += mkPts[i];
    else v += mkPull[i] * Math.max(0, 1 - d / 24);
  }
  return v;
}

export function withdrawWanted(m: BattleModel, at: number): boolean {
  if (!m.unit.isCapital) return m.state.crippled && at > 0;
  return at > 0 && m.state.structure <= at;
}

/** What a heuristic policy declares, from its parameters (see commonParams). */
export function wantsByParams(p: Readonly<Record<string, number>>, view: PolicyView, m: BattleModel, action: Exclude<ActionName, 'none'>): boolean {
  switch (action) {
    case 'ram':
      return p.ram === 1;
    case 'withdraw':
      return withdrawWanted(m, p.withdraw_at);
    case 'concentrated_fire':
      return p.concentrate === 1;
    case 'evade':
      return p.evade === 1 && view.threat(m, m.base) > 0;
    case 'station_keep':
    case 'boost':
    case 'return_to_base':
      return true;
    case 'intercept':
      return p.intercept === 1;
    case 'bombing':
      return p.bomb === 1;
    case 'assault':
      return p.assault === 1;
    case 'engage_point_defence':
      return p.engage_pd === 1;
    case 'board':
      return p.board === 1;
    case 'repair':
      return p.repair === 1 && !withdrawWanted(m, p.withdraw_at); // leaving comes first
  }
}


/** Squadrons held In Reserve and deployed Embarked, from the parameters hold_squadrons, hold_until and embark. */
export function holdBackOf(p: Readonly<Record<string, number>>): { squadrons: number; untilTurn: number; embark: number } {
  return { squadrons: p.hold_squadrons, untilTurn: p.hold_until, embark: p.embark };
}

/** The legal deployment spot nearest the wanted depth (ties: candidate order, centre outwards); -1 if none. */
export function pickByDepth(candidates: DeployCandidates, legal: (i: number) => boolean, depth: number): number {
  const n = candidates.length;
  // An engine list (one with a version) holds the walk in its memo slot, a field read instead
  // of a WeakMap lookup; any other list's walk is found by the list in depthWalks.
  const engine = candidates.version !== undefined;
  let w = engine ? (candidates.memo as DepthWalk | undefined) : depthWalks.get(candidates);
  if (w === undefined || w.fronts.length !== n) {
    w = new DepthWalk(n);
    if (engine) candidates.memo = w;
    else depthWalks.set(candidates, w);
  }
  // The order found so far serves while the list holds the depths it was found from (the
  // engine offers the same list object again for the same spots: a strip or corner zone's
  // every time, a set of beacons' within a game, refilled with the next game's spots).
  // A list with a version (the engine's) holds the same fronts while its version is the one
  // the order was found at: one comparison instead of reading every candidate.
  const fronts = w.fronts, version = candidates.version;
  let same = depth === w.depth;
  if (version === undefined) {
    for (let i = 0; same && i < n; i++) if (candidates[i].front !== fronts[i]) same = false;
  } else if (version !== w.version) same = false;
  if (!same) {
    const keys = w.keys;
    let nan = false;
    for (let i = 0; i < n; i++) {
      const f = candidates[i].front;
      const k = Math.abs(f - depth);
      fronts[i] = f;
      keys[i] = k;
      if (k !== k) nan = true;
    }
    w.len = 0;
    w.done = false;
    w.version = version === undefined ? NaN : version;
    // A key that is not a number (no order): firstLegal's search, and no order is kept.
    w.depth = nan ? NaN : depth;
    if (nan) return firstLegal(keys, legal, false, n);
  }
  const order = w.order;
  for (let k = 0; ; k++) {
    if (k === w.len && !extendWalk(w)) return -1;
    const i = order[k];
    if (legal(i)) return i;
  }
}

/**
 * pickByDepth's record for one candidate list: the depths it last held and the wanted depth
 * (NaN: none kept), each candidate's key, and the order in which firstLegal would ask about them
 * (lowest key first, ties to the lower index) as far as it was needed: order[0 .. len - 1],
 * extended a batch at a time (extendWalk), all of it once `done`. A call that finds the same
 * depths asks along that order with no scan of the list; most calls stop in the first batch.
 */
class DepthWalk {
  depth = NaN;
  /** The list's version when its fronts were read (NaN: it had none). */
  version = NaN;
  len = 0;
  done = false;
  readonly fronts: Float64Array;
  readonly keys: Float64Array;
  readonly order: Int32Array;
  constructor(n: number) {
    this.fronts = new Float64Array(n);
    this.keys = new Float64Array(n);
    this.order = new Int32Array(n);
  }
}

/**
 * Appends to the walk's order the next NEAREST_BATCH indices (the best after the last one in
 * the order, by insertion into a batch), or all that are left; false when none was left.
 */
function extendWalk(w: DepthWalk): boolean {
  if (w.done) return false;
  const keys = w.keys, n = keys.length, bk = batchKeys;
  // The last index in the order and its key (none yet: every key, never NaN here, is after it).
  const lastI = w.len > 0 ? w.order[w.len - 1] : -1, lastK = w.len > 0 ? keys[lastI] : -Infinity;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (k < lastK || (k === lastK && i <= lastI)) continue; // in the order already
    if (m === NEAREST_BATCH && k >= bk[m - 1]) continue;
    sortIn(m < NEAREST_BATCH ? m++ : m - 1, k, i);
  }
  const order = w.order, bi = batchIdx;
  for (let j = 0; j < m; j++) order[w.len++] = bi[j];
  if (m < NEAREST_BATCH) w.done = true;
  return m > 0;
}

/**
 * The walks by list, held weakly: a list a caller made for one call dies young with its
 * entry. (A Map kept such lists alive, and each was copied out of the young generation.)
 */
const depthWalks = new WeakMap<DeployCandidates, DepthWalk>();

/**
 * How many indices extendWalk adds to an order per scan of the list: most searches stop in the
 * first batch, and a deployment that rules out more spots scans again from the last one added.
 */
const NEAREST_BATCH = 8;
/** extendWalk's batch: keys and indices, best first. */
const batchKeys = new Float64Array(NEAREST_BATCH), batchIdx = new Int32Array(NEAREST_BATCH);

/** Puts key k of index i into extendWalk's batch at slot j or before it, behind every key not above k (the slots from j on are free or dropped). */
function sortIn(j: number, k: number, i: number): void {
  const bk = batchKeys, bi = batchIdx;
  for (; j > 0 && bk[j - 1] > k; j--) {
    bk[j] = bk[j - 1];
    bi[j] = bi[j - 1];
  }
  bk[j] = k;
  bi[j] = i;
}

/** Index of the point nearest (tx, ty) (ties: the first); beacon placement. */
export function nearestPoint(points: ReadonlyArray<{ x: number; y: number }>, tx: number, ty: number): number {
  let best = 0;
  let bestD = Infinity;
  // A loop rather than forEach: its closure was made (with tx and ty boxed) for every beacon.
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const d = hypot(p.x - tx, p.y - ty);
    if (d < bestD) {
      best = i;
      bestD = d;
    }
  }
  return best;
}
