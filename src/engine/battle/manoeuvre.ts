// Moving models in a battle (game.md §6, seed 002): the move menu offered to policies,
// Return to Base and Withdraw moves, leaving the table, ramming, and overlaps after forced moves.
import { BEST_MAG, MAG_D } from '../../dice/outcome.js';
import { resolvePool } from '../../dice/pool.js';
import type { ActionName, MoveOption, Policy } from '../../policies/types.js';
import { GEOM_EPSILON, GUIDE_MARGIN, type Base, baseInRect, cosDeg, hypot, onTable, overlapSpan, overlapping, separation, separationAbove, separationBelow, sinDeg } from '../geometry.js';
import { aspect, aspectOfArc, contactInArc, headOn, longRangeMax } from '../geometryArcs.js';
import { planRam, rollRam } from '../ram.js';
import { BattleModel, MovingBase } from './model.js';
import { LIMITS, baseAt, capitalLimits, followCapitalMove, followPlan, legalEnd, loadLimits, moveOption, nearestLegal, planMove, planNodes, planOfLimits, roomForMove, ruledOutWithin, squadronDestinationsInto, type CapitalPlan, type Pose } from './movement.js';
import type { TraceActivation } from './battleTypes.js';
import { SPAN_OUT, cutTo } from './battleState.js';
import { BattleDeployment } from './deployment.js';

/** What clearNear says of the third bases near a span of spots. */
export const NEAR_CLEAR = 0, NEAR_BLOCKED = 1, NEAR_OPEN = 2;

/** A move option of the reused menus (moveTiers): MoveOption's fields, in its order, writable. */
interface PooledOption {
  pose: Pose;
  action: ActionName;
  travelled: number;
  fuel: number | undefined;
  failPose: Pose | undefined;
}

export abstract class BattleManoeuvre extends BattleDeployment {
  /** Bookkeeping after damage (firing.ts): removal of destroyed models; v1.2.1 immediate end (GM-52). */
  protected abstract afterDamage(m: BattleModel): boolean;
  /** Land (GM-18, squadronOps.ts): in base contact with the carrier, it becomes Embarked. */
  protected abstract land(m: BattleModel, carrier: BattleModel, rec: TraceActivation | null): void;
  /** Squadrons Assaulting a ship that moved ride with it (§11.4, squadronOps.ts); whether there were any. */
  protected abstract carryAssaulters(ship: BattleModel, rec: TraceActivation | null): boolean;

  /** A Skill Test with `dice` dice (at most 10): passed on [D+]. */
  protected skillTest(dice: number): boolean {
    const n = Math.max(0, Math.min(dice, 10));
    if (n === 0) return false;
    let pool = this.testPools.get(n);
    if (!pool) {
      pool = resolvePool(this.rules.dice, { base: n });
      this.testPools.set(n, pool);
    }
    return BEST_MAG[this.roller.unopposed(pool, this.dice)] >= MAG_D;
  }

