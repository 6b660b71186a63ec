// Squadrons at war (game.md §6.3-6.5, §7.4-7.7, §10; combat.md §8, §10-§12): interception and
// dogfights, bombing and assault, hangers (launch, land, Embarked), boarding and capture.
import type { Policy } from '../../policies/types.js';
import { GEOM_EPSILON, bearing, cosDeg, hypot, onTable, GUIDE_MARGIN, overlapSpan, separation, separationAbove, separationBelow, sinDeg } from '../geometry.js';
import { boardedFight, initiateBoarding } from './boarding.js';
import { dogfight, mayIntercept, type DogfightChooser, type DogfightResult } from './dogfight.js';
import { assault, bombing, pointDefenceAttack, type InterceptFn, type Interception } from './strike.js';
import { BattleModel, MovingBase } from './model.js';
import { baseAt, nearestLegal, ruledOutWithin, type Pose } from './movement.js';
import type { TraceActivation } from './battleTypes.js';
import { SPAN_OUT, cutTo } from './battleState.js';
import { BattleFiring } from './firing.js';
import { NEAR_BLOCKED, NEAR_OPEN } from './manoeuvre.js';

export abstract class BattleSquadrons extends BattleFiring {
  /** Enemy squadrons on the table whose bases lie within `inches` of `m` standing at `p`. */
  protected squadronsNear(m: BattleModel, p: Pose, inches: number): BattleModel[] {
    const out: BattleModel[] = [];
    this.findSquadronsNear(m, p, inches, out);
    return out;
  }

  /**
   * Whether squadronsNear would find any, stopping at the first: the declaration of Engage
   * Point Defence needs no list (the one it resolves against is taken after the move).
   */
  protected anySquadronNear(m: BattleModel, p: Pose, inches: number): boolean {
    return this.findSquadronsNear(m, p, inches, null);
  }

  /** squadronsNear's search: each squadron found goes to `out`, or with `out` null the first ends it; whether any was found. */
  private findSquadronsNear(m: BattleModel, p: Pose, inches: number, out: BattleModel[] | null): boolean {
    const b = baseAt(m, p);
    let found = false;
    for (const e of this.enemiesOf(m.side)) {
      if (e.unit.isCapital) continue;
      const far = inches + m.reach + e.reach;
      if ((e.base.x - b.x) ** 2 + (e.base.y - b.y) ** 2 > far * far) continue; // b holds p's coordinates (see legalEnd)
      if (separationAbove(b, e.base, inches + GEOM_EPSILON)) continue;
      if (out === null) return true;
      out.push(e);
      found = true;
    }
    return found;
  }

  /**
   * An enemy capital ship this ship could board from `p` (§7.4): within 1", Marines to commit,
   * not itself Boarded (GM-70), and more Marines than the target has (the odds the policies want).
   */
  protected boardingTarget(m: BattleModel, p: Pose): BattleModel | null {
    if (m.marines < 1 || m.boarders > 0) return null;
    const b = baseAt(m, p);
    for (const e of this.enemiesOf(m.side)) {
      if (!e.unit.isCapital || e.marines >= m.marines) continue;
      if (e.boarders > 0 && e.boarderSide !== m.side) continue;
      const far = 1 + m.reach + e.reach;
      if ((e.base.x - b.x) ** 2 + (e.base.y - b.y) ** 2 > far * far) continue; // b holds p's coordinates (see legalEnd)
      if (!separationAbove(b, e.base, 1 + GEOM_EPSILON)) return e;
    }
    return null;
  }

  protected board(m: BattleModel, t: BattleModel, rec: TraceActivation | null): void {
    const committed = m.marines;
    const r = initiateBoarding(this.procedureHooks(rec), this.br.boarding, m, t, committed, t.boarders > 0 ? { boarders: t.boarders, boarderSide: t.boarderSide } : null);
    if (r.boarded) {
      t.boarders = r.boarded.boarders;
      t.boarderSide = r.boarded.boarderSide;
    }
    this.afterDamage(t);
    if (r.captured) this.capture(t, m.side, rec);
  }

