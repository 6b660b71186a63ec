// One battle, start to end (game.md §4): Initiative, Deployment Phase, alternating
// activations, End Phase, for the scenario's number of Game Turns or until an early end.
// A Battle object is built once per (rules, scenario) and plays any number of games; each
// game depends only on its two streams (dice, policy) and whether the fleets are mirrored.
// The class is built in layers, one file each: battleState (models, policy view, estimates),
// deployment, manoeuvre, firing, squadronOps, and this file (the game and its scoring).
import type { ActionName } from '../../policies/types.js';
import type { RandomStream } from '../../rng/stream.js';
import { SYSTEM_TRAITS } from '../../units/catalogue.js';
import { GEOM_EPSILON, pointWithin } from '../geometry.js';
import type { ShotMods } from './gunnery.js';
import { engagePointDefence } from './strike.js';
import { BattleModel } from './model.js';
import type { Fate, GameResult, Trace, TraceActivation } from './battleTypes.js';
import { cutTo, poseOf } from './battleState.js';
import { BattleSquadrons } from './squadronOps.js';
export type { Fate, GameResult, Trace, TraceActivation } from './battleTypes.js';

/** activationPhase's two passes over the models for the waiting lists: own models, then captured ships. */
const CANDIDATE_PASSES = [false, true] as const;

export class Battle extends BattleSquadrons {
  // ------------------------------------------------------------------ the game

  /** Plays one game. `mirrored` swaps the fleets' table positions (and Initiative slot). */
  play(dice: RandomStream, pol: RandomStream, mirrored: boolean, trace: Trace | null = null): GameResult {
    this.dice = dice;
    this.pol = pol;
    this.trace = trace;
    this.ended = null;
    this.activations = 0;
    this.epoch++;
    this.enemyListsTurnStamp = -1;
    this.reachStamp = -1;
    this.nearStamp = -1;
    this.beacons = [];
    this.beaconGame++; // the beacon spots kept (beaconSpots) are last game's
    this.unplaced.length = 0;
    this.sideOfFleet = mirrored ? [1, 0] : [0, 1];
    for (const m of this.models) {
      m.reset();
      m.side = this.sideOfFleet[m.fleet];
    }
    const s = this.scenario;
    const initSide: 0 | 1 = s.initiative === 'a' ? 0 : s.initiative === 'b' ? 1 : dice.next() < 0.5 ? 0 : 1;
    this.initSide = initSide;
    const initFleet = (this.sideOfFleet[0] === initSide ? 0 : 1) as 0 | 1;
    if (trace) trace.initiative = `${initFleet === 0 ? 'A' : 'B'} (${s.sides[initFleet].name})`;
    if (s.zone === 'beacon') this.placeBeacons(initSide);
    const op: [number, number] = [0, 0];
    let turn = 1;
    // An end in the last turn's End Phase comes when the game would have ended anyway: not early.
    let early = false;
    for (; turn <= s.turns; turn++) {
      this.turn = turn;
      this.deploymentPhase(turn, initSide);
      this.activationPhase(initSide);
      if (this.ended) {
        early = true;
        break;
      }
      this.endPhase(turn, op);
      if (this.ended) {
        early = turn < s.turns;
        break;
      }
    }
    const turnsPlayed = Math.min(turn, s.turns);
    const vp = this.victoryPoints();
    const sideOp: [number, number] = [op[this.sideOfFleet[0]], op[this.sideOfFleet[1]]];
    const fleetVp: [number, number] = [vp[this.sideOfFleet[0]], vp[this.sideOfFleet[1]]];
    let winner: 0 | 1 | 2;
    if (this.br.scoring === 'enemy_losses') {
      // v1.2.1 §12.1: objectives give Victory Points "as the scenario sets", and the side with
      // more VP wins (GM-33): the winner is decided on VP + OP (both still reported apart).
      const a = fleetVp[0] + sideOp[0], b = fleetVp[1] + sideOp[1];
      winner = a !== b ? (a > b ? 0 : 1) : 2;
    } else {
      // v1.2.2 (seed 000): OP first, ties by VP.
      winner = sideOp[0] !== sideOp[1] ? (sideOp[0] > sideOp[1] ? 0 : 1) : fleetVp[0] !== fleetVp[1] ? (fleetVp[0] > fleetVp[1] ? 0 : 1) : 2;
    }
    const surviving: [number, number] = [0, 0];
    for (const m of this.models) if (this.fate(m) === 'intact' || this.fate(m) === 'reserve') surviving[m.fleet] += m.unit.tv;
    const reason = this.ended as string | null; // set by the phases played above
    return { op: sideOp, vp: fleetVp, survivingTv: surviving, winner, turns: turnsPlayed, activations: this.activations, initiative: initFleet, endReason: reason === null ? `${s.turns} turns played` : early ? reason : `${s.turns} turns played; at its end ${reason.replace(/ \(turn \d+\)$/, '')}`, endedEarly: early };
  }