  /**
   * The move menu of a model this activation, in tiers: normal moves whose path stays on the
   * table; if none of those may legally end where it does, moves clamped at the table edge
   * (GM-15); if none of those either, forced minimum moves (GM-66, `forcedMoves`) whose
   * overlap is resolved afterwards. End positions are checked only when a policy asks
   * (`legal`), best first.
   */
  protected moveTiers(m: BattleModel, allowStationKeep: boolean, allowBoost = true, withClamped = true, clampedOnly = false): MoveOption[][] {
    const W = this.width, H = this.height;
    // A squadron's menu in a method of its own: within moveTiers the compiler's inlining
    // budget ran out before its hypot and pooledOption calls, which then boxed their numbers.
    if (!m.unit.isCapital) return this.squadronMenu(m, allowBoost);
    this.optUsed = 0;
    // The limits as numbers (loadLimits: capitalLimits without the object), kept in locals
    // before a Boost's limits are loaded over them.
    loadLimits(this.br, m, false, m.unit.speed);
    const min = LIMITS[0], max = LIMITS[1], turns = LIMITS[2], sluggish = LIMITS[3] === 1;
    // A capital ship's tiers are the instance's own arrays, refilled in place (menuN/clampedN
    // count what this call wrote; the lengths are cut at the end): a menu lives only until
    // the next moveTiers call anyway, as its options are pooled.
    const out = this.menuOut;
    this.menuN = 0;
    this.clampedN = 0;
    // Without `withClamped` the clamped moves are only counted (clampedDropped), not placed.
    const clamped: MoveOption[] | undefined = withClamped ? this.menuClamped : undefined;
    this.clampedDropped = 0;
    // With `clampedOnly` (chooseMove, once the normal moves offered nothing legal) only the
    // clamped tier is placed: the normal moves are neither placed nor, where they stay clear of
    // the edges, followed (the Thrusters-0 moves are normal moves).
    const normal = clampedOnly ? null : out;
    // followMoves called directly: a closure for the calls below was made (with its context) per menu.
    this.followMoves(m, planOfLimits(), 'none', normal, clamped); // the limits loaded above
    if (!clampedOnly && this.br.capitalMove === 'thrusters_band' && turns === 0 && m.state.thrusters === 0 && m.unit.turns >= 1) {
      // GM-12: at Thrusters 0 one turn is possible after a passed Skill Test; each such move
      // carries the pose the ship reaches going straight when the test fails.
      // The turning moves are read off the plan's shared steps (followPlan, planMove: the same
      // poses as followCapitalMove's); the straight a failed test leaves is followed once per
      // length (the plan lists the moves of one length together), not once per move.
      const from = this.followFrom;
      from.x = m.base.x;
      from.y = m.base.y;
      from.heading = m.base.heading;
      const end = this.followEnd, straight = this.straightEnd, line = this.straightMove;
      LIMITS[0] = min;
      LIMITS[1] = max;
      LIMITS[2] = 1;
      LIMITS[3] = sluggish ? 1 : 0;
      const plan = planOfLimits();
      followPlan(m, from, plan, this.br.pivotOnCentre);
      let length = NaN;
      for (let i = 0; i < plan.moves.length; i++) {
        if (plan.turnFirst[i] === 0 && plan.turnSecond[i] === 0) continue;
        const r = planMove(m, plan, i, W, H, end, true);
        if (r.clamped) continue; // dropped: where it would stop is never needed
        const travelled = r.travelled; // read before the next call reuses the result object
        const total = plan.straight[i];
        if (total !== length) {
          length = total;
          line.pre = total;
          followCapitalMove(m, from, line, W, H, straight, this.br.pivotOnCentre);
        }
        // Written out rather than spread: copies made by spreading get an object shape of their own,
        // and a third pose shape turned the policies' reads of pose coordinates into boxing ones.
        const o = this.pooledOption(end.x, end.y, end.heading, 'none', travelled, undefined);
        o.failPose = this.pooledFailPose(straight);
        out[this.menuN++] = o;
      }
    }
    if (allowBoost && this.br.capitalBoostMode !== 'none' && m.state.thrusters >= 1 && this.reachable(m).length === 0) {
      if (this.br.capitalBoostMode === 'v121') {
        // v1.2.1 Boost: Speed doubled for the activation; the minimum is half the doubled Speed
        // (GM-56), or half the printed Speed under boost_min_move=HALF_PRINTED.
        const boostMin = this.br.boostMinHalfPrinted ? m.unit.speed / 2 : m.unit.speed;
        LIMITS[0] = boostMin;
        LIMITS[1] = 2 * m.unit.speed;
        LIMITS[2] = turns;
        LIMITS[3] = sluggish ? 1 : 0;
        this.followMoves(m, planOfLimits(), 'boost', normal, clamped);
      } else {
        // GM-09 cap_boost_mode=DOUBLE_SPEED_HALF_FC: the version's own limits with Speed doubled
        // (v1.2.2: 2 Speed - Thrusters to 2 Speed + Thrusters).
        loadLimits(this.br, m, false, 2 * m.unit.speed);
        this.followMoves(m, planOfLimits(), 'boost', normal, clamped);
      }
    }
    if (allowStationKeep && min > 0) {
      // Below the usual minimum, down to holding position (the minimum itself is a normal move).
      // Station Keeping changes only the minimum of the limits: its turns and Sluggish are these.
      LIMITS[0] = 0;
      LIMITS[1] = min / 2;
      LIMITS[2] = turns;
      LIMITS[3] = sluggish ? 1 : 0;
      this.followMoves(m, planOfLimits(), 'station_keep', normal, clamped);
    }
    // Cut to what was written (never to 0 when avoidable: emptying an array drops its store).
    cutTo(out, this.menuN);
    if (clamped) {
      cutTo(clamped, this.clampedN);
      return this.tiers2;
    }
    return this.tiers1;
  }
  /** moveTiers for a squadron: its one tier (in the reused normal tier, tiers1). */
  private squadronMenu(m: BattleModel, allowBoost: boolean): MoveOption[][] {
    const W = this.width, H = this.height;
    // A squadron's one tier is written to the capital ships' reused normal tier (counted in
    // menuN, cut at the end) rather than a new array grown option by option: its options
    // are pooled, so a menu lives only until the next moveTiers call anyway.
    const out = this.menuOut;
    this.menuN = 0;
    // The goals in reused arrays: the three nearest enemies (each distance worked out once; a
    // stable insertion sort keeps ties in list order) at short and long range, then the markers.
    const enemies = this.enemiesOf(m.side);
    const ne = enemies.length;
    const need = 2 * Math.min(3, ne) + this.objectives.length;
    if (ne > this.sqOrder.length) {
      this.sqOrder = new Int32Array(2 * ne);
      this.sqDist = new Float64Array(2 * ne);
    }
    if (need > this.goalX.length) {
      this.goalX = new Float64Array(2 * need);
      this.goalY = new Float64Array(2 * need);
      this.goalKeep = new Float64Array(2 * need);
    }
    if (9 + 3 * need > this.destX.length) {
      this.destX = new Float64Array(2 * (9 + 3 * need));
      this.destY = new Float64Array(2 * (9 + 3 * need));
    }
    const order = this.sqOrder, dist = this.sqDist;
    for (let i = 0; i < ne; i++) {
      const e = enemies[i];
      const d = hypot(e.base.x - m.base.x, e.base.y - m.base.y);
      let j = i - 1;
      while (j >= 0 && dist[j] - d > 0) {
        dist[j + 1] = dist[j];
        order[j + 1] = order[j];
        j--;
      }
      dist[j + 1] = d;
      order[j + 1] = i;
    }
    const gx = this.goalX, gy = this.goalY, gk = this.goalKeep;
    let ng = 0;
    for (let k = 0; k < ne && k < 3; k++) {
      const e = enemies[order[k]];
      const kind = e.unit.isCapital ? 'capital' : 'squadron';
      const short = e.unit.isCapital ? this.rules.combat.shortRangeAC : this.rules.combat.shortRangeAS;
      gx[ng] = e.base.x;
      gy[ng] = e.base.y;
      gk[ng++] = short - 0.5 + e.bulk + m.bulk;
      gx[ng] = e.base.x;
      gy[ng] = e.base.y;
      gk[ng++] = longRangeMax(this.rules.combat, kind, m.state.sensors) - 0.5 + e.bulk + m.bulk;
    }
    for (const o of this.objectives) {
      gx[ng] = o.x;
      gy[ng] = o.y;
      gk[ng++] = 0;
    }
    this.optUsed = 0;
    const dx = this.destX, dy = this.destY;
    let nd = squadronDestinationsInto(m, m.unit.speed, gx, gy, gk, ng, false, W, H, dx, dy);
    for (let i = 0; i < nd; i++) {
      const d = hypot(dx[i] - m.base.x, dy[i] - m.base.y);
      if (d <= m.unit.speed + 1e-9) out[this.menuN++] = this.pooledOption(dx[i], dy[i], 0, 'none', d, undefined);
    }
    // Boost (§6.4, GM-61): x2 Speed for 1 Fuel or x3 for 2, not when crippled; offered to close
    // in when no enemy is within reach at normal Speed.
    if (allowBoost && !m.state.crippled && m.fuel >= 1 && this.reachable(m).length === 0) {
      for (let fuel = 1; fuel <= (m.fuel >= 2 ? 2 : 1); fuel++) {
        const speed = m.unit.speed * (fuel + 1);
        nd = squadronDestinationsInto(m, speed, gx, gy, gk, ng, true, W, H, dx, dy);
        for (let i = 0; i < nd; i++) {
          const d = hypot(dx[i] - m.base.x, dy[i] - m.base.y);
          if (d > m.unit.speed + 1e-9 && d <= speed + 1e-9) out[this.menuN++] = this.pooledOption(dx[i], dy[i], 0, 'boost', d, fuel);
        }
      }
    }
    // The fallback (the nearest legal spot within Speed) is searched only when needed: chooseMove.
    cutTo(out, this.menuN);
    return this.tiers1;
  }
  /** moveTiers' reused arrays for a capital ship: the normal tier, the clamped tier, and the tier lists. */
  private readonly menuOut: MoveOption[] = [];
  private readonly menuClamped: MoveOption[] = [];
  private readonly tiers1: MoveOption[][] = [this.menuOut];
  private readonly tiers2: MoveOption[][] = [this.menuOut, this.menuClamped];
  /** How many options followMoves has written to the normal and the clamped tier. */
  private menuN = 0;
  private clampedN = 0;
  /** Clamped moves the last moveTiers call left out (withClamped false). */
  protected clampedDropped = 0;