  protected resolveBoardedFight(m: BattleModel, rec: TraceActivation | null): void {
    const r = boardedFight(this.procedureHooks(rec), this.br.boarding, m, { boarders: m.boarders, boarderSide: m.boarderSide });
    m.boarders = r.boarded ? r.boarded.boarders : 0;
    if (r.captured) this.capture(m, m.boarderSide, rec);
  }

  /** GM-32 / GM-76: squadrons aboard a carrier that is Destroyed or Captured are Destroyed. */
  protected loseEmbarked(carrier: BattleModel): void {
    for (const x of this.models) {
      if (x.carrier !== carrier || x.where !== 'embarked') continue;
      x.where = 'destroyed';
      x.state.destroyed = true;
      x.carrier = null;
    }
  }

  /** INTERPRETATION: squadrons aboard a carrier that withdraws leave the table with it, as Withdrawn. */
  protected withdrawEmbarked(carrier: BattleModel): void {
    for (const x of this.models) {
      if (x.carrier !== carrier || x.where !== 'embarked') continue;
      x.where = 'withdrawn';
      x.carrier = null;
      this.currentRec?.notes.push(`${x.label} withdraws aboard ${carrier.label}`);
    }
  }

  /**
   * GM-76 embarked_on_captured=PASS_TO_CAPTOR: the models aboard a captured carrier stay aboard
   * and change sides with it, Captured like the ship (x1.5 VP to the captor), serving the captor
   * from the next turn.
   */
  protected passEmbarked(carrier: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    for (const x of this.models) {
      if (x.carrier !== carrier || x.where !== 'embarked') continue;
      x.captured = true;
      x.side = side;
      x.activated = true;
      rec?.notes.push(`${x.label} is captured aboard ${carrier.label}`);
    }
  }

  /** GM-75: the ship changes sides; VP x1.5 to the captor; it activates for the captor from the next turn. */
  protected capture(t: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    if (this.br.embarkedPassToCaptor) this.passEmbarked(t, side, rec);
    else this.loseEmbarked(t); // GM-76 default
    t.captured = true;
    t.side = side;
    t.boarders = 0;
    t.activated = true;
    this.afterDamage(t); // GM-52: a fleet that lost its last capital ship to capture ends a v1.2.1 game at once
    rec?.notes.push(`${t.label} is captured by fleet ${this.fleetLabel(side)}`);
  }

  /** Picks a Dogfight action: Stay on Target when it can, else Engage, else Break Off, else pass (Return to Base: Break Off only). */
  protected readonly dogfightChooser: DogfightChooser = (self, _other, _round, legal) => {
    // What is open, read in one pass over the list (rather than up to three includes calls).
    let open = 0;
    for (let i = 0; i < legal.length; i++) {
      const c = legal[i];
      if (c === 'stay_on_target') open |= 4;
      else if (c === 'engage') open |= 1;
      else if (c === 'break_off') open |= 2;
    }
    // Return to Base (GM-77): no attacks, so an intercepted squadron heading home only tries to break off.
    if ((self as BattleModel).rtb) return (open & 2) !== 0 ? 'break_off' : 'pass';
    return (open & 4) !== 0 ? 'stay_on_target' : (open & 1) !== 0 ? 'engage' : (open & 2) !== 0 ? 'break_off' : 'pass';
  };

  /** The two models of a dogfight after it (two parameters, not a rest list made per call). */
  protected dogfightAftermath(r: DogfightResult, a: BattleModel, b: BattleModel): void {
    const rtb = r.rtb;
    for (let i = 0; i < rtb.length; i++) (rtb[i] as BattleModel).rtb = true;
    this.afterDamage(a);
    this.afterDamage(b);
  }