  fate(m: BattleModel): Fate {
    if (m.captured && m.where !== 'destroyed' && !m.state.destroyed) return 'captured';
    if (m.where === 'withdrawn') return 'withdrawn';
    if (m.where === 'destroyed' || m.state.destroyed) return 'destroyed';
    if (m.state.crippled) return 'crippled';
    return m.where === 'reserve' ? 'reserve' : 'intact'; // Embarked counts x1 while its carrier survives (GM-31, VP-02)
  }

  // ------------------------------------------------------------------ activations

  protected activationPhase(initSide: 0 | 1): void {
    // Each side's waiting list: its models in candidate order (own models, then the ships it
    // captured), those that activated dropped as the phase goes (see activationCandidates).
    // Models in reserve, destroyed or withdrawn are left out: none is deployed or comes back
    // during the phase.
    const w0 = this.waiting[0], w1 = this.waiting[1];
    let n0 = 0, n1 = 0;
    for (const m of this.models) m.activated = false;
    for (const captured of CANDIDATE_PASSES) {
      for (const m of this.models) {
        // m.captured !== captured, by a branch: a comparison of two booleans compiled to a call
        // of the generic equality builtin.
        if ((m.captured ? !captured : captured) || (m.where !== 'table' && m.where !== 'embarked')) continue;
        if (m.side === 0) w0[n0++] = m;
        else w1[n1++] = m;
      }
    }
    this.waitingN[0] = n0;
    this.waitingN[1] = n1;
    let side = initSide;
    const cands = this.activationCands;
    for (;;) {
      if (this.ended) return;
      if (!this.activationCandidates(side, cands)) {
        side = (1 - side) as 0 | 1;
        if (!this.activationCandidates(side, cands)) return; // GM-03: the other side activates the rest one after another
      }
      const m = cands[this.policyOfSide(side).pickActivation(this, cands, this.pol)];
      this.activate(m);
      side = (1 - side) as 0 | 1;
    }
  }

  /** activationPhase's list of the models that may activate next, refilled in place (activationCandidates). */
  private readonly activationCands: BattleModel[] = [];

  /** Per side, its models that had not activated at the last look, in candidate order, and how many (activationPhase). */
  private readonly waiting: [BattleModel[], BattleModel[]] = [[], []];
  private readonly waitingN: [number, number] = [0, 0];

  /**
   * The models of side `s` that may still activate this turn, into `cands` (emptied first);
   * returns how many. The side's own models first, then ships it captured: the same order
   * whichever fleet holds which table position, so mirrored games stay mirror images.
   * In a phase a model changes sides (or becomes Captured) only when captured, and that marks it
   * activated: a model that has not activated is still on the side, and in the place, where the
   * phase's start put it. So the side's waiting list holds every candidate, in order; models
   * that have activated leave it for the rest of the phase.
   */
  protected activationCandidates(s: 0 | 1, cands: BattleModel[]): number {
    const w = this.waiting[s];
    const len = this.waitingN[s];
    let n = 0; // refilled in place: emptying the array would drop its backing store
    let k = 0;
    for (let i = 0; i < len; i++) {
      const m = w[i];
      if (m.activated) continue;
      w[k++] = m;
      if (m.fights(this.br.inertHulks) || this.mayLaunch(m)) cands[n++] = m;
    }
    this.waitingN[s] = k;
    cutTo(cands, n);
    return n;
  }

  /**
   * An Embarked model is eligible to launch in its own activation (GM-18), unless it launches
   * with its carrier (embarked_activation=CARRIER_ACTIVATION) and the carrier can still activate
   * (an inert hulk never does: then it launches on its own).
   */
  protected mayLaunch(m: BattleModel): boolean {
    return m.where === 'embarked' && (!this.br.launchWithCarrier || !m.carrier!.fights(this.br.inertHulks));
  }

