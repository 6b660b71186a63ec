// Attacks in a battle (game.md §5.2, combat.md §4 and §7): a model's fire, the hooks the
// squadron procedures attack through, damage bookkeeping, missile support and Barrier cover.
import type { ActionName } from '../../policies/types.js';
import { GEOM_EPSILON, bearing, normalizeDeg, segmentWithin, separationAbove, shortestLine } from '../geometry.js';
import { shotMods, type ShotMods } from './gunnery.js';
import type { ProcedureHooks } from './procedures.js';
import { BattleModel } from './model.js';
import type { Pose } from './movement.js';
import type { TraceActivation } from './battleTypes.js';
import { ARC_OF_REL } from './battleState.js';
import { BattleManoeuvre } from './manoeuvre.js';

export abstract class BattleFiring extends BattleManoeuvre {
  /** GM-32 / GM-76 (squadronOps.ts): squadrons aboard a carrier that is Destroyed or Captured are Destroyed. */
  protected abstract loseEmbarked(carrier: BattleModel): void;
  /** Squadrons aboard a carrier that withdraws leave with it, as Withdrawn (squadronOps.ts). */
  protected abstract withdrawEmbarked(carrier: BattleModel): void;

  /**
   * Hooks through which the squadron and boarding procedures attack, roll and write the trace.
   * Without a trace record they are the same every time (until a new game brings new dice), so
   * that set is made once rather than an object and two closures per squadron procedure.
   */
  protected procedureHooks(rec: TraceActivation | null): ProcedureHooks {
    if (rec !== null) return this.makeHooks(rec);
    const h = this.untracedHooks;
    if (h !== null && h.rng === this.dice) return h;
    return (this.untracedHooks = this.makeHooks(null));
  }
  private untracedHooks: ProcedureHooks | null = null;

  private makeHooks(rec: TraceActivation | null): ProcedureHooks {
    return {
      rules: this.rules,
      roller: this.roller,
      rng: this.dice,
      tally: this.tally,
      attackWindow: (att, tgt, opts) => {
        const a = att as BattleModel, t = tgt as BattleModel;
        const mods = this.openFire(a);
        let left: number;
        try {
          this.shotTgt = t;
          // GM-63: attacks on a ship that declared Station Keep get its Flex in every Attack Window.
          mods.flex = (opts.flex ?? 0) + (t.stationKeeping ? this.br.stationKeepFlex : 0);
          mods.noMissileDefence = opts.noMissileDefence;
          mods.ignoreArmor = opts.ignoreArmor;
          mods.assault = opts.assault;
          mods.window = opts.kind;
          mods.noBombs = opts.noBombs;
          mods.barrier = this.anyBarrier ? this.barrierNow : undefined;
          const n = rec ? rec.attacks.length : 0;
          const order = this.windowOrder;
          order[0] = t;
          left = this.gunnery.fireInWindow(a, order, opts.fc, this.modsOfWindow, this.dice, this.tally, rec ? rec.attacks : null, this.onHit);
          if (rec && rec.attacks.length > n) rec.fired = rec.fired === 'none' ? 'after-move' : rec.fired;
        } finally {
          this.closeFire();
        }
        this.afterDamage(t);
        return opts.fc - left;
      },
      note: (line) => {
        rec?.notes.push(line);
      },
      // Notes go to the activation's trace record only: without one, none are made.
      tracing: rec !== null,
    };
  }

