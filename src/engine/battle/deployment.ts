// Deployment (seed 000, game.md §12.1-12.2): beacon placement, deployment zones and spots,
// Fleet and Escalating Deployment phases, Embarked deployment and In Reserve.
import { UserError } from '../../errors.js';
import type { Policy } from '../../policies/types.js';
import type { CompiledRules } from '../../rules/compile.js';
import type { Scenario } from '../../scenarios/scenarioTypes.js';
import { GEOM_EPSILON, type Base, baseInRect, bearing, cosDeg, hypot, hypotAtLeast, pointWithin, separationBelow, sinDeg } from '../geometry.js';
import { BattleModel, MovingBase, type Where } from './model.js';
import { baseAt, legalEnd, type Pose } from './movement.js';
import type { DeploySpot } from './battleTypes.js';
import { r3, poseOf, cutTo, BattleState } from './battleState.js';

/**
 * A spot as this module makes it: with `blocked`, the Deployment Phase (deployStamp) in which
 * legalEnd last ruled it out for its unit type (strip and corner zones), and `slot`, its place in
 * the per-unit-type records of ruled-out beacon spots (BattleDeployment.beaconBlocked).
 */
type Spot = { pose: Pose; front: number; inZone: (p: Pose) => boolean; zoneOk: number; blocked: number; slot: number };

/**
 * A candidate list as handed to the policies, with its version (DeployCandidates): a strip or
 * corner zone's list never changes its fronts (version 0 for good); a set of beacons' list holds
 * the spots of the game it was last offered in (its version: that game, beaconGame).
 */
type SpotList = DeploySpot[] & { version: number; memo: unknown };
/** An empty SpotList, its version and policy memo set before any element is added (every list the same shape). */
function spotList(version: number): SpotList {
  const list = [] as unknown as SpotList;
  list.version = version;
  list.memo = undefined;
  return list;
}

/** Spots around each beacon (beaconSpots), and so the slots of the ruled-out records per beacon. */
const SPOTS_PER_BEACON = 25;
/** A beacon spot's zone test, never asked (its zoneOk is 1 from the start: see beaconSpots). */
const IN_BEACON_ZONE = (_p: Pose) => true;

/** The spots around one beacon, kept between games and refilled (BattleDeployment.beaconSpots). */
interface BeaconPlaces {
  game: number;
  readonly list: Spot[];
}

/** A first Deployment Phase as played once (BattleDeployment.deploymentPhase), per model by index. */
interface FirstDeployment {
  readonly policies: readonly [Policy, Policy];
  readonly where: readonly Where[];
  /** x, y, heading per model. */
  readonly pose: Float64Array;
  /** The index of the carrier a model is Embarked on, or -1. */
  readonly carrier: Int32Array;
  readonly deployedTurn: Int32Array;
  readonly unplaced: readonly number[];
  /** How far the phase advanced the epoch. */
  readonly epochs: number;
}

export abstract class BattleDeployment extends BattleState {
  constructor(rules: CompiledRules, scenario: Scenario) {
    super(rules, scenario);
    this.checkDeployable();
  }