  protected activate(m: BattleModel): void {
    m.activated = true;
    this.activations++;
    this.epoch++;
    this.activationStarts++;
    this.gunnery.startActivation();
    let policy = this.policyOfSide(m.side);
    const rec: TraceActivation | null = this.trace
      ? { turn: this.turn, model: m.label, action: 'none', before: poseOf(m.where === 'embarked' && m.carrier ? m.carrier.base : m.base), after: poseOf(m.base), fired: 'none', attacks: [], notes: [] }
      : null;
    this.currentRec = rec;
    // The activation's end (finishActivation) and the special actions (specialAction) are
    // methods, and the fire at a forced move's stop is a closure made in fireAtStop: closures
    // made here would put this function's variables in a context object allocated on every
    // activation, and make three closures each time.
    const side = m.side; // its side when the activation began (a capture may change m.side)
    // Ram (§8): a capital ship at 1 Structure with an enemy capital ship ahead.
    m.launched = false;
    // Embarked (GM-18): Launch, placed touching the carrier, then carry on with the activation.
    if (m.where === 'embarked') {
      if (!this.launch(m, rec)) return this.finishActivation(m, side, rec);
    }
    // Return to Base (GM-77): it heads at full Speed for the nearest friendly carrier with room
    // (and Lands on reaching it) or else its own table edge; no attacks, nothing declared; the
    // state ends with this activation.
    if (m.rtb) {
      if (rec) rec.action = 'return_to_base';
      this.returnToBase(m, rec);
      m.rtb = false;
      return this.finishActivation(m, side, rec);
    }
    // Boarded (v1.2.2, GM-20): Boarders and Marines fight at the start of the ship's activation
    // (boarding_combat_timing=END_PHASE: in the End Phase instead).
    if (m.boarders > 0 && this.br.boarding.procedure === 'boarded_state' && !this.br.boardedFightInEndPhase) {
      this.resolveBoardedFight(m, rec);
      if (m.captured) {
        // GM-75: captured before its owner acts; the captor completes the activation.
        policy = this.policyOfSide(m.side);
        rec?.notes.push(`${m.label}: its captor completes the activation (GM-75)`);
      }
    }
    const ram = this.ramOption(m);
    if (ram && policy.wants(this, m, 'ram', this.pol)) {
      if (rec) rec.action = 'ram';
      const result = this.doRam(m, ram, rec);
      if (result !== 'rammed' && m.unit.isCapital && !m.state.destroyed && !this.ended) {
        // GM-90: a capital ship whose ram fails makes its normal move (at least its minimum
        // distance: Ram was its action, so no Station Keep or Boost), still without attacking.
        const choice = this.chooseMove(m, policy, false);
        const { opt, forced } = this.thrustersZeroTurn(m, choice.opt, choice.forced, rec);
        m.base.place(opt.pose);
        if (choice.leaves) {
          this.leaveTable(m, rec);
          return this.finishActivation(m, side, rec);
        }
        this.carryAssaulters(m, rec);
        if (forced) this.resolveOverlaps(m, () => {}, rec);
      }
      return this.finishActivation(m, side, rec);
    }
    // Repair (GM-19 stub, option enable_repair): the declared action, resolved first; the model
    // then moves (no Station Keep or Boost: those are actions too) and attacks as usual.
    const repairing = this.br.repair && this.repairable(m) && policy.wants(this, m, 'repair', this.pol);
    if (repairing) this.repair(m, rec);
    // Squadron actions: staying Assaulting; interception, bombing, assault (game.md §7.5-7.7).
    if (!repairing && m.assaulting && this.assaultingTurn(m, policy, rec)) return this.finishActivation(m, side, rec);
    if (!repairing && !m.unit.isCapital && this.squadronStrike(m, policy, rec)) return this.finishActivation(m, side, rec);
    // Withdraw (GM-16): leaves by an own edge; no attacks unless withdraw_allows_attacks=YES.
    if (!repairing && policy.wants(this, m, 'withdraw', this.pol)) {
      const p = this.withdrawMove(m);
      if (p) {
        if (rec) rec.action = 'withdraw';
        if (this.br.withdrawAttacks) {
          // Its shots come from where it stands: the move ends at (or past) its own edge.
          this.fireFrom(m, m.state.fireControl(), 'withdraw', null, rec);
          if (rec && rec.attacks.length) rec.fired = 'before-move';
          if (this.ended) return this.finishActivation(m, side, rec);
        }
        m.base.set(p.x, p.y, p.heading);
        m.where = 'withdrawn';
        this.afterDamage(m);
        return this.finishActivation(m, side, rec);
      }
    }
    const choice = this.chooseMove(m, policy, !repairing);
    const { opt, forced } = this.thrustersZeroTurn(m, choice.opt, choice.forced, rec);
    let action: ActionName = repairing ? 'repair' : opt.action;
    let fc = m.state.fireControl();
    let cf: ShotMods | null = null;
    const firePose = choice.fireBefore ? m.base : opt.pose;
    const enemies = this.enemiesOf(m.side);
    const targets = policy.targetOrder(this, m, firePose, enemies, this.pol);
    const first = targets[0];
    // The fire below asks for the same order from the same pose: where the policy's order is a
    // pure function of the table (no draws from its stream) and nothing on the table changes
    // in between, this list is that answer. Before the move nothing does (skill tests roll
    // the dice only; Evading, Station Keep and Fuel are not read by the order).
    const pure = policy.targetsByRule === true;
    if (action === 'none' && first && first.unit.isCapital && this.estimateShots(m, firePose, first) >= 2 && policy.wants(this, m, 'concentrated_fire', this.pol)) {
      action = 'concentrated_fire';
      // v1.2.1: Skill or Sensors (the player picks: the better); v1.2.2: Skill.
      const dice = this.br.concentratedFireDice === 'skill_or_sensors' ? Math.max(m.unit.skill, m.state.sensors) : m.unit.skill;
      const pass = this.skillTest(dice);
      cf = { flex: this.br.concentratedFireFlex ? 1 : 0, rerolls: pass ? 1 : 0 };
      if (rec) rec.test = `Concentrated Fire Skill Test (${dice} dice): ${pass ? '[D+] passed' : '[N]'}`;
    } else if (action === 'none' && !first && this.canEvade(m) && policy.wants(this, m, 'evade', this.pol)) {
      action = 'evade';
      m.evading = true;
      if (this.br.evadeTest) {
        const dice = Math.max(m.unit.skill, m.unit.isCapital ? m.state.thrusters : m.fuel);
        const pass = this.skillTest(dice);
        if (!pass) fc = Math.min(fc, 1);
        if (rec) rec.test = `Evade Skill Test (${dice} dice): ${pass ? '[D+] passed' : '[N]: Fire Control drops to 1'}`;
      }
    }
    if (action === 'none' && m.unit.isCapital && this.br.engagePointDefence && this.anySquadronNear(m, opt.pose, 3) && policy.wants(this, m, 'engage_point_defence', this.pol)) {
      action = 'engage_point_defence'; // combat.md §8.3 EngagePD: resolved after the move
    }
    const boardTarget = action === 'none' && m.unit.isCapital ? this.boardingTarget(m, opt.pose) : null;
    if (boardTarget && policy.wants(this, m, 'board', this.pol)) action = 'board';
    if (action === 'station_keep') m.stationKeeping = true;
    if (action === 'boost') {
      // Fire Control halved, rounded up (§6.4); squadrons too unless boost_halves_fc=CAPITAL_ONLY (GM-60).
      if (this.boostHalvesFc(m)) fc = Math.ceil(fc / 2);
      m.fuel = Math.max(0, m.fuel - (opt.fuel ?? 0));
    }
    if (rec) rec.action = action;
    if (choice.fireBefore) {
      fc = this.fireFrom(m, fc, action, cf, rec, pure ? targets : null);
      if (rec && rec.attacks.length) rec.fired = 'before-move';
      if (this.ended) return this.finishActivation(m, side, rec);
    }
    m.base.place(opt.pose);
    if (choice.leaves) {
      this.leaveTable(m, rec);
      return this.finishActivation(m, side, rec);
    }
    // After the move, m stands at opt.pose (the pose the order was worked out for); the list
    // still holds unless squadrons Assaulting m were carried along, the forced move's overlaps
    // were resolved, or a special action (Engage Point Defence, Board) was made.
    let same = pure && !forced && action !== 'engage_point_defence' && action !== 'board';
    if (m.unit.isCapital && this.carryAssaulters(m, rec)) same = false;
    const firedAtStop = forced && this.fireAtStop(m, action, boardTarget, fc, cf, choice.fireBefore, rec);
    if (!firedAtStop) this.specialAction(m, action, boardTarget, rec);
    if (!choice.fireBefore && !firedAtStop && !this.ended) {
      const n = rec ? rec.attacks.length : 0;
      fc = this.fireFrom(m, fc, action, cf, rec, same ? targets : null);
      if (rec && rec.attacks.length > n) rec.fired = 'after-move';
    }
    return this.finishActivation(m, side, rec);
  }