  /** Bookkeeping after damage: removal of destroyed models; v1.2.1 immediate end (GM-52). */
  protected afterDamage(m: BattleModel): boolean {
    this.epoch++;
    if (m.state.destroyed && m.where === 'table') m.where = 'destroyed';
    if (m.unit.isCapital && m.unit.hangers > 0) {
      if (m.where === 'destroyed') this.loseEmbarked(m); // GM-32 (a capture is handled in capture())
      else if (m.where === 'withdrawn') this.withdrawEmbarked(m);
    }
    if (this.br.immediateEndWithoutCapitals && this.objectives.length === 0 && !this.ended) {
      for (const side of [0, 1] as const) {
        const fleet = this.models.filter((x) => x.side === side && x.unit.isCapital);
        // GM-52: Crippled ships still count unless crippled_counts_as_lost=YES.
        const cripples = this.br.crippledCountsAsLost;
        if (fleet.length && fleet.every((x) => x.where === 'destroyed' || x.where === 'withdrawn' || x.state.destroyed || (cripples && x.state.crippled))) {
          this.ended = `fleet ${this.fleetLabel(side)} has no capital ship left (turn ${this.turn}; v1.2.1: the game ends at once)`;
          return true;
        }
      }
    }
    return false;
  }

  /**
   * `m` fires with Fire Control `fc` from where it stands. `known`: the list its policy's
   * targetOrder gave for this very pose with nothing changed since (the caller vouches for
   * that), used instead of asking again; null asks the policy.
   */
  protected fireFrom(m: BattleModel, fc: number, action: ActionName, cf: ShotMods | null, rec: TraceActivation | null, known: BattleModel[] | null = null): number {
    let order = known ?? this.policyOfSide(m.side).targetOrder(this, m, m.base, this.enemiesOf(m.side), this.pol);
    if (cf) {
      // Concentrated Fire: a single capital-ship target, the first in the order, in a list kept
      // for it (a fire never starts another) rather than two fresh arrays and a closure.
      const one = this.cfOrder;
      if (one.length > 0) one.pop();
      for (const e of order) {
        if (e.unit.isCapital) {
          one.push(e);
          break;
        }
      }
      order = one;
    }
    // Concentrated Fire's Flex goes to non-missile attacks only (combat.md §5.4).
    let missiles = false;
    for (const w of m.unit.weapons) if (w.cls === 'missile') missiles = true;
    // The fire's modifiers are set for each target in turn (modsOfTarget): Gunnery.fire uses a
    // target's modifiers only while it fires at that target.
    const mods = this.openFire(m);
    try {
      mods.nonMissileFlex = cf ? cf.flex : 0;
      mods.rerolls = cf ? cf.rerolls : 0;
      mods.supporters = missiles ? this.supportersNow : undefined;
      mods.barrier = this.anyBarrier ? this.barrierNow : undefined;
      const log = rec ? rec.attacks : null;
      return this.gunnery.fire(m, order, fc, this.modsOfTarget, this.dice, this.tally, log, this.onHit);
    } finally {
      this.closeFire();
    }
  }

  // The fire in progress (fireFrom, or an Attack Window of the hooks): its attacker, the target
  // it is firing at, and its modifiers, which the callbacks below read. They are made once,
  // rather than a modifiers object and two or three closures for each fire, which were among a
  // game's largest allocations. A fire never starts another (the bookkeeping after an attack
  // makes none); openFire checks that.
  private shotAtt: BattleModel | null = null;
  private shotTgt: BattleModel | null = null;
  private readonly fireMods: ShotMods = shotMods({ flex: 0, rerolls: 0 });
  private readonly windowOrder: BattleModel[] = [];
  /** fireFrom's target list under Concentrated Fire: at most one model. */
  private readonly cfOrder: BattleModel[] = [];
  private readonly supportersNow = (): number => this.missileSupporters(this.shotAtt!, this.shotTgt!);
  private readonly barrierNow = (md: ShotMods): void => this.barrierCover(this.shotAtt!, this.shotTgt!, md);
  /** fireFrom's modifiers for target `t`: its Station Keep Flex, and the support and cover worked out again (by the callbacks) when needed. */
  private readonly modsOfTarget = (t: BattleModel): ShotMods => {
    const mods = this.fireMods;
    this.shotTgt = t;
    mods.flex = t.stationKeeping ? this.br.stationKeepFlex : 0;
    mods.missileSupporters = undefined;
    mods.barrierDefense = undefined;
    mods.barrierSupporting = undefined;
    return mods;
  };
  /** An Attack Window's modifiers: one target, set before the window opens. */
  private readonly modsOfWindow = (): ShotMods => this.fireMods;