  /**
   * Strip and quadrant zones (GM-81, GM-82, GM-84): every unit type must have a spot in both
   * zones on an empty table, else its models would sit In Reserve all game and the results
   * would mean nothing. Such a scenario is refused (exit 2) with the field to change.
   * (Beacon zones are placed per game; the loader already asks for a 24" x 24" table.)
   */
  private checkDeployable(): void {
    const s = this.scenario;
    if (s.zone === 'beacon') return;
    const r3s = (x: number) => String(r3(x));
    for (const u of this.units) {
      const m = this.models.find((x) => x.unit === u)!;
      for (const z of [0, 1] as const) {
        const fits = this.fixedZoneSpots(m, z).some((c) => BattleDeployment.spotInZone(c) && legalEnd(this.br, m, c.pose, [], this.width, this.height));
        if (fits) continue;
        const base = `base ${r3s(m.base.width)}" x ${r3s(m.base.length)}"`;
        if (s.zone === 'standard' && m.base.width > this.width) {
          throw new UserError(`${s.file}: table: a ${r3s(this.width)}"-wide table cannot hold ${u.id} (${base}, deployed facing the enemy edge): its models could never deploy; allowed: a wider table`);
        }
        if (s.zone === 'standard') {
          throw new UserError(
            `${s.file}: deployment.strip_depth: ${r3s(s.stripDepth)}" is too shallow for ${u.id} (${base}, deployed facing the enemy edge, so about ${r3s(m.base.length)}" deep): its models could never deploy; allowed: a deeper strip (at most half the table height), or --rule zone_containment=ANY_PART`,
          );
        }
        throw new UserError(
          `${s.file}: table: the corner quadrants of a ${r3s(this.width)}" x ${r3s(this.height)}" table (${r3s(this.width / 2)}" x ${r3s(this.height / 2)}") cannot hold ${u.id} (${base}, deployed at 45° to the edges): its models could never deploy; allowed: a larger table, or --rule zone_containment=ANY_PART`,
        );
      }
    }
  }

  protected placeBeacons(initSide: 0 | 1): void {
    // Seed 000: four beacons each, alternating from the Initiative player, each at least 12" from every other.
    for (let k = 0; k < 8; k++) {
      const side = (k % 2 === 0 ? initSide : 1 - initSide) as 0 | 1;
      const home = { x: this.width / 2, y: this.zoneOf(side) === 0 ? 0 : this.height };
      // The candidates' objects and list are kept from beacon to beacon and game to game,
      // refilled in place (the list is cut to the count found; the policy only reads it).
      const cands = this.beaconCands, pool = this.beaconCandPool;
      let count = 0;
      for (let tries = 0; tries < 200 && count < 16; tries++) {
        const x = this.pol.next() * this.width, y = this.pol.next() * this.height;
        // A loop rather than every(): the closure was made (with x and y boxed) for each try.
        let clear = true;
        for (const b of this.beacons) {
          if (!hypotAtLeast(b.x - x, b.y - y, 12 - GEOM_EPSILON)) {
            clear = false;
            break;
          }
        }
        if (clear) {
          if (count === pool.length) pool.push({ x: 0, y: 0 });
          const c = pool[count];
          c.x = x;
          c.y = y;
          cands[count++] = c;
        }
      }
      cutTo(cands, count);
      if (!count) continue; // the table is full: fewer beacons (noted in the trace)
      const owner = this.policyOfSide(side);
      const c = cands[owner.pickBeacon(this, side, home, cands, this.pol)];
      this.beacons.push({ side, x: c.x, y: c.y });
      this.trace?.beacons.push({ side: this.fleetLabel(side), x: r3(c.x), y: r3(c.y) });
    }
  }

  /** makeDeployCandidates' scratch: whether each beacon is covered (placeBeacons places at most eight). */
  private readonly beaconCoveredScratch = new Uint8Array(8);
  /** makeDeployCandidates' Beacon zone candidate lists, by the set of beacons offered (a bit per beacon index; the policy only reads them). */
  private readonly beaconCandLists: Array<SpotList | undefined> = [];

  /** placeBeacons' scratch: the candidate spots offered to the policy, and their objects. */
  private readonly beaconCands: Array<{ x: number; y: number }> = [];
  private readonly beaconCandPool: Array<{ x: number; y: number }> = [];

  protected readonly zoneRect = new MovingBase('rect', 0, 0, 0, 1, 1);
  /** GM-82: the whole base inside the zone rectangle, or (ANY_PART) some of it. */
  protected inZoneRect(b: Base, x0: number, y0: number, x1: number, y1: number): boolean {
    if (!this.br.zoneAnyPart) return baseInRect(b, x0, y0, x1, y1);
    const z = this.zoneRect;
    z.resize('rect', y1 - y0, x1 - x0);
    z.set((x0 + x1) / 2, (y0 + y1) / 2, 0);
    return separationBelow(b, z, 0);
  }

  /** "A" or "B" for the fleet at a table position this game. */
  protected fleetLabel(side: 0 | 1): string {
    return this.sideOfFleet[0] === side ? 'A' : 'B';
  }