  /**
   * The free move a dogfight survivor may make (v1.2.1; GM-72 for v1.2.2): up to its Speed in any
   * direction, chosen by its policy from its usual menu, with no attacks.
   */
  protected freeMove(m: BattleModel, rec: TraceActivation | null): void {
    if (m.state.destroyed || m.where !== 'table' || m.rtb) return;
    // A Boost is an action, not part of a free move: the menu offers only moves within Speed.
    const { opt } = this.chooseMove(m, this.policyOfSide(m.side), false);
    m.base.set(opt.pose.x, opt.pose.y, 0);
    this.epoch++;
    rec?.notes.push(`${m.label} makes its free move after the dogfight`);
  }

  /** Passive interception (§7.5, §7.6, §7.7): a friendly squadron within 3" of `ship` dogfights the striker. */
  protected interceptFor(ship: BattleModel, rec: TraceActivation | null): InterceptFn {
    // The closure only carries the ship and the trace to a method: as its body, the search's
    // loop read every value through the closure's context.
    return (striker) => this.intercept(ship, striker as BattleModel, rec);
  }

  /** interceptFor's interception of `s` striking `ship`: the nearest willing defender within 3", if any, dogfights it. */
  private intercept(ship: BattleModel, s: BattleModel, rec: TraceActivation | null): Interception {
    let best: BattleModel | null = null;
    let bestGap = Infinity;
    const models = this.models;
    for (let i = 0; i < models.length; i++) {
      const d = models[i];
      // A squadron Assaulting an enemy ship stays on it: it does not leave to intercept.
      if (d.side !== ship.side || d.unit.isCapital || !d.fights(this.br.inertHulks) || d.rtb || d.intercepted || d.assaulting || !mayIntercept(d)) continue;
      if (separationAbove(d.base, ship.base, INTERCEPT_REACH)) continue;
      const gap = separation(d.base, ship.base);
      if (gap >= bestGap) continue;
      if (!this.policyOfSide(d.side).wants(this, d, 'intercept', this.pol)) continue;
      best = d;
      bestGap = gap;
    }
    if (!best) return 'none';
    const pose = this.contactPose(best, s, Infinity);
    if (pose) best.base.set(pose.x, pose.y, 0);
    best.intercepted = true;
    rec?.notes.push(`${best.label} intercepts ${s.label}`);
    const r = dogfight(this.procedureHooks(rec), this.br.dogfight, s, best, this.dogfightChooser);
    this.dogfightAftermath(r, s, best);
    return { survived: !s.state.destroyed, noMoreAttacks: hasParticipant(r.noMoreAttacks, s) };
  }