  /** A capital ship's forced minimum moves (GM-66), the menu's last tier: made only when no earlier tier has a legal move. */
  protected forcedMoves(m: BattleModel): MoveOption[] {
    loadLimits(this.br, m, false, m.unit.speed);
    const forced: MoveOption[] = [];
    this.menuN = 0;
    LIMITS[1] = LIMITS[0]; // the minimum move only
    this.followMoves(m, planOfLimits(), 'none', forced, null);
    return forced;
  }

  /**
   * Follows each of a capital ship's moves from where it stands and adds the end pose to `out`,
   * or to `clamped` (when given) for a move stopped at the table edge (GM-15); `undefined`
   * drops such moves unplaced, counting them in clampedDropped. With `out` null only the
   * clamped moves are placed (in `clamped`).
   */
  protected followMoves(m: BattleModel, plan: CapitalPlan, action: ActionName, out: MoveOption[] | null, clamped: MoveOption[] | null | undefined): void {
    const from = this.followFrom;
    from.x = m.base.x;
    from.y = m.base.y;
    from.heading = m.base.heading;
    const end = this.followEnd;
    const drop = clamped === undefined;
    // Moves that cannot come near an edge are followed without testing their checkpoints: those
    // whose straight segments, plus a base diameter per pivot they make, fit in the room.
    const room = roomForMove(m, from, this.width, this.height), dia = 2 * m.reach;
    // A move's bound below, (pre + mid + post) + dia + dia at most, only grows with each term
    // (rounding included): when the longest with two pivots fits, every move does.
    const allClear = plan.maxStraight + dia + dia < room;
    if (allClear && out === null) return; // no move of the plan is clamped
    // The moves' shared steps are taken once (followPlan); each move's end is then read off.
    followPlan(m, from, plan, this.br.pivotOnCentre);
    const n = plan.moves.length, last = plan.last, straight = plan.straight, turnFirst = plan.turnFirst, turnSecond = plan.turnSecond;
    const nx = planNodes.x, ny = planNodes.y, nh = planNodes.heading, nt = planNodes.travelled;
    for (let i = 0; i < n; i++) {
      if (allClear || straight[i] + (turnFirst[i] !== 0 ? dia : 0) + (turnSecond[i] !== 0 ? dia : 0) < room) {
        if (out === null) continue;
        const k = last[i];
        out[this.menuN++] = this.pooledOption(nx[k], ny[k], nh[k], action, nt[k], undefined);
        continue;
      }
      const r = planMove(m, plan, i, this.width, this.height, end, drop);
      if (r.clamped && drop) {
        this.clampedDropped++;
        continue;
      }
      if (r.clamped && clamped) clamped[this.clampedN++] = this.pooledOption(end.x, end.y, end.heading, action, r.travelled, undefined);
      else if (out !== null) out[this.menuN++] = this.pooledOption(end.x, end.y, end.heading, action, r.travelled, undefined);
    }
  }
  protected readonly followFrom: Pose = { x: 0, y: 0, heading: 0 };
  /** The Thrusters-0 menu's straight (a failed test's move) and its end. */
  private readonly straightMove = { pre: 0, turn1: 0, mid: 0, turn2: 0, post: 0 };
  private readonly straightEnd: Pose = { x: 0, y: 0, heading: 0 };

  /**
   * Move options of the menus of one chooseMove, reused call after call (a menu is some thirty
   * options, each with its pose: two objects apiece made and dropped per option). A menu lives
   * only until the next moveTiers call: chooseMove returns a copy of the option it takes.
   */
  private readonly optPool: PooledOption[] = [];
  /** moveTiers' scratch for squadrons: enemies by distance, the goals, the destinations. */
  private sqOrder = new Int32Array(16);
  private sqDist = new Float64Array(16);
  private goalX = new Float64Array(16);
  private goalY = new Float64Array(16);
  private goalKeep = new Float64Array(16);
  private destX = new Float64Array(64);
  private destY = new Float64Array(64);
  private optUsed = 0;
  protected pooledOption(x: number, y: number, heading: number, action: ActionName, travelled: number, fuel: number | undefined): PooledOption {
    let o: PooledOption;
    if (this.optUsed < this.optPool.length) o = this.optPool[this.optUsed];
    else this.optPool.push((o = { pose: { x: 0, y: 0, heading: 0 }, action: 'none', travelled: 0, fuel: undefined, failPose: undefined }));
    this.optUsed++;
    const p = o.pose;
    p.x = x;
    p.y = y;
    p.heading = heading;
    o.action = action;
    o.travelled = travelled;
    // Written only when they change (most options carry neither).
    if (o.fuel !== fuel) o.fuel = fuel;
    if (o.failPose !== undefined) o.failPose = undefined;
    return o;
  }