  /** Which zone a side deploys in and withdraws to: 0 for the Initiative side. */
  protected zoneOf(side: 0 | 1): 0 | 1 {
    return side === this.initSide ? 0 : 1;
  }

  protected policyOfSide(side: 0 | 1): Policy {
    return this.policies[this.sideOfFleet[0] === side ? 0 : 1];
  }

  /**
   * Strip and quadrant candidates depend only on the unit type and the zone, so they are made
   * once per Battle, with whether each lies in the zone (zoneOk: -1 not yet known, 0 no, 1 yes).
   */
  protected readonly deployCache = new Map<number, DeploySpot[]>();

  /** Spots in the side's zone for this model, with how far forward each is. */
  protected deployCandidates(m: BattleModel, side: 0 | 1, coverBeacons: boolean): DeploySpot[] {
    const z = this.zoneOf(side);
    if (this.scenario.zone === 'beacon') return this.makeDeployCandidates(m, z, coverBeacons, side);
    return this.fixedZoneSpots(m, z);
  }

  /** The cached spots of a strip or quadrant zone (`z`: 0 the Initiative side's) for this model's unit type. */
  private fixedZoneSpots(m: BattleModel, z: 0 | 1): DeploySpot[] {
    const key = m.unitIndex * 2 + z;
    let list = this.deployCache.get(key);
    if (!list) this.deployCache.set(key, (list = this.makeDeployCandidates(m, z, false, 0)));
    return list;
  }

  /** Whether a candidate spot lies in its zone (remembered on cached spots). */
  protected static spotInZone(c: DeploySpot): boolean {
    if (c.zoneOk < 0) c.zoneOk = c.inZone(c.pose) ? 1 : 0;
    return c.zoneOk === 1;
  }