  /**
   * A squadron's strike this activation, if its policy takes one: an active interception of an
   * enemy squadron it can reach, or a bombing run / assault on an enemy capital ship it can
   * reach. Returns true when the activation was spent on it. A dogfight survivor makes its free
   * move; under v1.2.2 the interceptor then carries on with its Attack Window (GM-72).
   */
  protected squadronStrike(m: BattleModel, policy: Policy, rec: TraceActivation | null): boolean {
    if (m.state.crippled) return false; // crippled squadrons (v1.2.1; option crippled_squadrons): Repair or Withdraw only
    // Candidates ranked cheaply first; the exact contact position is found only for the best.
    // The two candidate lists (enemy squadrons, enemy capital ships) are kept scratch arrays,
    // ranked by firstReachable with keys in a kept Float64Array: it is done with them before
    // anything this strike starts (a dogfight, a free move, a bombing) could come back here.
    const preys = this.strikePreys, ships = this.strikeShips;
    let np = 0, ns = 0;
    const speed = m.unit.speed;
    const enemies = this.enemiesOf(m.side);
    for (let i = 0; i < enemies.length; i++) {
      const e = enemies[i];
      const cd = hypot(e.base.x - m.base.x, e.base.y - m.base.y);
      if (cd - m.reach - e.reach > speed) continue; // cannot reach it whatever the shapes
      if (separationAbove(m.base, e.base, speed)) continue;
      // The ranking keys are worked out only for a list of two or more (see firstReachable).
      if (!e.unit.isCapital) preys[np++] = e;
      else ships[ns++] = e;
    }
    cutTo(preys, np);
    cutTo(ships, ns);
    const wantsIntercept = np > 0 && mayIntercept(m) && policy.wants(this, m, 'intercept', this.pol);
    const prey = wantsIntercept ? this.firstReachable(m, preys, speed) : null;
    const preyPose = prey ? this.reachedPose : null;
    const ship = prey ? null : this.firstReachable(m, ships, speed);
    const shipPose = ship ? this.reachedPose : null;
    const hooks = this.procedureHooks(rec);
    if (prey && preyPose) {
      if (rec) rec.action = 'intercept';
      if (prey.assaulting) {
        rec?.notes.push(`${prey.label} stops Assaulting ${prey.assaulting.label}: intercepted`);
        prey.assaulting = null; // interception cancels Assaulting (§11.4)
      }
      m.base.set(preyPose.x, preyPose.y, 0);
      const r = dogfight(hooks, this.br.dogfight, m, prey, this.dogfightChooser);
      this.dogfightAftermath(r, m, prey);
      if (hasParticipant(r.freeMove, m) && !this.ended) {
        this.freeMove(m, rec);
        // GM-72 (v1.2.2): the active model then carries on with its activation: its Attack Window.
        if (this.br.dogfight.afterwards === 'rtb_if_no_fuel' && !m.rtb && !this.ended) {
          const n = rec ? rec.attacks.length : 0;
          this.fireFrom(m, m.state.fireControl(), 'intercept', null, rec);
          if (rec && rec.attacks.length > n) rec.fired = 'after-move';
        }
      }
      return true;
    }
    if (!ship || !shipPose) return false;
    if (this.br.exoBoarding && m.unit.type === 'exo_armor' && policy.wants(this, m, 'board', this.pol)) {
      // v1.2.1 Exo-Armor boarding (INTERPRETATION ExoBoard121): the ship's point defence, then the
      // squadron's attacks at its Fire Control with +1 Flex, Belt ignored; then a Return to Base move.
      if (rec) rec.action = 'board';
      m.base.set(shipPose.x, shipPose.y, 0);
      rec?.notes.push(`${m.label} boards ${ship.label} (Exo-Armor)`);
      pointDefenceAttack(hooks, ship, m);
      this.afterDamage(m);
      if (!m.state.destroyed && !this.ended) hooks.attackWindow(m, ship, { kind: 'boarding', fc: m.state.fireControl(), flex: 1, ignoreArmor: true, noMissileDefence: true });
      this.afterDamage(ship);
      if (!m.state.destroyed) this.returnToBase(m, rec);
      return true;
    }
    if (this.br.assault && m.unit.type === 'exo_armor' && policy.wants(this, m, 'assault', this.pol)) {
      if (rec) rec.action = 'assault';
      m.base.set(shipPose.x, shipPose.y, 0);
      this.doAssault(m, ship, policy, rec);
      return true;
    }
    if ((m.unit.speed >= ship.unit.speed || m.fuel >= 1) && policy.wants(this, m, 'bombing', this.pol)) {
      if (rec) rec.action = 'bombing';
      m.base.set(shipPose.x, shipPose.y, 0);
      const r = bombing(hooks, this.br.strike, m, ship, this.interceptFor(ship, rec), RUN_ON);
      this.afterDamage(m);
      this.afterDamage(ship);
      if (r.rtb && !m.state.destroyed) {
        if (this.br.strike.returnToBase === 'state') m.rtb = true;
        else this.returnToBase(m, rec); // v1.2.1: an RTB move at once
      }
      return true;
    }
    return false;
  }

  // squadronStrike's candidate lists and their ranking keys (kept arrays: see cutTo), and the
  // contact position firstReachable found (a field rather than a [model, pose] pair per call).
  private readonly strikePreys: BattleModel[] = [];
  private readonly strikeShips: BattleModel[] = [];
  private strikeKeys = new Float64Array(16);
  private readonly strikeCaps: BattleModel[] = [];
  private reachedPose: Pose | null = null;