  /** Starts a fire by `att`: the modifiers object, with every field as a new shotMods({ flex: 0, rerolls: 0 }) has it. */
  private openFire(att: BattleModel): ShotMods {
    if (this.shotAtt !== null) throw new Error(`${att.label} opens fire while ${this.shotAtt.label} is firing`);
    this.shotAtt = att;
    const mods = this.fireMods;
    mods.flex = 0;
    mods.rerolls = 0;
    mods.noMissileDefence = undefined;
    mods.ignoreArmor = undefined;
    mods.assault = undefined;
    mods.window = undefined;
    mods.nonMissileFlex = undefined;
    mods.missileSupporters = undefined;
    mods.supporters = undefined;
    mods.barrierDefense = undefined;
    mods.barrierSupporting = undefined;
    mods.barrier = undefined;
    mods.noBombs = undefined;
    return mods;
  }

  private closeFire(): void {
    this.shotAtt = null;
    this.shotTgt = null;
  }

  /** Gunnery.fire's bookkeeping after each attack; true stops the fire (the game ended). One closure for all fire. */
  private readonly onHit = (hit: BattleModel): boolean => {
    this.afterDamage(hit);
    return this.ended !== null;
  };

  /**
   * Friendly models of `tgt` that help its missile defence against `att` (combat.md §4.3,
   * Assist122): on the table, not the target, Defense >= 1, and within 3" of the shortest line
   * between the two bases.
   */
  protected missileSupporters(att: BattleModel, tgt: BattleModel): number {
    // Every point of that line lies within the larger base reach of the line between the
    // centres: models farther than that (plus 3" and their own reach) are left out unmeasured.
    const spread = Math.max(att.reach, tgt.reach);
    const ax = att.base.x, ay = att.base.y, tx = tgt.base.x, ty = tgt.base.y;
    const cx = tx - ax, cy = ty - ay, len2 = cx * cx + cy * cy;
    const rA = att.base.outerR, rT = tgt.base.outerR;
    let n = 0;
    // Only the target's side fights beside it: its list (kept between changes) is gone through
    // rather than every model of the battle.
    for (const o of this.enemiesOf(tgt.side === 0 ? 1 : 0)) {
      if (!this.mayHelpDefend(o, att, tgt)) continue;
      const ox = o.base.x, oy = o.base.y;
      let u = len2 > 0 ? ((ox - ax) * cx + (oy - ay) * cy) / len2 : 0;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      const ex = ox - (ax + u * cx), ey = oy - (ay + u * cy);
      const e2 = ex * ex + ey * ey;
      const far = 3 + GEOM_EPSILON + spread + o.reach;
      if (e2 > far * far) continue;
      // The other way round: the line's point at fraction s of its length lies within
      // (1 - s) rA + s rT of the centre line's (its ends lie in the two bases), so o's centre
      // is at most that much farther from the line than from the centre line's point at s (s
      // taken at 0, 1 and u here). A base within 3" by that bound, less o's inner radius, is
      // within 3" of the line: no need to measure the line itself, the dearest part of the
      // test, for a supporter beside the target or the attacker. The margin of 1e-6 is far
      // above the rounding of the line's and these few operations, so the answer is
      // nearLineOfFire's.
      const toA = Math.sqrt((ox - ax) * (ox - ax) + (oy - ay) * (oy - ay)) + rA;
      const toT = Math.sqrt((ox - tx) * (ox - tx) + (oy - ty) * (oy - ty)) + rT;
      const toU = Math.sqrt(e2) + (1 - u) * rA + u * rT;
      const bound = Math.min(toA, toT, toU) - o.base.innerR;
      if (bound < 3 + GEOM_EPSILON - 1e-6 || this.nearLineOfFire(o, att, tgt)) n++;
    }
    return n;
  }