  /** The end of every activation: launches with the carrier, Fuel back (§6.5), the trace record. */
  private finishActivation(m: BattleModel, side: 0 | 1, rec: TraceActivation | null): void {
    if (this.br.launchWithCarrier && m.unit.hangers > 0) this.launchAboard(m, side, rec);
    if (this.br.fuelAfterActivation && !m.unit.isCapital) m.fuel = m.unit.fuel; // §6.5 (GM-13)
    if (rec) {
      rec.after = poseOf(m.base);
      this.trace!.activations.push(rec);
    }
  }

  /** The declared special action, resolved where the ship stands after its move. */
  private specialAction(m: BattleModel, action: ActionName, boardTarget: BattleModel | null, rec: TraceActivation | null): void {
    if (action === 'engage_point_defence' && !this.ended) {
      const targets = this.squadronsNear(m, m.base, 3);
      engagePointDefence(this.procedureHooks(rec), m, targets, { diminish: (sq) => (sq as BattleModel).assaulting !== null });
      for (const t of targets) this.afterDamage(t);
    }
    if (action === 'board' && boardTarget && !this.ended) this.board(m, boardTarget, rec);
  }

  /**
   * Resolves the overlaps of a forced move; returns whether the ship stopped on the way, made
   * its special actions and fired there (then its Fire Control left is lost).
   */
  private fireAtStop(m: BattleModel, action: ActionName, boardTarget: BattleModel | null, fc: number, cf: ShotMods | null, firedBefore: boolean, rec: TraceActivation | null): boolean {
    let stopped = false;
    this.resolveOverlaps(m, () => {
      // GM-64 (seed 002): an active ship to be repositioned stops, makes its special actions and
      // uses its remaining Fire Control there; Fire Control it does not use then is lost.
      stopped = true;
      this.specialAction(m, action, boardTarget, rec);
      const n = rec ? rec.attacks.length : 0;
      if (!firedBefore && !this.ended) this.fireFrom(m, fc, action, cf, rec);
      if (rec && rec.attacks.length > n) rec.fired = 'after-move';
    }, rec);
    return stopped;
  }