  /**
   * squadronStrike's choice among the candidates in `list`: ranked by their keys (worked out
   * here into strikeKeys, at the same places, for a list of two or more), the first whose contact
   * position `m` can reach within `speed`; its position is left in reachedPose. Null when none.
   */
  private firstReachable(m: BattleModel, list: BattleModel[], speed: number): BattleModel | null {
    const n = list.length;
    if (n > 1) {
      if (this.strikeKeys.length < n) this.strikeKeys = new Float64Array(2 * n);
      const keys = this.strikeKeys;
      // Our capital ships that fight, in model order: listed once for all the enemy squadrons.
      const caps = this.strikeCaps;
      let nc = -1;
      for (let i = 0; i < n; i++) {
        const e = list[i];
        if (!e.unit.isCapital) {
          if (nc < 0) {
            nc = 0;
            const models = this.models;
            for (let k = 0; k < models.length; k++) {
              const f = models[k];
              if (f.side !== m.side || !f.unit.isCapital || !f.fights(this.br.inertHulks)) continue;
              caps[nc++] = f;
            }
            cutTo(caps, nc);
          }
          // Intercept the enemy squadron closest to one of our capital ships (the biggest threat).
          let threat = Infinity;
          for (let k = 0; k < nc; k++) {
            const f = caps[k];
            threat = Math.min(threat, hypot(e.base.x - f.base.x, e.base.y - f.base.y) - f.bulk);
          }
          keys[i] = threat;
        } else {
          // Bomb or assault the most exposed ship in reach: least point defence and Structure
          // left (crippled hulks first), then the nearest.
          const exposed = e.state.defense + e.state.structure;
          keys[i] = shipKeyNeedsGap(list, i, speed, m.reach) ? exposed + separation(m.base, e.base) / 100 : exposed;
        }
      }
      // A stable insertion sort of both arrays by key (keys[a] - keys[b] > 0 moves a behind b).
      // The keys are finite, or Infinity for every squadron when no capital ship of ours
      // fights, so they order consistently: any stable sort (Array.prototype.sort included)
      // gives this order, whatever the list's length.
      for (let i = 1; i < n; i++) {
        const x = list[i], kx = keys[i];
        let j = i - 1;
        while (j >= 0 && keys[j] - kx > 0) {
          list[j + 1] = list[j];
          keys[j + 1] = keys[j];
          j--;
        }
        list[j + 1] = x;
        keys[j + 1] = kx;
      }
    }
    for (let i = 0; i < n; i++) {
      const pose = this.contactPose(m, list[i], speed);
      if (pose) {
        this.reachedPose = pose;
        return list[i];
      }
    }
    this.reachedPose = null;
    return null;
  }

  /**
   * Puts `b` (the base of squadron `m`) where it first stops overlapping `ship` going out from
   * the ship's centre along the unit vector (ux, uy): in base contact (Launch, riding Assaulters).
   */
  protected touchingAlong(b: MovingBase, m: BattleModel, ship: BattleModel, ux: number, uy: number): void {
    this.touchingFrom(b, m, ship, ux, uy, this.touchingEdge(b, ship, ux, uy));
  }

  /** Where touchingAlong's base stops overlapping the ship (from overlapSpan; NaN when it has none). */
  private touchingEdge(b: MovingBase, ship: BattleModel, ux: number, uy: number): number {
    b.set(ship.base.x, ship.base.y, 0);
    return overlapSpan(b, ux, uy, ship.base, SPAN_OUT) ? SPAN_OUT[1] : NaN;
  }