  /**
   * A Thrusters-0 option's fail pose, a copy of `p` in a pose kept for the option last handed
   * out by pooledOption (it lives as long as the option: chooseMove's copy copies it too).
   */
  private pooledFailPose(p: Pose): Pose {
    const i = this.optUsed - 1;
    while (this.failPool.length <= i) this.failPool.push({ x: 0, y: 0, heading: 0 });
    const f = this.failPool[i];
    f.x = p.x;
    f.y = p.y;
    f.heading = p.heading;
    return f;
  }
  private readonly failPool: Pose[] = [];

  /** A copy of a menu's option that outlives the menu. */
  private static keep(o: MoveOption): MoveOption {
    const f = o.failPose;
    return moveOption({ x: o.pose.x, y: o.pose.y, heading: o.pose.heading }, o.action, o.travelled, o.fuel, f ? { x: f.x, y: f.y, heading: f.heading } : undefined);
  }
  protected readonly followEnd: Pose = { x: 0, y: 0, heading: 0 };

  /** The policy's move from the first tier that has a legal one; `forced` for the GM-66 tier. */
  protected chooseMove(m: BattleModel, policy: Policy, actionMoves = true): { opt: MoveOption; fireBefore: boolean; forced: boolean; leaves: boolean } {
    // The clamped tier is placed only when the normal moves offer nothing legal: it is then
    // made on its own (the same moves in the same order, as nothing has changed).
    let tiers = this.moveTiers(m, actionMoves && m.unit.isCapital, actionMoves, false);
    const clampedLeftOut = m.unit.isCapital ? this.clampedDropped : 0;
    const W = this.width, H = this.height;
    for (let t = 0; t < (m.unit.isCapital ? 3 : tiers.length); t++) {
      // A capital ship's last tier is the forced minimum move (GM-66): taken as it is, overlap resolved after.
      const forced = m.unit.isCapital && t === 2;
      if (t === 1 && m.unit.isCapital) {
        if (clampedLeftOut === 0) continue; // an empty clamped tier
        tiers = this.moveTiers(m, actionMoves && m.unit.isCapital, actionMoves, true, true);
      }
      const options = forced ? this.forcedMoves(m) : tiers[t];
      if (!options.length) continue;
      this.legalMover = m;
      this.legalMenu = options;
      const c = policy.pickMove(this, m, options, forced ? anyOption : this.legalOption, this.pol);
      if (c.index >= 0) return { opt: BattleManoeuvre.keep(options[c.index]), fireBefore: c.fireBefore, forced, leaves: t === 1 && m.unit.isCapital && this.br.offTable !== 'clamp' };
    }
    if (!m.unit.isCapital) {
      // No offered destination is legal: the nearest legal spot within Speed, else stay put.
      const p = nearestLegal(this.br, m, { x: m.base.x, y: m.base.y, heading: 0 }, this.models, W, H, m.unit.speed);
      if (p) return { opt: moveOption(p, 'none', hypot(p.x - m.base.x, p.y - m.base.y)), fireBefore: false, forced: false, leaves: false };
    }
    return { opt: moveOption({ x: m.base.x, y: m.base.y, heading: m.base.heading }, 'none', 0), fireBefore: false, forced: false, leaves: false };
  }

  /**
   * chooseMove's legality test of option i of the menu in legalMenu, for legalMover: one
   * closure made with the instance, where a closure (and a context for its variables) was made
   * per menu tier.
   */
  private readonly legalOption = (i: number): boolean => legalEnd(this.br, this.legalMover as BattleModel, this.legalMenu[i].pose, this.models, this.width, this.height);
  private legalMover: BattleModel | null = null;
  private legalMenu: readonly MoveOption[] = [];

  /**
   * A Return to Base move (GM-17, GM-77): up to Speed towards the nearest friendly carrier with
   * room, Landing on it when it can reach base contact (not in an activation it Launched in),
   * or else towards its own table edge.
   */
  protected returnToBase(m: BattleModel, rec: TraceActivation | null): void {
    const carrier = this.carrierFor(m);
    const landing = carrier && !m.launched ? this.contactPose(m, carrier, m.unit.speed) : null;
    if (carrier && landing) {
      m.base.set(landing.x, landing.y, 0);
      this.land(m, carrier, rec);
      return;
    }
    const p = this.rtbMove(m, carrier);
    m.base.set(p.x, p.y, 0);
  }

  /** The RTB move's end: straight towards `carrier` (when given) or the nearest own table edge, up to Speed, to a legal spot. */
  protected rtbMove(m: BattleModel, carrier: BattleModel | null = null): Pose {
    const W = this.width, H = this.height;
    if (carrier) {
      const dx = carrier.base.x - m.base.x, dy = carrier.base.y - m.base.y, d = hypot(dx, dy);
      const step = Math.min(m.unit.speed, Math.max(0, d - carrier.reach - m.reach - 0.05));
      const want = { x: m.base.x + (d > 0 ? (dx / d) * step : 0), y: m.base.y + (d > 0 ? (dy / d) * step : 0), heading: 0 };
      return nearestLegal(this.br, m, want, this.models, W, H, m.unit.speed) ?? { x: m.base.x, y: m.base.y, heading: 0 };
    }
    // The nearest of ownEdgePoints' points (the first on a tie), taken in its order without
    // its list of pairs; each point's distance is the hypot the comparison measured.
    const mx = m.base.x, my = m.base.y;
    let tx = NaN, ty = NaN, d = NaN;
    for (let k = 0; k < 4; k++) {
      if (!this.isOwnEdge(m, k)) continue;
      const x = k < 2 ? mx : k === 2 ? 0 : W, y = k === 0 ? 0 : k === 1 ? H : my;
      const dk = hypot(x - mx, y - my);
      if (d === d && !(dk < d)) continue;
      tx = x;
      ty = y;
      d = dk;
    }
    const step = Math.min(m.unit.speed, Math.max(0, d - m.reach));
    const want = { x: d > 0 ? m.base.x + ((tx - m.base.x) / d) * step : m.base.x, y: d > 0 ? m.base.y + ((ty - m.base.y) / d) * step : m.base.y, heading: 0 };
    return nearestLegal(this.br, m, want, this.models, W, H, m.unit.speed) ?? { x: m.base.x, y: m.base.y, heading: 0 };
  }