  protected makeDeployCandidates(m: BattleModel, z: 0 | 1, coverBeacons: boolean, side: 0 | 1): DeploySpot[] {
    const zone = this.scenario.zone;
    // Beacon zones hand out kept lists: no list or closure is made for them here.
    if (zone !== 'standard' && zone !== 'corner') return this.beaconCandidates(coverBeacons, side);
    const W = this.width, H = this.height, out = spotList(0);
    const tryPose = (x: number, y: number, heading: number, front: number, inZone: (p: Pose) => boolean) => {
      const p = { x, y, heading };
      out.push({ pose: p, front, inZone, zoneOk: -1, blocked: 0, slot: out.length } as Spot);
    };
    if (zone === 'standard') {
      const depth = this.scenario.stripDepth;
      const heading = z === 0 ? 0 : 180;
      const y0 = z === 0 ? 0 : H - depth;
      const inZone = (p: Pose) => this.inZoneRect(baseAt(m, p), 0, y0, W, y0 + depth);
      for (let row = 0; row <= 4; row++) {
        const f = row / 4;
        const y = z === 0 ? m.reach + f * (depth - 2 * m.reach) : H - m.reach - f * (depth - 2 * m.reach);
        for (let x = W / 2, k = 0; k < 2 * Math.ceil(W / 3); k++) {
          const xx = W / 2 + (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 3;
          if (xx < 0 || xx > W) continue;
          tryPose(xx, y, heading, f, inZone);
          void x;
        }
      }
    } else {
      const qx = z === 0 ? 0 : W / 2, qy = z === 0 ? 0 : H / 2;
      const heading = z === 0 ? 45 : 225;
      const inZone = (p: Pose) => this.inZoneRect(baseAt(m, p), qx, qy, qx + W / 2, qy + H / 2);
      for (let i = 0; i <= 8; i++) {
        for (let j = 0; j <= 8; j++) {
          const x = qx + m.reach + (i / 8) * (W / 2 - 2 * m.reach), y = qy + m.reach + (j / 8) * (H / 2 - 2 * m.reach);
          const dFront = z === 0 ? (x - qx + y - qy) / (W / 2 + H / 2) : (qx + W / 2 - x + qy + H / 2 - y) / (W / 2 + H / 2);
          tryPose(x, y, heading, dFront, inZone);
        }
      }
    }
    return out;
  }

  /** makeDeployCandidates for a Beacon zone: the kept list of the spots around the own beacons offered. */
  private beaconCandidates(coverBeacons: boolean, side: 0 | 1): DeploySpot[] {
    // Loops rather than filter() and some() with closures: the own beacons (all of them when
    // none is a target), and with `coverBeacons` only those no own model covers yet.
    // Each own beacon's cover is found once (covered[i]: 1 when an own model covers it).
    const beacons = this.beacons, covered = this.beaconCoveredScratch;
    let targets = 0;
    for (let i = 0; i < beacons.length; i++) {
      const b = beacons[i];
      if (b.side !== side) continue;
      covered[i] = coverBeacons && this.beaconCovered(i) ? 1 : 0;
      if (covered[i] === 0) targets++;
    }
    // One list per set of beacons offered (a bit per beacon index), made the first time that
    // set is met and kept from game to game: each beacon's spot objects are its own for good
    // (beaconSpots refills them in place each game), so a set's list always holds the same
    // objects. Handing out the same list for the same spots lets the policy keep its search
    // order for them (pickByDepth): a side's later models mostly get its first model's list.
    let mask = 0;
    for (let i = 0; i < beacons.length; i++) {
      const b = beacons[i];
      if (b.side !== side || (coverBeacons && targets > 0 && covered[i] === 1)) continue;
      mask |= 1 << i;
      this.beaconSpots(i); // this game's spots, once per game
    }
    let all = this.beaconCandLists[mask];
    if (all === undefined) {
      all = spotList(0);
      for (let i = 0; i < beacons.length; i++) if ((mask >> i) & 1) all.push(...this.beaconSpots(i));
      this.beaconCandLists[mask] = all;
    }
    // Its spots were refilled above if this is a new game (and only then): the game is the version.
    all.version = this.beaconGame;
    return all;
  }

  /**
   * Per beacon (by index): its spots (0" to 3" out, every 45°), made once per game (the beacons
   * are placed anew each game) and offered to every unit type: nothing in them is the unit's
   * own. Their zone test (some of the base within 3" of the beacon, GM-36) passes for any base,
   * since a base holds its centre and no spot's centre is more than 3" (plus rounding, far below
   * GEOM_EPSILON) from the beacon: each spot's zoneOk is 1 from the start, the test never run.
   * What a unit type has ruled out is kept apart (beaconBlocked). The spot objects are kept from
   * game to game and refilled in place (`game`: the game they were last filled for).
   */
  protected readonly beaconSpotPlaces: BeaconPlaces[] = [];
  /**
   * Per unit type (0: every squadron, which all have the same base and spacing needs; 1 + the
   * unit index for a capital ship): for each beacon spot by its slot, the Deployment Phase
   * (deployStamp) in which legalEnd last ruled it out for that type.
   */
  private readonly beaconBlocked: Float64Array[] = [];
  /** Counts games (BattleGame.play), so that kept beacon spots are known to be this game's. */
  protected beaconGame = 0;
  protected beaconSpots(bi: number): DeploySpot[] {
    const game = this.beaconGame;
    let places = this.beaconSpotPlaces[bi];
    if (places !== undefined && places.game === game) return places.list;
    const b = this.beacons[bi];
    const W = this.width, H = this.height;
    const diag = hypot(W, H) / 2;
    const heading = bearing(b.x, b.y, W / 2, H / 2);
    if (places === undefined) {
      places = { game, list: [] };
      for (let r = 0; r <= 3; r += 1) {
        for (let a = 0; a < 360; a += r === 0 ? 360 : 45) {
          const slot = bi * SPOTS_PER_BEACON + places.list.length;
          places.list.push({ pose: { x: 0, y: 0, heading: 0 }, front: 0, inZone: IN_BEACON_ZONE, zoneOk: 1, blocked: 0, slot });
        }
      }
      this.beaconSpotPlaces[bi] = places;
    }
    places.game = game;
    const list = places.list;
    let k = 0;
    for (let r = 0; r <= 3; r += 1) {
      for (let a = 0; a < 360; a += r === 0 ? 360 : 45) {
        const x = b.x + r * sinDeg(a), y = b.y + r * cosDeg(a);
        const c = list[k++];
        c.pose.x = x;
        c.pose.y = y;
        c.pose.heading = heading;
        c.front = 1 - hypot(x - W / 2, y - H / 2) / diag;
      }
    }
    return list;
  }

  /** beaconBlocked's record for this model's unit type. */
  private beaconBlockedOf(m: BattleModel): Float64Array {
    const key = m.unit.isCapital ? 1 + m.unitIndex : 0;
    let rec = this.beaconBlocked[key];
    // placeBeacons places at most eight beacons.
    if (rec === undefined) this.beaconBlocked[key] = rec = new Float64Array(8 * SPOTS_PER_BEACON);
    return rec;
  }

  /**
   * A carrier this squadron may deploy Embarked on (seed 000, GM-86): Fleet Deployment from the
   * first phase on any friendly capital ship with room whose base lies in the zone (in later
   * phases, option reserve_embark_rule: or anywhere, or never); Escalating Deployment never in
   * the first phase, later only on ships deployed in that same phase.
   */
  protected embarkCarrier(m: BattleModel, turn: number): BattleModel | null {
    if (m.unit.isCapital) return null;
    const want = this.policyOfSide(m.side).holdBack().embark ?? 0;
    if (want < 1) return null;
    let already = 0;
    for (const x of this.models) if (x.side === m.side && x.where === 'embarked') already++;
    if (already >= want) return null;
    if (this.scenario.deployment === 'escalating' && turn === 1) return null;
    const fleetLater = turn > 1 && this.scenario.deployment === 'fleet';
    if (fleetLater && this.br.reserveEmbark === 'table_only') return null;
    const anyCarrier = fleetLater && this.br.reserveEmbark === 'any_carrier';
    for (const c of this.models) {
      if (c.side !== m.side || !c.unit.isCapital || c.where !== 'table' || !c.fights(this.br.inertHulks) || c.unit.hangers < 1 || this.aboard(c) >= c.unit.hangers) continue;
      if (this.scenario.deployment === 'escalating' && c.deployedTurn !== turn) continue;
      if (turn > 1 && !anyCarrier && !this.inOwnZone(c)) continue; // GM-86 carrier_in_zone
      return c;
    }
    return null;
  }

  /** A beacon of this side with none of its models within 3" yet (GM-83), if any. */
  protected uncoveredBeacon(side: 0 | 1): boolean {
    const beacons = this.beacons;
    for (let i = 0; i < beacons.length; i++) {
      const b = beacons[i];
      if (b.side === side && !this.beaconCovered(i)) return true;
    }
    return false;
  }

  /**
   * One of its side's models on the table lies within 3" of beacon `bi` (GM-83). Asked only
   * during a Deployment Phase, in which models only come onto the table, where they stay
   * unmoved: a beacon found covered stays covered through the phase, and is not measured again
   * (beaconCoveredIn: the phase, by deployStamp, in which each beacon was found covered).
   */
  protected beaconCovered(bi: number): boolean {
    const stamp = this.deployStamp;
    if (this.beaconCoveredIn[bi] === stamp) return true;
    // Found open in this phase with no model placed since (each placement moves the epoch on):
    // still open (a model's turn asks about the same beacons two or three times).
    if (this.beaconOpenIn[bi] === stamp && this.beaconOpenAt[bi] === this.epoch) return false;
    const b = this.beacons[bi], side = b.side, models = this.models;
    for (let i = 0; i < models.length; i++) {
      const o = models[i];
      if (o.side === side && o.where === 'table' && pointWithin(b.x, b.y, o.base, 3 + GEOM_EPSILON)) {
        this.beaconCoveredIn[bi] = stamp;
        return true;
      }
    }
    this.beaconOpenIn[bi] = stamp;
    this.beaconOpenAt[bi] = this.epoch;
    return false;
  }
  /** beaconCovered's record, by beacon index (placeBeacons places at most eight). */
  private readonly beaconCoveredIn = new Float64Array(8);
  /** beaconCovered's record of beacons found open: the phase (deployStamp) and the epoch then. */
  private readonly beaconOpenIn = new Float64Array(8);
  private readonly beaconOpenAt = new Float64Array(8);

  /** The model's base lies in its side's deployment zone (GM-82; Beacon zones: within 3" of an own beacon, GM-36). */
  protected inOwnZone(c: BattleModel): boolean {
    const W = this.width, H = this.height, z = this.zoneOf(c.side);
    if (this.scenario.zone === 'beacon') return this.beacons.some((b) => b.side === c.side && pointWithin(b.x, b.y, c.base, 3 + GEOM_EPSILON));
    if (this.scenario.zone === 'corner') return z === 0 ? this.inZoneRect(c.base, 0, 0, W / 2, H / 2) : this.inZoneRect(c.base, W / 2, H / 2, W, H);
    const d = this.scenario.stripDepth;
    return z === 0 ? this.inZoneRect(c.base, 0, 0, W, d) : this.inZoneRect(c.base, 0, H - d, W, H);
  }

  /** Models that found no legal spot in their zone this game (the run's deployment check reads it). */
  readonly unplaced: BattleModel[] = [];

  protected deployOne(m: BattleModel, turn: number, coverBeacons: boolean): boolean {
    const carrier = coverBeacons && this.uncoveredBeacon(m.side) ? null : this.embarkCarrier(m, turn);
    if (carrier) {
      m.where = 'embarked';
      m.carrier = carrier;
      m.deployedTurn = turn;
      this.epoch++;
      this.trace?.deployments.push({ turn, model: `${m.label} (Embarked on ${carrier.label})`, ...poseOf(carrier.base) });
      return true;
    }
    const cands = this.deployCandidates(m, m.side, coverBeacons);
    // The spot tests (legalSpot, legalBeaconSpot) read the model and its list from here.
    this.spotModel = m;
    this.spotCands = cands;
    // Beacon spots are shared by the unit types, in their zone for all (beaconSpots): what a type
    // has ruled out is in its own record, by the spot's slot.
    const beacon = this.scenario.zone === 'beacon';
    if (beacon) this.spotBlocked = this.beaconBlockedOf(m);
    const legal = beacon ? this.legalBeaconSpot : this.legalSpot;
    const pick = cands.length ? this.policyOfSide(m.side).pickDeployment(this, m, cands, legal, this.pol) : -1;
    if (pick < 0) {
      this.trace?.deployments.push({ turn, model: `${m.label}: no legal spot in its zone, stays In Reserve`, x: NaN, y: NaN, heading: NaN });
      this.unplaced.push(m);
      return false;
    }
    const c = cands[pick];
    m.base.set(c.pose.x, c.pose.y, c.pose.heading);
    m.where = 'table';
    m.deployedTurn = turn;
    this.epoch++;
    this.trace?.deployments.push({ turn, model: m.label, ...poseOf(m.base) });
    return true;
  }

  /**
   * deployOne's model and candidate list, and (Beacon zones) the record of its unit type's
   * ruled-out spots: what the spot tests below read. The tests are made once per Battle: a
   * closure made in each deployOne held those in a context object of its own.
   */
  private spotModel: BattleModel | null = null;
  private spotCands: DeploySpot[] = [];
  private spotBlocked: Float64Array = new Float64Array(0);

  // Within one Deployment Phase models only come onto the table, so a spot legalEnd rules out
  // for a unit type stays ruled out for the next model of that type: it is not tested again
  // (the spots are kept per unit type, and per side through their zone or beacon).

  /** Whether deployOne's model may take spot i of a strip or corner zone list (its ruled-out mark kept on the spot). */
  private readonly legalSpot = (i: number): boolean => {
    const c = this.spotCands[i] as Spot, stamp = this.deployStamp;
    if (!BattleDeployment.spotInZone(c) || c.blocked === stamp) return false;
    if (legalEnd(this.br, this.spotModel!, c.pose, this.models, this.width, this.height)) return true;
    c.blocked = stamp;
    return false;
  };

  /** Whether deployOne's model may take spot i of a Beacon zone list (its ruled-out mark kept by slot in spotBlocked). */
  private readonly legalBeaconSpot = (i: number): boolean => {
    const c = this.spotCands[i] as Spot, blocked = this.spotBlocked, stamp = this.deployStamp;
    const slot = c.slot;
    if (blocked[slot] === stamp) return false;
    if (legalEnd(this.br, this.spotModel!, c.pose, this.models, this.width, this.height)) return true;
    blocked[slot] = stamp;
    return false;
  };

  protected reserves(side: 0 | 1, capital: boolean): BattleModel[] {
    return this.models.filter((m) => m.side === side && m.where === 'reserve' && m.unit.isCapital === capital && !m.state.destroyed);
  }

  /**
   * Deploys one model at a time, each side up to its limit (and past it while `coverBeacons` and
   * one of its beacons is still uncovered, GM-83); a side out of models passes. The sides
   * alternate, starting with the Initiative side, or (`blocks`, v1.2.1 §12.1) the Initiative
   * side deploys all it will before the other starts.
   */
  protected deployInTurn(initSide: 0 | 1, capital: boolean, limit: readonly [number, number], turn: number, coverBeacons = false, blocks = false): void {
    const done: [number, number] = [0, 0];
    const failed = new Set<BattleModel>();
    const step = (side: 0 | 1): boolean => {
      if (done[side] >= limit[side] && !(coverBeacons && this.uncoveredBeacon(side))) return false;
      // The first of reserves(side, capital) not yet found without a spot, without the list.
      let m: BattleModel | null = null;
      for (const x of this.models) {
        if (x.side === side && x.where === 'reserve' && x.unit.isCapital === capital && !x.state.destroyed && !failed.has(x)) {
          m = x;
          break;
        }
      }
      if (!m) return false;
      if (this.deployOne(m, turn, this.scenario.zone === 'beacon' && turn === 1)) done[side]++;
      else failed.add(m); // no legal spot: it stays In Reserve
      return true;
    };
    const sides = [initSide, (1 - initSide) as 0 | 1] as const;
    if (blocks) {
      for (const side of sides) while (step(side));
      return;
    }
    for (let any = true; any; ) {
      any = false;
      for (const side of sides) if (step(side)) any = true;
    }
  }

  /** Squadrons a side may deploy in this phase: its reserves less those its policy holds back (In Reserve). */
  protected squadronAllowance(side: 0 | 1, turn: number): number {
    const hold = this.policyOfSide(side).holdBack();
    const held = turn < hold.untilTurn ? hold.squadrons : 0;
    return Math.max(0, this.reserves(side, false).length - held);
  }

  protected deploymentPhase(turn: number, initSide: 0 | 1): void {
    // A later phase with no model left In Reserve deploys nothing and draws nothing: skipped
    // (most games hold nothing back, and each such phase listed the reserves again and again).
    if (turn > 1 && !this.anyInReserve()) return;
    // The first phase of a strip or corner zone, untraced, with both policies deploying by rule
    // alone: every game that starts with the same Initiative side and table positions deploys
    // the same way (all models start In Reserve; no random draw is made), so the placements of
    // the first such game are kept and laid out again.
    if (turn === 1 && this.trace === null && this.scenario.zone !== 'beacon' && this.policies[0].deploysByRule === true && this.policies[1].deploysByRule === true && this.allInReserve()) {
      const key = initSide * 2 + this.sideOfFleet[0];
      const memo = this.firstDeployments[key];
      if (memo !== undefined && memo.policies[0] === this.policies[0] && memo.policies[1] === this.policies[1]) {
        this.layOut(memo);
        return;
      }
      const epoch = this.epoch;
      this.playDeploymentPhase(turn, initSide);
      this.firstDeployments[key] = this.recordDeployment(epoch);
      return;
    }
    this.playDeploymentPhase(turn, initSide);
  }

  /** Some model In Reserve and not destroyed: one a Deployment Phase could place (reserves()). */
  private anyInReserve(): boolean {
    const models = this.models;
    for (let i = 0; i < models.length; i++) if (models[i].where === 'reserve' && !models[i].state.destroyed) return true;
    return false;
  }

  /** Every model In Reserve, undamaged, none yet found without a spot: how each game starts. */
  private allInReserve(): boolean {
    if (this.unplaced.length) return false;
    for (const m of this.models) if (m.where !== 'reserve' || m.state.destroyed || m.carrier !== null) return false;
    return true;
  }

  /** First Deployment Phases kept (deploymentPhase), by Initiative side and table positions. */
  private readonly firstDeployments: Array<FirstDeployment | undefined> = [];

  /** What a Deployment Phase just played did to the models (it started with every model In Reserve). */
  private recordDeployment(epochBefore: number): FirstDeployment {
    const models = this.models, n = models.length;
    const where: Where[] = [], pose = new Float64Array(3 * n), carrier = new Int32Array(n), deployedTurn = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const m = models[i];
      where.push(m.where);
      pose[3 * i] = m.base.x;
      pose[3 * i + 1] = m.base.y;
      pose[3 * i + 2] = m.base.heading;
      carrier[i] = m.carrier ? models.indexOf(m.carrier) : -1;
      deployedTurn[i] = m.deployedTurn;
    }
    const unplaced = this.unplaced.map((m) => models.indexOf(m));
    return { policies: [this.policies[0], this.policies[1]], where, pose, carrier, deployedTurn, unplaced, epochs: this.epoch - epochBefore };
  }