  /** touchingAlong with the edge that touchingEdge found. */
  private touchingFrom(b: MovingBase, m: BattleModel, ship: BattleModel, ux: number, uy: number, edge: number): void {
    // guidedBisection(0, ship.reach + m.reach + 0.01, 20, edge, test), test(t) putting b t
    // inches out and asking whether it still overlaps the ship, written out: the same steps
    // and answers, without a closure and its context per call and a boxed t per test.
    const at = ship.base, x0 = at.x, y0 = at.y;
    let lo = 0, hi = ship.reach + m.reach + 0.01;
    let guided = false;
    if (edge === edge) {
      let t = edge - GUIDE_MARGIN;
      b.set(x0 + ux * t, y0 + uy * t, 0);
      if (separationBelow(b, at, 0)) {
        t = edge + GUIDE_MARGIN;
        b.set(x0 + ux * t, y0 + uy * t, 0);
        guided = !separationBelow(b, at, 0);
      }
    }
    for (let i = 0; i < 20; i++) {
      const t = (lo + hi) / 2;
      let yes: boolean;
      if (guided && t < edge - GUIDE_MARGIN) yes = true;
      else if (guided && t > edge + GUIDE_MARGIN) yes = false;
      else {
        b.set(x0 + ux * t, y0 + uy * t, 0);
        yes = separationBelow(b, at, 0);
      }
      if (yes) lo = t;
      else hi = t;
    }
    b.set(x0 + ux * hi, y0 + uy * hi, 0);
  }

  /** Base `b` (where `m` would stand beside `ship`) is separated by more than `gap` from every other base on the table. */
  private clearOfAllBut(b: MovingBase, m: BattleModel, ship: BattleModel, gap: number): boolean {
    const models = this.models;
    for (let i = 0; i < models.length; i++) {
      const o = models[i];
      if (o === m || o === ship || o.where !== 'table') continue;
      if (!separationAbove(b, o.base, gap)) return false;
    }
    return true;
  }

  /**
   * GM-18 embarked_activation=CARRIER_ACTIVATION: when the carrier's activation ends, the models
   * aboard that have not activated yet this turn launch beside it, where it now stands, and
   * activate later in the turn like any model on the table. Nothing launches from a carrier
   * that was destroyed, left the table or changed sides during that activation, or once the
   * game has ended.
   */
  protected launchAboard(carrier: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    if (this.ended || carrier.side !== side || carrier.where !== 'table' || carrier.state.destroyed) return;
    for (const x of this.models) if (x.carrier === carrier && x.where === 'embarked' && !x.activated) this.launch(x, rec);
  }

  /** Land (GM-18): in base contact with the carrier, it becomes Embarked and its activation ends. */
  protected land(m: BattleModel, carrier: BattleModel, rec: TraceActivation | null): void {
    m.where = 'embarked';
    m.carrier = carrier;
    m.launched = true; // no Launch in the same activation
    this.epoch++;
    rec?.notes.push(`${m.label} lands on ${carrier.label}`);
  }