  /**
   * The nearest point of each of the side's own table edges (GM-16: Standard, its strip's edge;
   * Corner, both edges of its quadrant; Beacon, every edge). Withdraw and Return to Base head there.
   */
  protected ownEdgePoints(m: BattleModel): Array<[number, number]> {
    const W = this.width, H = this.height;
    const edges: Array<[number, number]> = [];
    if (this.isOwnEdge(m, 0)) edges.push([m.base.x, 0]);
    if (this.isOwnEdge(m, 1)) edges.push([m.base.x, H]);
    if (this.isOwnEdge(m, 2)) edges.push([0, m.base.y]);
    if (this.isOwnEdge(m, 3)) edges.push([W, m.base.y]);
    return edges;
  }

  /**
   * Whether table edge k (0: y = 0, 1: y = height, 2: x = 0, 3: x = width) is one of the side's
   * own edges (GM-16): Standard, its strip's edge; Corner, both edges of its quadrant; Beacon,
   * every edge. ownEdgePoints, rtbMove and ownEdgeRect all ask here.
   */
  protected isOwnEdge(m: BattleModel, k: number): boolean {
    const zone = this.scenario.zone;
    if (zone === 'beacon') return true;
    const z = this.zoneOf(m.side);
    return k < 2 ? z === k : zone === 'corner' && z === k - 2;
  }

  /** Own table edges for Withdraw (GM-16). */
  protected touchesOwnEdge(m: BattleModel, p: Pose): boolean {
    const b = baseAt(m, p);
    const r = this.ownEdgeRect(m);
    return !baseInRect(b, r[0], r[1], r[2], r[3], 0);
  }

  /**
   * The rectangle a model touching an own edge is not wholly inside (its own edges only, the
   * others at infinity), already pulled in by twice eps, as [x0, y0, x1, y1] in a shared array.
   */
  protected ownEdgeRect(m: BattleModel): Float64Array {
    const W = this.width, H = this.height, e = GEOM_EPSILON;
    let x0 = -Infinity, y0 = -Infinity, x1 = Infinity, y1 = Infinity;
    if (this.isOwnEdge(m, 0)) y0 = 0;
    if (this.isOwnEdge(m, 2)) x0 = 0;
    if (this.isOwnEdge(m, 3)) x1 = W;
    if (this.isOwnEdge(m, 1)) y1 = H;
    const r = this.edgeRect;
    r[0] = x0 + e * 2;
    r[1] = y0 + e * 2;
    r[2] = x1 - e * 2;
    r[3] = y1 - e * 2;
    return r;
  }
  private readonly edgeRect = new Float64Array(4);

  /** A Withdraw move that reaches an own edge this activation, if one exists. */
  protected withdrawMove(m: BattleModel): Pose | null {
    const speed = m.unit.speed;
    if (!m.unit.isCapital) {
      for (const [x, y] of this.ownEdgePoints(m)) if (hypot(x - m.base.x, y - m.base.y) - m.reach <= speed + 1e-9) return { x, y, heading: 0 };
      return null;
    }
    const lim = capitalLimits(this.br, m, false);
    const start: Pose = { x: m.base.x, y: m.base.y, heading: m.base.heading };
    const pivoted: Pose = { x: 0, y: 0, heading: 0 };
    // A candidate whose centre lies deeper inside the own-edge rectangle than the base reaches
    // (with a margin far above rounding) has every corner inside it: it touches no own edge,
    // and is passed over without placing the base.
    const rect = this.ownEdgeRect(m);
    const x0 = rect[0], y0 = rect[1], x1 = rect[2], y1 = rect[3];
    const reach = m.reach + 1e-6;
    for (const turn of lim.turns >= 1 ? [0, -45, 45] : [0]) {
      // Straight ahead, or after one pivot (on an unbounded table: the path may leave it).
      followCapitalMove(m, start, { pre: 0, turn1: turn, mid: 0, turn2: 0, post: 0 }, Infinity, Infinity, pivoted, this.br.pivotOnCentre);
      const ux = sinDeg(pivoted.heading), uy = cosDeg(pivoted.heading);
      for (let d = 0; d <= lim.max + 1e-9; d += 0.5) {
        if (d < lim.min - 1e-9) continue; // below the minimum move: not a candidate
        const x = pivoted.x + d * ux, y = pivoted.y + d * uy;
        if (x - reach >= x0 && x + reach <= x1 && y - reach >= y0 && y + reach <= y1) continue;
        const p: Pose = { x, y, heading: pivoted.heading };
        if (this.touchesOwnEdge(m, p)) return p;
      }
    }
    return null;
  }