  /** A friend of `tgt` that may help defend it against `att`: on the table and fighting (not an inert hulk, GM-21), Defense >= 1. */
  protected mayHelpDefend(o: BattleModel, att: BattleModel, tgt: BattleModel): boolean {
    return o !== tgt && o !== att && o.side === tgt.side && o.where === 'table' && !o.state.destroyed && o.state.defense >= 1 && o.fights(this.br.inertHulks);
  }

  /**
   * Whether `o`'s base lies within 3" of the shortest line between the bases of `att` and `tgt`
   * (missile support). The line is measured once for a pair standing where they stand.
   */
  protected nearLineOfFire(o: BattleModel, att: BattleModel, tgt: BattleModel): boolean {
    const a = att.base, t = tgt.base, k = this.lineKey;
    if (this.lineAtt !== att || this.lineTgt !== tgt || k[0] !== a.x || k[1] !== a.y || k[2] !== a.heading || k[3] !== t.x || k[4] !== t.y || k[5] !== t.heading) {
      shortestLine(a, t, this.line);
      this.lineAtt = att;
      this.lineTgt = tgt;
      k[0] = a.x;
      k[1] = a.y;
      k[2] = a.heading;
      k[3] = t.x;
      k[4] = t.y;
      k[5] = t.heading;
    }
    return segmentWithin(o.base, this.line[0], this.line[1], this.line[2], this.line[3], 3 + GEOM_EPSILON);
  }
  protected readonly line = new Float64Array(4);
  protected readonly lineKey = new Float64Array(6);
  protected lineAtt: BattleModel | null = null;
  protected lineTgt: BattleModel | null = null;

  /**
   * The Barrier Defense `tgt` may defend with against `att` (combat.md §7.2-7.3): the highest
   * Defense among its friends on the table with a working Barrier within combat.barrierReach of
   * it, and whether every friend with that Defense is also one of its missile supporters (then,
   * under v1.2.1, it adds no support of its own). Several Barriers do not stack: the defender
   * takes the best. Its own Barrier, if any, is planAttack's.
   */
  protected barrierCover(att: BattleModel, tgt: BattleModel, mods: ShotMods): void {
    let best = 0;
    let supporting = true;
    const reach = this.rules.combat.barrierReach + GEOM_EPSILON;
    // Whether the lenders support counts only where other friends add support to a lent
    // Defense (defenceDice reads barrierSupporting nowhere else): without that (v1.2.2) the
    // line of fire, the dearest part of this, is not measured, and the answer is left true.
    const withSupport = this.rules.combat.barrierWithSupport;
    // Only models with the trait can have a working Barrier: the others are not looked at.
    for (const o of this.barrierModels) {
      if (!this.mayHelpDefend(o, att, tgt) || o.state.defense < best) continue;
      if (!o.state.hasBarrier() || separationAbove(o.base, tgt.base, reach)) continue;
      const supports = !withSupport || this.nearLineOfFire(o, att, tgt);
      supporting = o.state.defense > best ? supports : supporting && supports;
      best = o.state.defense;
    }
    mods.barrierDefense = best;
    mods.barrierSupporting = best > 0 && supporting;
  }

  protected canEvade(m: BattleModel): boolean {
    if (m.unit.traits.has('Sluggish') && this.br.sluggishMayNotEvade) return false;
    return m.unit.isCapital ? m.state.thrusters >= 1 : m.fuel >= 2 && !m.state.crippled;
  }

  /** Attacks of `m` that would bear on `t` from `p` (estimate; for the Concentrated Fire choice). */
  protected estimateShots(m: BattleModel, p: Pose, t: BattleModel): number {
    const brg = bearing(p.x, p.y, t.base.x, t.base.y);
    const arc = ARC_OF_REL(normalizeDeg(brg - p.heading));
    let n = 0;
    for (const w of m.unit.weapons) if (w.arcs.includes('T') || w.arcs.includes(arc)) n += w.count;
    return Math.min(n, m.state.fireControl());
  }

}