  /**
   * Launch (GM-18): placed with its base touching the carrier's, clear of every other base and
   * wholly on the table, nearest the enemy first. False when there is no such spot (it stays aboard).
   */
  protected launch(m: BattleModel, rec: TraceActivation | null): boolean {
    const c = m.carrier!;
    const enemy = this.nearestEnemies(c)[0] ?? null;
    const aim = enemy ? bearing(c.base.x, c.base.y, enemy.base.x, enemy.base.y) : c.base.heading;
    const b = baseAt(m, { x: c.base.x, y: c.base.y, heading: 0 });
    for (let k = 0; k < 16; k++) {
      const dir = aim + (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 22.5;
      const ux = sinDeg(dir), uy = cosDeg(dir);
      // Most spots tried are taken by a squadron launched just before. The bisection ends at
      // most its last step (and rounding) beyond the edge where the overlap ends (the overlap
      // along the line is one interval about the carrier's centre), so the third bases near
      // the edge, within that margin, say whether one is on the spot or all are clear of it,
      // before the bisection runs (separation changes by at most the distance a base moves).
      const edge = this.touchingEdge(b, c, ux, uy);
      let near = NEAR_OPEN;
      if (edge === edge) {
        b.set(c.base.x + ux * edge, c.base.y + uy * edge, 0);
        near = this.clearNear(b, m, c, (c.reach + m.reach + 0.01) / 1048576 + 1e-6);
        if (near === NEAR_BLOCKED) continue;
      }
      this.touchingFrom(b, m, c, ux, uy, edge);
      if (!onTable(b, this.width, this.height)) continue;
      if (near === NEAR_OPEN && !this.clearOfAllBut(b, m, c, GEOM_EPSILON)) continue;
      m.base.set(b.x, b.y, 0);
      m.where = 'table';
      m.carrier = null;
      m.launched = true;
      this.epoch++;
      rec?.notes.push(`${m.label} launches from ${c.label}`);
      return true;
    }
    rec?.notes.push(`${m.label} cannot launch from ${c.label}: no room beside it`);
    return false;
  }

  /**
   * An Assault and its aftermath (combat.md §11.3, §11.4): the squadron ends Assaulting (sitting
   * on the ship) when its policy wants to stay, else in Return to Base.
   */
  protected doAssault(m: BattleModel, ship: BattleModel, policy: Policy, rec: TraceActivation | null): void {
    const r = assault(this.procedureHooks(rec), m, ship, this.interceptFor(ship, rec));
    this.afterDamage(m);
    this.afterDamage(ship);
    m.assaulting = null;
    if (r.end === 'undecided' && !m.state.destroyed) {
      if (ship.fights(this.br.inertHulks) && policy.wants(this, m, 'assault', this.pol)) {
        m.assaulting = ship;
        rec?.notes.push(`${m.label} stays Assaulting ${ship.label}`);
      } else m.rtb = true;
    } else if (r.end === 'return_to_base') m.rtb = true;
    this.epoch++;
  }

  /**
   * An Assaulting squadron's own activation (§11.4): it stays and assaults again while its ship
   * still fights and its policy wants to, or cancels: placed 1" from the ship, then it acts normally.
   */
  protected assaultingTurn(m: BattleModel, policy: Policy, rec: TraceActivation | null): boolean {
    const ship = m.assaulting!;
    if (ship.fights(this.br.inertHulks) && ship.side !== m.side && policy.wants(this, m, 'assault', this.pol)) {
      if (rec) rec.action = 'assault';
      this.doAssault(m, ship, policy, rec);
      return true;
    }
    m.assaulting = null;
    const dx = m.base.x - ship.base.x, dy = m.base.y - ship.base.y, d = hypot(dx, dy) || 1;
    const want = { x: m.base.x + (dx / d) * 1, y: m.base.y + (dy / d) * 1, heading: 0 };
    const p = nearestLegal(this.br, m, want, this.models, this.width, this.height, 6);
    if (p) m.base.set(p.x, p.y, 0);
    rec?.notes.push(`${m.label} stops Assaulting ${ship.label}`);
    this.epoch++;
    return false;
  }

  /**
   * Squadrons Assaulting a ship that moved ride with it (§11.4): each is put back in base contact,
   * on the line from the ship's centre through where it was, clear of every other base. Where
   * there is no room it is placed at the nearest clear spot and goes home (Return to Base).
   * Returns whether any squadron was Assaulting the ship.
   */
  protected carryAssaulters(ship: BattleModel, rec: TraceActivation | null): boolean {
    // The work for one squadron is a method of its own: its closures capture the loop's
    // variables, and a loop body with captured variables made a context object on every
    // iteration, for every model, even those skipped at once.
    let any = false;
    for (const x of this.models) {
      if (x.assaulting !== ship || x.where !== 'table') continue;
      this.carryAssaulter(x, ship, rec);
      any = true;
    }
    return any;
  }

  /** carryAssaulters for one squadron Assaulting `ship`. */
  private carryAssaulter(x: BattleModel, ship: BattleModel, rec: TraceActivation | null): void {
    let dx = x.base.x - ship.base.x, dy = x.base.y - ship.base.y;
    let len = hypot(dx, dy);
    if (len < 1e-9) [dx, dy, len] = [sinDeg(ship.base.heading), cosDeg(ship.base.heading), 1];
    const b = baseAt(x, { x: 0, y: 0, heading: 0 });
    this.touchingAlong(b, x, ship, dx / len, dy / len);
    const clear = onTable(b, this.width, this.height) && this.clearOfAllBut(b, x, ship, NEG_EPSILON);
    if (clear) {
      x.base.set(b.x, b.y, 0);
      return;
    }
    x.assaulting = null;
    x.rtb = true;
    // The search tries spots ring by ring, and neighbouring spots are mostly ruled out by the
    // same base: the one that ruled out the last spot is asked first (the answer is the same
    // whichever base is asked first; this only stops sooner).
    let blocker: BattleModel | null = null;
    const ok = (q: Pose) => {
      const c = baseAt(x, q);
      if (!onTable(c, this.width, this.height)) return false;
      if (blocker && !separationAbove(c, blocker.base, NEG_EPSILON)) return false;
      for (const o of this.models) {
        if (o === x || o === blocker || o.where !== 'table') continue;
        if (!separationAbove(c, o.base, NEG_EPSILON)) {
          blocker = o;
          return false;
        }
      }
      return true;
    };
    // A spot is ruled out by a base it overlaps (separation -eps or less): rings within the
    // depth of an overlap where the search starts are not tried (b is still the start here).
    const skip = ruledOutWithin(b, x, this.models, OVERLAP_NEED);
    const p = nearestLegal(this.br, x, { x: b.x, y: b.y, heading: 0 }, this.models, this.width, this.height, 12, ok, skip);
    if (p) x.base.set(p.x, p.y, 0);
    rec?.notes.push(`${x.label} cannot stay on ${ship.label}: Return to Base`);
  }

}

/**
 * Whether the ranking key of the ship list[at] (Defense + Structure + separation / 100, see
 * squadronStrike) needs the separation: only where another ship in the list has a Defense +
 * Structure less than 1 from its own. A ship in reach of a squadron of that Speed (and base
 * reach) is at most Speed away and overlaps it by at most twice that reach, so where both are
 * under 25 the separation moves a key by less than 0.25: keys whose sums differ by 1 or more
 * compare the same with it or without it, after rounding too, and the sort (which only
 * compares keys) gives the same order. The separation, an exact outline measurement, is the
 * dearest part of the key.
 */
function shipKeyNeedsGap(list: readonly BattleModel[], at: number, speed: number, reach: number): boolean {
  if (!(speed < 25 && 2 * reach < 25)) return true;
  const c = list[at];
  const own = c.state.defense + c.state.structure;
  for (let i = 0; i < list.length; i++) {
    const o = list[i];
    if (i === at || !o.unit.isCapital) continue;
    const d = o.state.defense + o.state.structure - own;
    if (!(d >= 1 || d <= -1)) return true;
  }
  return false;
}

/**
 * -GEOM_EPSILON as one number kept by the module: written `-GEOM_EPSILON` at a call that was not
 * inlined, the negation was worked out and boxed into a fresh heap number at every call.
 */
const NEG_EPSILON = -GEOM_EPSILON;

/** How far a defender may be from the ship it intercepts for (3"), with the geometry's tolerance. */
const INTERCEPT_REACH = 3 + GEOM_EPSILON;

/** What rules a spot out for an Assaulter put back: overlapping a base (one function, not one per call). */
const OVERLAP_NEED = (): number => NEG_EPSILON;

/** The bombing chooser of the battle: every run it may make (one object, not one per bombing). */
const RUN_ON = { continueRun: (): boolean => true };

/** Whether `p` is in the (one- or two-entry) list of a dogfight result, without the includes builtin. */
function hasParticipant(list: readonly object[], p: object): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === p) return true;
  return false;
}