  /** A model that may declare Repair (GM-19): the Repair trait, on the table, not Assaulting, with a lost box to restore. */
  protected repairable(m: BattleModel): boolean {
    const t = m.state, u = m.unit;
    if (!u.traits.has('Repair') || m.where !== 'table' || t.destroyed || m.assaulting) return false;
    // A Crippled model gets no Structure back: Crippled is what its lost Structure made it.
    return t.disabledSystems !== 0 || t.defense < u.defense || t.sensors < u.sensors || t.thrusters < u.thrusters || t.fireControlLost > 0 || (t.structure < u.structure && !t.crippled);
  }

  /**
   * The Repair stub (GM-19): a Skill Test; on [D+] one lost box comes back: a knocked-out System
   * trait, else a lost point of Defense, Sensors, Thrusters or Fire Control (in that order),
   * else 1 Structure (not for a Crippled model, which stays Crippled).
   */
  protected repair(m: BattleModel, rec: TraceActivation | null): void {
    const t = m.state, u = m.unit;
    this.usage.unit(u, 'traits.Repair');
    const pass = this.skillTest(u.skill);
    if (rec) rec.test = `Repair Skill Test (${u.skill} dice): ${pass ? '[D+] passed' : '[N]: nothing repaired'}`;
    if (!pass) return;
    let what: string;
    if (t.disabledSystems !== 0) {
      const i = Math.log2(t.disabledSystems & -t.disabledSystems);
      t.disabledSystems &= ~(1 << i);
      what = `its ${SYSTEM_TRAITS[i]} system`;
    } else if (t.defense < u.defense) {
      t.defense++;
      what = '1 Defense';
    } else if (t.sensors < u.sensors) {
      t.sensors++;
      what = '1 Sensors';
    } else if (t.thrusters < u.thrusters) {
      t.thrusters++;
      what = '1 Thrusters';
    } else if (t.fireControlLost > 0) {
      t.fireControlLost--;
      what = '1 Fire Control';
    } else if (!t.crippled) {
      t.structure++;
      what = '1 Structure';
    } else return;
    this.epoch++;
    rec?.notes.push(`${m.label} repairs ${what} (GM-19)`);
  }