  /**
   * A ram (§8.1): an enemy capital ship the rammer can reach with a legal move that ends with
   * its front arc in contact: straight ahead, or after one 45° pivot, up to its maximum move,
   * ending on the table and overlapping no other base (GM-54, GM-73). Nearest first.
   */
  protected ramOption(m: BattleModel): { target: BattleModel; pose: Pose } | null {
    if (m.state.structure !== 1) return null;
    if (!m.unit.isCapital) return this.squadronRamOption(m);
    // Without objects made per call: the limits as numbers, the poses and the one-pivot move
    // in scratch kept by the instance, the scans and the bisection written out (their closures
    // were made, with a context, per enemy and pivot); the best pose is copied out at the end.
    loadLimits(this.br, m, false, m.unit.speed);
    const lmin = LIMITS[0], lmax = LIMITS[1], pivots = LIMITS[2] >= 1 ? 3 : 1;
    const W = this.width, H = this.height;
    let best: BattleModel | null = null;
    let bestD = Infinity, bestX = 0, bestY = 0, bestH = 0;
    const start = this.ramStart, p = this.ramPose, mv = this.ramMove;
    start.x = m.base.x;
    start.y = m.base.y;
    start.heading = m.base.heading;
    for (const e of this.enemiesOf(m.side)) {
      if (!e.unit.isCapital) continue; // a capital ship may not ram a squadron
      if (hypot(e.base.x - m.base.x, e.base.y - m.base.y) > lmax + m.reach + e.reach) continue;
      // Ahead within a 45° pivot: the target must lie in the front half-plane at least.
      if ((e.base.x - m.base.x) * sinDeg(m.base.heading) + (e.base.y - m.base.y) * cosDeg(m.base.heading) < -(m.reach + e.reach)) continue;
      for (let k = 0; k < pivots; k++) {
        mv.turn1 = k === 0 ? 0 : k === 1 ? -45 : 45;
        followCapitalMove(m, start, mv, W, H, p, this.br.pivotOnCentre);
        const b = baseAt(m, p);
        const px = p.x, py = p.y, ph = p.heading;
        // The heading's sine and cosine, looked up once for the steps and the bisection below.
        const hs = sinDeg(ph), hc = cosDeg(ph);
        // First contact along the heading: step, then bisect to the touching distance.
        // Skip the stretch where the bases cannot meet yet (centres farther apart than both reaches).
        const along = (e.base.x - px) * hs + (e.base.y - py) * hc;
        // Across the heading the moving base keeps its extent (half its width, for a rectangle)
        // and the target lies within its reach of its centre: where those stay apart on that axis
        // (by far more than rounding), the bases never meet on the way and no step is tested.
        const side = (e.base.x - px) * hc - (e.base.y - py) * hs;
        if (Math.abs(side) > (m.base.shape === 'rect' ? m.base.width / 2 : m.reach) + e.reach + 1e-6) continue;
        let from = Math.max(0, Math.floor((along - m.reach - e.reach) * 4) / 4);
        let hit = firstHit(b, px, py, ph, hs, hc, e.base, from, lmax);
        if (hit === from && from > 0) hit = firstHit(b, px, py, ph, hs, hc, e.base, (from = 0), lmax); // in contact already: scan from the start
        if (hit < 0) continue;
        // The touching distance: a bisection between the last step clear of the target and the
        // first one not, guided by where the outlines start to overlap along the heading (the
        // same steps as a plain bisection; only those beside that point measure the outlines).
        b.set(px, py, ph);
        const edge = overlapSpan(b, hs, hc, e.base, SPAN_OUT) ? SPAN_OUT[0] : NaN;
        const lo = clearBisection(b, px, py, ph, hs, hc, e.base, Math.max(0, hit - 0.25), hit, edge, 20);
        b.set(px + lo * hs, py + lo * hc, ph);
        if (lo < lmin - 1e-9 || !contactInArc(b, 'F', e.base, 0.002) || !onTable(b, W, H)) continue; // a legal move: at least the minimum
        if (this.clearOfOthers(b, m, e) && lo < bestD) {
          bestD = lo;
          best = e;
          bestX = b.x;
          bestY = b.y;
          bestH = b.heading;
        }
        break; // the straight approach, else the first pivot that reaches it
      }
    }
    return best !== null ? { target: best, pose: { x: bestX, y: bestY, heading: bestH } } : null;
  }
  /** ramOption's scratch: where the rammer stands, where its pivot leaves it, and the pivot. */
  private readonly ramStart: Pose = { x: 0, y: 0, heading: 0 };
  private readonly ramPose: Pose = { x: 0, y: 0, heading: 0 };
  private readonly ramMove = { pre: 0, turn1: 0, mid: 0, turn2: 0, post: 0 };

  /**
   * A squadron ram (§8.3, §8.4): any enemy model whose base it can reach within its Speed; it
   * moves straight at the target into base contact (free path, GM-58), ending on the table and
   * on top of no third base. Nearest first.
   */
  protected squadronRamOption(m: BattleModel): { target: BattleModel; pose: Pose } | null {
    // The enemy in reach (in list order) with the least separation among those a straight run
    // reaches (contactPose, which changes nothing), the first of them on a tie: a later enemy
    // takes over only when its separation is below the best one's. That comparison is
    // separationBelow's (the same answer as separation < bestD, mostly settled by bounds
    // without the outlines), and the best one's own separation is measured only when a later
    // enemy in reach needs it (each outline separation of a hexagon and a ship costs about a
    // microsecond: measuring every enemy in reach was some 1% of a beacon game).
    let best: BattleModel | null = null;
    let bestPose: Pose | null = null;
    let bestD = NaN; // best's separation, NaN until measured
    const speed = m.unit.speed;
    for (const e of this.enemiesOf(m.side)) {
      if (separationAbove(m.base, e.base, speed)) continue;
      if (best !== null) {
        if (bestD !== bestD) bestD = separation(m.base, best.base);
        if (!separationBelow(m.base, e.base, bestD)) continue;
      }
      const pose = this.contactPose(m, e, speed);
      if (!pose) continue;
      best = e;
      bestPose = pose;
      bestD = NaN;
    }
    return best !== null && bestPose !== null ? { target: best, pose: bestPose } : null;
  }

  /**
   * Where a squadron moving straight at `e` first touches it, if that is within `reach` inches,
   * wholly on the table and clear of every third base (GM-58 free paths; GM-59: contact the
   * action requires). Null otherwise.
   */
  protected contactPose(m: BattleModel, e: BattleModel, reach: number): Pose | null {
    const b = baseAt(m, { x: m.base.x, y: m.base.y, heading: 0 });
    const dx = e.base.x - m.base.x, dy = e.base.y - m.base.y, len = hypot(dx, dy);
    if (len < 1e-9) return null;
    // The bases cannot touch before the centres are within both reaches: start the search there.
    const lo0 = Math.max(0, len - m.reach - e.reach - 0.01);
    if (lo0 > reach + 1e-9) return null;
    const ux = dx / len, uy = dy / len;
    const edge = overlapSpan(b, ux, uy, e.base, SPAN_OUT) ? SPAN_OUT[0] : NaN; // where contact begins
    const lo = clearBisection(b, m.base.x, m.base.y, 0, ux, uy, e.base, lo0, len, edge, 18);
    b.set(m.base.x + ux * lo, m.base.y + uy * lo, 0);
    if (lo > reach + 1e-9 || !onTable(b, this.width, this.height)) return null;
    if (!this.clearOfOthers(b, m, e)) return null;
    return { x: b.x, y: b.y, heading: 0 };
  }