  /** Lays out a kept Deployment Phase again. */
  private layOut(d: FirstDeployment): void {
    const models = this.models;
    for (let i = 0; i < models.length; i++) {
      const m = models[i];
      m.base.set(d.pose[3 * i], d.pose[3 * i + 1], d.pose[3 * i + 2]);
      m.where = d.where[i];
      m.carrier = d.carrier[i] >= 0 ? models[d.carrier[i]] : null;
      m.deployedTurn = d.deployedTurn[i];
    }
    for (const i of d.unplaced) this.unplaced.push(models[i]);
    this.epoch += d.epochs;
  }

  /** Counts Deployment Phases played (Spot.blocked), never 0. */
  protected deployStamp = 0;

  protected playDeploymentPhase(turn: number, initSide: 0 | 1): void {
    this.deployStamp++;
    const all: [number, number] = [Infinity, Infinity];
    const squads: [number, number] = [this.squadronAllowance(0, turn), this.squadronAllowance(1, turn)];
    if (this.scenario.deployment === 'fleet') {
      // Fleet Deployment: every capital ship in the first phase; squadrons held In Reserve come later (GM-86).
      const beacon = this.scenario.zone === 'beacon';
      if (turn === 1) {
        // Capital ships in blocks (v1.2.1 §12.1: the attacker's, then the defender's) or one at a
        // time, alternating (GM-85; option fleet_deploy_capitals). Squadrons likewise (v1.2.1
        // §12.1 steps 3-4). GM-83: no side stops while one of its beacons is uncovered and a
        // model could cover it, whatever squadrons its policy meant to hold back.
        this.deployInTurn(initSide, true, all, turn, false, this.br.fleetDeployBlocks);
        this.deployInTurn(initSide, false, squads, turn, beacon, this.br.squadronDeployBlocks);
        return;
      }
      this.deployInTurn(initSide, false, squads, turn);
      return;
    }
    // Escalating (seed 000, GM-87): first phase one capital ship and two squadrons each (counts
    // mandatory for the models a side has: nothing is held back from them), then the rest.
    if (turn === 1) {
      this.deployInTurn(initSide, true, [1, 1], turn);
      this.deployInTurn(initSide, false, [Math.min(2, this.reserves(0, false).length), Math.min(2, this.reserves(1, false).length)], turn);
    } else {
      this.deployInTurn(initSide, true, all, turn);
      this.deployInTurn(initSide, false, squads, turn);
    }
  }

}