  // ------------------------------------------------------------------ End Phase and scoring

  protected endPhase(turn: number, op: [number, number]): void {
    // GM-51 (a): effects that fall due in the End Phase.
    const notes: string[] = [];
    if (this.br.boardedFightInEndPhase && this.br.boarding.procedure === 'boarded_state') this.endPhaseBoardedFights(notes);
    // The lines of what scored are for the trace only: untraced games build no text.
    const scored: string[] | null = this.trace ? [] : null;
    const models = this.models, inert = this.br.inertHulks;
    for (const o of this.objectives) {
      if (turn < o.fromTurn) continue;
      // Whether each side has a model near the marker, in two locals rather than a new array per marker.
      let near0 = false, near1 = false;
      for (let i = 0; i < models.length; i++) {
        const m = models[i];
        if (m.fights(inert) && pointWithin(o.x, o.y, m.base, o.radius + GEOM_EPSILON)) {
          if (m.side === 0) near0 = true;
          else near1 = true;
        }
      }
      if (near0 ? !near1 : near1) {
        const side = near0 ? 0 : 1;
        op[side] += o.points;
        scored?.push(`${o.id}: +${o.points} OP to ${this.fleetLabel(side as 0 | 1)}`);
      }
    }
    if (this.trace && scored) {
      const entry: Trace['endPhases'][number] = { turn, op: [op[this.sideOfFleet[0]], op[this.sideOfFleet[1]]], scored };
      if (notes.length) entry.notes = notes;
      this.trace.endPhases.push(entry);
    }
    const e = this.scenario.earlyEnd;
    if (e.opAtLeast !== null && (op[0] >= e.opAtLeast || op[1] >= e.opAtLeast)) this.ended = `a fleet reached ${e.opAtLeast} Objective Points (turn ${turn})`;
    if (e.noCapitalShips) {
      for (const side of [0, 1] as const) {
        const caps = this.models.filter((m) => m.side === side && m.unit.isCapital);
        if (caps.length && caps.every((m) => m.where !== 'reserve' && !m.fights(this.br.inertHulks))) this.ended = `a fleet has no capital ship left that can fight (turn ${turn})`;
      }
    }
    for (const m of this.models) {
      m.evading = false; // GM-05 cleanup
      m.stationKeeping = false;
      if (!this.br.fuelAfterActivation && !m.unit.isCapital) m.fuel = m.unit.fuel; // fuel_refill=END_PHASE
      m.intercepted = false;
    }
  }

  /**
   * GM-20 boarding_combat_timing=END_PHASE: every Boarded ship on the table fights once, the
   * Initiative side's ships first (its own before those it captured, in model order). Trace
   * lines go to the End Phase's notes.
   */
  protected endPhaseBoardedFights(notes: string[]): void {
    for (const side of [this.initSide, (1 - this.initSide) as 0 | 1]) {
      for (const own of [false, true]) {
        for (const m of this.models) {
          if (m.side !== side || m.captured !== own || m.boarders === 0 || m.where !== 'table' || m.state.destroyed || this.ended) continue;
          const rec: TraceActivation | null = this.trace ? { turn: this.turn, model: m.label, action: 'none', before: poseOf(m.base), after: poseOf(m.base), fired: 'none', attacks: [], notes } : null;
          this.resolveBoardedFight(m, rec);
        }
      }
    }
  }

  /** Victory Points per table position (seed 000 for v1.2.2; §12.1 for v1.2.1), rounded up per model (GM-94). */
  victoryPoints(): [number, number] {
    const vp: [number, number] = [0, 0];
    const round = this.br.vpRoundUp ? Math.ceil : (x: number) => x;
    for (const m of this.models) {
      const f = this.fate(m);
      const tv = m.unit.tv;
      if (f === 'captured') {
        vp[m.side] += round(tv * 1.5); // to the captor (its side now); the original owner scores 0 (seed 000, §12.1)
        continue;
      }
      if (this.br.scoring === 'own_survivors') {
        const mult = f === 'intact' ? 1 : f === 'reserve' ? this.br.reserveVp : f === 'withdrawn' ? 0.5 : 0;
        vp[m.side] += round(tv * mult);
      } else {
        const gain = f === 'destroyed' || (f === 'crippled' && m.unit.isCapital) ? tv : f === 'withdrawn' ? round(tv / 2) : 0;
        vp[1 - m.side] += gain;
      }
    }
    return vp;
  }
}