  /**
   * For every spot within `half` of base `b` (where `m` may stand, touching `e`): NEAR_CLEAR
   * when each third base on the table is clear of all of them (separated by more than
   * GEOM_EPSILON), NEAR_BLOCKED when one of them overlaps all of them, else NEAR_OPEN. With
   * `half` 0 it is the test of `b` alone (clearOfOthers).
   */
  protected clearNear(b: Base, m: BattleModel, e: BattleModel, half: number): number {
    const models = this.models;
    const x = b.x, y = b.y, r = GEOM_EPSILON + half + m.reach;
    let open = false;
    for (let i = 0; i < models.length; i++) {
      const o = models[i];
      if (o === m || o === e || o.where !== 'table') continue;
      // Bases farther apart than both reaches are clear: settled here, without the call.
      const dx = o.base.x - x, dy = o.base.y - y, far = r + o.reach;
      if (dx * dx + dy * dy > far * far || separationAbove(b, o.base, GEOM_EPSILON + half)) continue;
      if (separationBelow(b, o.base, GEOM_EPSILON - half)) return NEAR_BLOCKED;
      open = true;
    }
    return open ? NEAR_OPEN : NEAR_CLEAR;
  }

  /** Base `b` (where `m` would stand, touching `e`) is clear of every third base on the table. */
  private clearOfOthers(b: Base, m: BattleModel, e: BattleModel): boolean {
    return this.clearNear(b, m, e, 0) === NEAR_CLEAR;
  }

  protected doRam(m: BattleModel, ram: { target: BattleModel; pose: Pose }, rec: TraceActivation | null): string {
    const tgt = ram.target;
    const save = { x: m.base.x, y: m.base.y, heading: m.base.heading };
    m.base.set(ram.pose.x, ram.pose.y, ram.pose.heading);
    const asp = aspectOfArc(aspect(m.base, tgt.base)); // the struck arc from the contact position (GM-80)
    // Head-on needs both front arcs (GM-22); a squadron rammer meets the target's current Defense.
    const facing = m.unit.isCapital && headOn(m.base, tgt.base);
    const defense = m.unit.isCapital ? tgt.unit.defense : tgt.state.defense;
    // A number, not a string made per ram (hashed anew by each lookup): unit indices (below 64, see
    // BattleState), the arc, head-on, then the Defense rating (a whole number), in Smi range.
    const arc = asp === 'front' ? 0 : asp === 'side' ? 1 : 2;
    const key = ((defense * 6 + arc * 2 + (facing ? 1 : 0)) * 64 + tgt.unitIndex) * 64 + m.unitIndex;
    let plan = this.ramPlans.get(key);
    if (!plan) {
      plan = planRam(this.rules, m.unit, tgt.unit, asp, this.usage, { headOn: facing, targetDefense: defense });
      this.ramPlans.set(key, plan);
    }
    const roll = rollRam(this.rules, plan, m.state, tgt.state, this.roller, this.dice, this.tally);
    // A capital ship that fails its Skill Test may not contact the target and stays where it was;
    // a squadron moves into contact first (§8.3 step 1) and is destroyed whatever happens.
    if (roll.result !== 'rammed' && m.unit.isCapital) m.base.set(save.x, save.y, save.heading);
    if (rec) rec.ram = { target: tgt.label, result: roll.result, rammerAfter: this.stateText(m), targetAfter: this.stateText(tgt) };
    this.afterDamage(m);
    this.afterDamage(tgt);
    return roll.result;
  }

  /** GM-12: a move with a Thrusters-0 turn needs a Skill Test [D+]; on [N] the ship goes straight instead. */
  protected thrustersZeroTurn(m: BattleModel, opt: MoveOption, forced: boolean, rec: TraceActivation | null): { readonly opt: MoveOption; readonly forced: boolean } {
    if (!opt.failPose) return this.turnResult(opt, forced);
    const pass = this.skillTest(m.unit.skill);
    if (rec) {
      const line = `Thrusters 0 turn: Skill Test (${m.unit.skill} dice) ${pass ? '[D+] passed' : '[N]: it goes straight'}`;
      rec.test = rec.test ? `${rec.test}; ${line}` : line; // after a Repair test, both are kept
    }
    if (pass) return this.turnResult(opt, forced);
    const straight = { ...opt, pose: opt.failPose };
    return this.turnResult(straight, forced || !legalEnd(this.br, m, straight.pose, this.models, this.width, this.height));
  }
  /**
   * thrustersZeroTurn's answer, in one object reused call after call (its callers take its two
   * fields apart at once): one was made per activation.
   */
  private turnResult(opt: MoveOption, forced: boolean): { readonly opt: MoveOption; readonly forced: boolean } {
    const r = this.turnOut;
    r.opt = opt;
    r.forced = forced;
    return r;
  }
  private readonly turnOut: { opt: MoveOption; forced: boolean } = { opt: moveOption({ x: 0, y: 0, heading: 0 }, 'none', 0), forced: false };

  /** GM-15 offtable_rule WITHDRAWN / DESTROYED: its path ran off the table and it is gone. */
  protected leaveTable(m: BattleModel, rec: TraceActivation | null): void {
    if (this.br.offTable === 'destroyed') m.state.destroyed = true;
    m.where = this.br.offTable === 'destroyed' ? 'destroyed' : 'withdrawn';
    rec?.notes.push(`left the table: ${m.where} (GM-15 offtable_rule)`);
    this.afterDamage(m);
  }

  /**
   * §6.7 overlapping after a forced (minimum) move, GM-64/GM-65. Capital ships: the smaller
   * base (by area; equal: the mover) is pushed forward along its own heading until clear, or
   * backward, or to the nearest legal spot; an active ship to be moved first uses its
   * remaining Fire Control (`fireFirst`). Squadrons under a capital ship move the least
   * distance that clears it (with 1" spacing in v1.2.1).
   */
  protected resolveOverlaps(mover: BattleModel, fireFirst: () => void, rec: TraceActivation | null): void {
    const W = this.width, H = this.height;
    let fired = false;
    for (const o of this.models) {
      if (o === mover || o.where !== 'table') continue;
      if (o.unit.isCapital && mover.unit.isCapital && overlapping(mover.base, o.base)) {
        const areaM = mover.base.length * mover.base.width, areaO = o.base.length * o.base.width;
        const moved = areaO < areaM ? o : mover;
        if (moved === mover && !fired) {
          fireFirst();
          fired = true;
        }
        this.pushClear(moved, W, H);
        rec?.notes.push(`overlap with ${moved === mover ? o.label : mover.label}: ${moved.label} repositioned (GM-64)`);
        this.carryAssaulters(moved, rec); // squadrons Assaulting it ride along (§11.4)
      }
    }
    for (const o of this.models) {
      if (o.where !== 'table' || o.unit.isCapital || !mover.unit.isCapital) continue;
      const need = this.br.squadronCapitalSpacing;
      // Seed 002: a squadron the ship would overlap is moved the least distance that keeps the
      // version's spacing; one merely within that spacing stays (capital moves need no spacing).
      if (!separationBelow(o.base, mover.base, -GEOM_EPSILON)) continue;
      const ok = (q: Pose) => {
        const b = baseAt(o, q);
        if (!onTable(b, W, H)) return false;
        for (const x of this.models) {
          if (x === o || x.where !== 'table') continue;
          // GM-65: no overlap (touching is legal after this placement), plus the version's spacing from capital ships.
          if (separationBelow(b, x.base, x.unit.isCapital ? Math.max(-GEOM_EPSILON, need - GEOM_EPSILON) : -GEOM_EPSILON)) return false;
        }
        return true;
      };
      // Rings within the depth by which the squadron, where it stands, overlaps the ship (or
      // any base closer than its spacing) are ruled out for certain: not tried.
      const skip = ruledOutWithin(baseAt(o, { x: o.base.x, y: o.base.y, heading: 0 }), o, this.models, (x) => (x.unit.isCapital ? Math.max(-GEOM_EPSILON, need - GEOM_EPSILON) : -GEOM_EPSILON));
      const p = nearestLegal(this.br, o, { x: o.base.x, y: o.base.y, heading: 0 }, this.models, W, H, 12, ok, skip);
      if (p) o.base.set(p.x, p.y, 0);
      rec?.notes.push(p ? `${o.label} moved clear of ${mover.label} (GM-65)` : `${o.label}: no clear spot within 12" of ${mover.label}, left where it was (GM-65)`);
    }
  }

  protected pushClear(s: BattleModel, W: number, H: number): void {
    const x0 = s.base.x, y0 = s.base.y, h = s.base.heading;
    const clear = () => onTable(s.base, W, H) && this.models.every((o) => o === s || o.where !== 'table' || !overlapping(s.base, o.base));
    for (const dir of [1, -1]) {
      for (let d = 0.05; d <= 30; d += 0.05) {
        s.base.set(x0 + dir * d * sinDeg(h), y0 + dir * d * cosDeg(h), h);
        if (clear()) return;
      }
    }
    // Last fallback: the legal position nearest to where it was (each candidate tried in place).
    const p = nearestLegal(this.br, s, { x: x0, y: y0, heading: h }, this.models, W, H, 24, (q) => {
      s.base.set(q.x, q.y, h);
      return clear();
    });
    s.base.set(p ? p.x : x0, p ? p.y : y0, h);
  }

}

/**
 * guidedBisection(lo, hi, steps, edge, test) for contactPose (heading 0, 18 steps) and
 * ramOption (the ram's heading, 20 steps), where test(t) places `b` at `heading` t inches from
 * (x0, y0) along (ux, uy) and asks whether it is still clear of `target`: the same steps and
 * answers, with the test written out. Passed as a closure, the test was not inlined (the
 * inlining budget of contactPose ran out): each call made a context and a closure, boxed the
 * direction in the context and each t passed to the test.
 */
function clearBisection(b: MovingBase, x0: number, y0: number, heading: number, ux: number, uy: number, target: Base, lo: number, hi: number, edge: number, steps: number): number {
  // The base is placed by writing its fields (the heading once): a set() in the loop was left
  // a call (its call site too rarely reached for V8 to inline it), which boxed both
  // coordinates into fresh heap numbers at every step it tested.
  b.heading = heading;
  // The ends as numbers from here on: left as the arguments came (values of any kind to the
  // compiler, where the function is not inlined), the loop's ends were kept boxed, a new heap
  // number for each step.
  lo = +lo;
  hi = +hi;
  let guided = false;
  if (edge === edge) {
    let t = edge - GUIDE_MARGIN;
    b.x = x0 + ux * t;
    b.y = y0 + uy * t;
    if (separationAbove(b, target, 0)) {
      t = edge + GUIDE_MARGIN;
      b.x = x0 + ux * t;
      b.y = y0 + uy * t;
      guided = !separationAbove(b, target, 0);
    }
  }
  for (let i = 0; i < steps; i++) {
    const t = (lo + hi) / 2;
    let yes: boolean;
    if (guided && t < edge - GUIDE_MARGIN) yes = true;
    else if (guided && t > edge + GUIDE_MARGIN) yes = false;
    else {
      b.x = x0 + ux * t;
      b.y = y0 + uy * t;
      yes = separationAbove(b, target, 0);
    }
    if (yes) lo = t;
    else hi = t;
  }
  return lo;
}

/**
 * ramOption's scan: the first step d (from `start`, every quarter inch up to `max`) at which
 * base `b`, moved d along (hs, hc) from (x, y) at `heading`, is no longer clear of `target`;
 * -1 when none is.
 */
function firstHit(b: MovingBase, x: number, y: number, heading: number, hs: number, hc: number, target: Base, start: number, max: number): number {
  // From a number made here (as clearBisection's ends): the argument itself kept the loop's
  // distance boxed.
  for (let d = +start; d <= max + 1e-9; d += 0.25) {
    b.set(x + d * hs, y + d * hc, heading);
    if (!separationAbove(b, target, 0)) return d;
  }
  return -1;
}

/** The forced tier's legality test: every option is taken as it is. */
function anyOption(): boolean {
  return true;
}
